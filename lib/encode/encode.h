/*
 * dcfg-encode's work: an edge stream (dcfg-stream(5)) to a DCFG-trace
 * (spec section 3). Three passes over the stream: count the transitions
 * (and build each process's table), find substrings repeated across
 * chunks (the dictionary), then write. Runs (version 2 streams) become
 * repeats, never expanded (chunkenc.h). Memory is the tables, the
 * dictionaries and one chunk, each line of its runs once; standard input
 * is spooled to a file first.
 */
#ifndef DCFG_ENCODE_H
#define DCFG_ENCODE_H

#include <stdint.h>

#include "dcfg/model.h"
#include <dcfg/error.h>
#include "common/output.h"

struct dcfg_encode_options {
	const struct dcfg *dcfg;            /* NULL, or the paired DCFG (blocks, edges) */
	uint64_t chunk_edges;               /* split chunks after this many edges */
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
};

/* 0 done, 1 stopped because OUT failed, -1 with ERR set. */
int dcfg_encode(const char *stream, const struct dcfg_encode_options *opt,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
