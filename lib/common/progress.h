/*
 * The progress meter on standard error, as pv(1) shows it: for the file
 * being read, its name, the share of it read (from its size, counting the
 * bytes of the file itself, compressed or not), the bytes read, their
 * rate, a count rate (edges or lines per second) where the work knows
 * one, and the time left. One line, redrawn at most twice a second and
 * cleared at the end, so standard error is left as it was.
 *
 * Updates come from the slow path only (once per read of the file, at most
 * some hundreds of KiB apart), never per edge: an update reads the clock
 * and draws only when half a second has passed.
 */
#ifndef DCFG_PROGRESS_H
#define DCFG_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

enum dcfg_progress_mode { DCFG_PROGRESS_AUTO, DCFG_PROGRESS_ON, DCFG_PROGRESS_OFF };

struct dcfg_progress {
	const char *prog;
	int on;
	FILE *to;                        /* standard error */
	int width;                       /* the terminal's columns; 0: no limit */
	double (*clock)(void *ctx);      /* seconds, monotonic; tests give a fake one */
	void *clock_ctx;

	/* the file being read */
	int active;                      /* announced (or first updated), not yet done */
	const char *name;                /* NULL: not named (shown without a name) */
	const char *unit;                /* "edges", "lines" or NULL */
	int pass, passes;                /* pass of passes over it; 0: one pass */
	int sized;                       /* a regular file: SIZE is known */
	uint64_t size, bytes, units;
	double start, next;              /* when reading began, when to draw next */
	int shown;                       /* a line is on the terminal and must be cleared */
};

/* AUTO shows progress only when standard error is a terminal; OFF never. */
void dcfg_progress_init(struct dcfg_progress *pg, const char *prog,
    enum dcfg_progress_mode mode);

/*
 * Reading of PATH ("-" or NULL: standard input) begins, shown as NAME
 * (NULL: PATH), counting UNIT ("edges", "lines"; NULL: none). Call it
 * before the file is opened. Whatever file was being read is done. NAME
 * and UNIT must live until then.
 */
void dcfg_progress_file(struct dcfg_progress *pg, const char *name, const char *path,
    const char *unit);
/* The file is read PASSES times; this is pass PASS (from 1). */
void dcfg_progress_pass(struct dcfg_progress *pg, int pass, int passes);

/* BYTES of the file (before decompression) and UNITS read so far. */
void dcfg_progress_update(struct dcfg_progress *pg, uint64_t bytes, uint64_t units);
/* The same as a callback (dcfg_load_options.progress): CTX is the meter. */
void dcfg_progress_bytes(void *ctx, uint64_t bytes);

/*
 * The meter behind a progress callback and its context, when the callback
 * is dcfg_progress_bytes; otherwise NULL, and the work reports bytes only,
 * through the callback. This lets work that takes a callback name its
 * files and count its units on the meter.
 */
struct dcfg_progress *dcfg_progress_of(void (*progress)(void *ctx, uint64_t bytes),
    void *ctx);

/* The file is done: its last state is drawn, then the line is cleared. */
void dcfg_progress_done(struct dcfg_progress *pg);
/* The work is done (or failed, before its message): nothing is left shown. */
void dcfg_progress_end(struct dcfg_progress *pg);

#endif
