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
#include <dcfg/stream.h>
#include "common/output.h"

struct dcfg_encode_options {
	const struct dcfg *dcfg;            /* NULL, or the paired DCFG (blocks, edges) */
	uint64_t chunk_edges;               /* split chunks after this many edges */
	/*
	 * NULL, or a directory for a file (unlinked at once) where the
	 * measuring pass keeps the text it measured, so that the writing pass
	 * reads it back instead of walking and coding the edges again: two
	 * walks, not three. Disk: about the trace's size before its dictionary.
	 */
	const char *spill_dir;
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
};

/* 0 done, 1 stopped because OUT failed, -1 with ERR set. */
int dcfg_encode(const char *stream, const struct dcfg_encode_options *opt,
    struct dcfg_output *out, struct dcfg_error *err);

/* Takes one record: 0, 1 when the encoder's output failed (stop), -1 with the error set. */
typedef int (*dcfg_encode_sink)(void *enc, const struct dcfg_stream_record *r);

/*
 * Edges from the caller instead of a text stream, with no text between:
 * REPLAY runs once a pass (three passes) and gives SINK, with ENC, every
 * record a version 1 stream's lines would give (process, thread, chunk
 * markers, edges with weight 1 and depth 0), the same each time; it
 * returns at once SINK's non-zero value, or -1 with ERR set, else 0.
 * LINENO is named in errors. EDGE_INSTRS (or the options' DCFG) gives each
 * chunk's INSTR_COUNT: edge id I's source ran EDGE_INSTRS[I - 1]
 * instructions, ids 1 to N_EDGES.
 */
struct dcfg_encode_source {
	const char *name;                   /* named in errors */
	int (*replay)(void *ctx, dcfg_encode_sink sink, void *enc, struct dcfg_error *err);
	void *ctx;
	const uint32_t *edge_instrs;        /* NULL: none (or the DCFG's) */
	uint64_t n_edges;
};

/*
 * For REPLAY, instead of an edge record each: N edge ids at once, as N
 * edge records (weight 1, depth 0) would be. Returns as the sink.
 */
int dcfg_encode_sink_edges(void *enc, const uint32_t *edges, size_t n);

/* dcfg_encode on SRC's records: the same passes, the same trace. Returns as dcfg_encode. */
int dcfg_encode_edges(const struct dcfg_encode_source *src, const struct dcfg_encode_options *opt,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
