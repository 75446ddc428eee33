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
 *
 * In a pipeline every stage shares one terminal line, so by default only
 * the stage whose main input is a regular file draws (dcfg_progress_mode_for).
 * Where TERM is dumb or unset the line is redrawn with a carriage return
 * and spaces, never an escape sequence. When the terminal is too narrow,
 * fields go in a fixed order that keeps the time left to the last.
 */
#ifndef DCFG_PROGRESS_H
#define DCFG_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

/*
 * AUTO: the meter is drawn when standard error is a terminal; ON: always
 * (--progress); OFF: never (--quiet).
 */
enum dcfg_progress_mode { DCFG_PROGRESS_AUTO, DCFG_PROGRESS_ON, DCFG_PROGRESS_OFF };

/* The environment variable that sets every stage's mode at once. */
#define DCFG_PROGRESS_ENV "DCFG_PROGRESS"

struct dcfg_progress {
	const char *prog;
	int on;
	FILE *to;                        /* standard error */
	int width;                       /* the terminal's columns; 0: no limit */
	int plain;                       /* TERM dumb or unset: no escape sequences */
	size_t drawn;                    /* columns of the line shown, for plain clearing */
	double (*clock)(void *ctx);      /* seconds, monotonic; tests give a fake one */
	void *clock_ctx;

	/* the file being read */
	int active;                      /* announced (or first updated), not yet done */
	const char *name;                /* NULL: not named (shown without a name) */
	const char *unit;                /* "edges", "lines" or NULL */
	int pass, passes;                /* pass of passes over it; 0: one pass */
	double job_start;                /* when pass 1 began: the ETA is the whole job's */
	uint64_t job_bytes;              /* bytes read by the passes before this one */
	int job_pass;                    /* the last pass counted in job_bytes' job */
	int sized;                       /* a regular file: SIZE is known */
	uint64_t size, bytes, units;
	double start, next;              /* when reading began, when to draw next */
	int shown;                       /* a line is on the terminal and must be cleared */
};

/*
 * The mode of a command whose options asked for OPTION (AUTO: neither
 * --progress nor --quiet) and whose main input is MAIN_INPUT ("-" or
 * NULL: standard input). An option wins over the environment, as the
 * Unix convention has it; then DCFG_PROGRESS=0 is OFF and
 * DCFG_PROGRESS=1 is ON (any other value is as if unset). What is still
 * AUTO becomes OFF unless the main input is a regular file: a stage that
 * reads a pipe or a terminal leaves the line to the stage that reads the
 * file.
 */
enum dcfg_progress_mode dcfg_progress_mode_for(enum dcfg_progress_mode option,
    const char *main_input);

/*
 * AUTO shows progress only when standard error is a terminal; OFF never.
 * DCFG_PROGRESS applies to AUTO here too (as in dcfg_progress_mode_for),
 * for commands that did not ask that function; TERM is read for whether
 * escape sequences may be used.
 */
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
/*
 * The file is read PASSES times; this is pass PASS (from 1). The share
 * and rates are the pass's; the time left is the whole job's: what is
 * left of this pass and the passes after it, at the average rate of the
 * job since pass 1 began.
 */
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
