/*
 * Reading the edge stream (dcfg-stream(5)): one record a line, metadata
 * lines parsed, data lines reduced to their edge id. The per-line path
 * allocates nothing and calls no printf-family function.
 */
#ifndef DCFG_STREAM_H
#define DCFG_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "trace.h"     /* DCFG_RUN_DEPTH_MAX, DCFG_RUN_PERIOD_MAX */

/* Only what these headers declare is exported from libdcfg.so (Makefile: -fvisibility=hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum dcfg_stream_kind {
	DCFG_STREAM_EDGE,      /* a data line */
	DCFG_STREAM_PROCESS,   /* "# process PID" */
	DCFG_STREAM_THREAD,    /* "# thread TID" */
	DCFG_STREAM_CHUNK,     /* "# chunk PRECEDING INSTRS EDGES" */
	DCFG_STREAM_FIELDS,    /* "# fields ..." */
	DCFG_STREAM_RUN,       /* "# run COUNT" (version 2): the lines up to its end run COUNT times */
	DCFG_STREAM_RUN_END,   /* "# end run" (version 2) */
	DCFG_STREAM_META       /* any other '#' line */
};

struct dcfg_stream_record {
	enum dcfg_stream_kind kind;
	uint32_t edge;
	uint64_t value;                    /* the PID or TID, or a run's COUNT */
	/*
	 * How many times the line is executed: the product of the COUNTs of
	 * the runs around it, 1 outside runs. A run's own lines carry the
	 * weight of the runs around them, not their own COUNT.
	 */
	uint64_t weight;
	unsigned depth;                    /* runs open around the line */
	uint64_t preceding, instrs, edges; /* of a chunk marker */
	const char *line;                  /* the whole line, without its '\n'; valid until the next call */
	size_t len;
	unsigned long lineno;
};

struct dcfg_stream;

/*
 * Opens PATH ("-" or NULL: stdin) and checks the "# dcfg-stream 1" (or 2)
 * line. Errors name the file NAME (NULL: PATH), so a spooled copy reports
 * the original.
 *
 * The reader checks that runs nest, end before any other metadata line
 * and hold nothing but data lines and runs, and that no line's weight
 * overflows 64 bits: a consumer may rely on it.
 */
struct dcfg_stream *dcfg_stream_open(const char *path, const char *name,
    struct dcfg_error *err);
/* The same, reading FD (closed by dcfg_stream_close, or on an error), called NAME. */
struct dcfg_stream *dcfg_stream_open_fd(int fd, const char *name, struct dcfg_error *err);
/* 1 with the next record, 0 at the end, -1 with ERR set. */
int dcfg_stream_next(struct dcfg_stream *s, struct dcfg_stream_record *r,
    struct dcfg_error *err);
const char *dcfg_stream_name(const struct dcfg_stream *s);
/* 1, or 2 for a stream that may hold runs. */
int dcfg_stream_version(const struct dcfg_stream *s);
/* Called with the bytes of the file read so far (before decompression): at once, then as they are read. */
void dcfg_stream_set_progress(struct dcfg_stream *s,
    void (*progress)(void *ctx, uint64_t bytes), void *ctx);
void dcfg_stream_close(struct dcfg_stream *s);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
