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

enum dcfg_stream_kind {
	DCFG_STREAM_EDGE,      /* a data line */
	DCFG_STREAM_PROCESS,   /* "# process PID" */
	DCFG_STREAM_THREAD,    /* "# thread TID" */
	DCFG_STREAM_CHUNK,     /* "# chunk PRECEDING INSTRS EDGES" */
	DCFG_STREAM_FIELDS,    /* "# fields ..." */
	DCFG_STREAM_META       /* any other '#' line */
};

struct dcfg_stream_record {
	enum dcfg_stream_kind kind;
	uint32_t edge;
	uint64_t value;                    /* the PID or TID */
	uint64_t preceding, instrs, edges; /* of a chunk marker */
	const char *line;                  /* the whole line, without its '\n'; valid until the next call */
	size_t len;
	unsigned long lineno;
};

struct dcfg_stream;

/*
 * Opens PATH ("-" or NULL: stdin) and checks the "# dcfg-stream 1" line.
 * Errors name the file NAME (NULL: PATH), so a spooled copy reports the
 * original.
 */
struct dcfg_stream *dcfg_stream_open(const char *path, const char *name,
    struct dcfg_error *err);
/* 1 with the next record, 0 at the end, -1 with ERR set. */
int dcfg_stream_next(struct dcfg_stream *s, struct dcfg_stream_record *r,
    struct dcfg_error *err);
const char *dcfg_stream_name(const struct dcfg_stream *s);
/* Called with the bytes of the file read so far (before decompression): at once, then as they are read. */
void dcfg_stream_set_progress(struct dcfg_stream *s,
    void (*progress)(void *ctx, uint64_t bytes), void *ctx);
void dcfg_stream_close(struct dcfg_stream *s);

#endif
