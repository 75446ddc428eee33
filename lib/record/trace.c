/*
 * The trace: each thread walked again, its edges written as an edge
 * stream (dcfg-stream(5), version 1) with the chunks the counting pass
 * measured, then encoded by lib/encode against the DCFG just written.
 */
#include "trace.h"

#include <stdlib.h>
#include <unistd.h>

#include <dcfg/dcfg.h>
#include "encode/encode.h"
#include "stream/writer.h"

/* The encoder keeps one chunk's edges: a marker's chunk longer than this is split. */
#define REC_ENCODE_CHUNK_EDGES (1u << 24)

struct tracer {
	struct rec_build *b;
	struct dcfg_output *out;
	size_t chunk;             /* the next chunk of b->chunks */
	uint64_t left;            /* edges still to write of the current chunk */
};

static int
trace_edge(void *ctx, uint32_t thread, uint32_t edge, uint32_t source_instrs)
{
	struct tracer *t = ctx;
	const struct rec_build *b = t->b;

	(void)source_instrs;
	if (t->left == 0) {
		const struct rec_chunk *c;
		if (t->chunk >= b->thread_chunks[thread + 1])
			return 2;
		c = &b->chunks[t->chunk++];
		dcfg_stream_write_chunk(t->out, c->preceding, c->instrs, c->edges);
		t->left = c->edges;
	}
	t->left--;
	dcfg_out_u64(t->out, b->g->edges[edge].id);
	dcfg_out_char(t->out, '\n');
	return dcfg_output_failed(t->out);
}

static int
write_stream(struct rec_build *b, const char *scratch, struct dcfg_error *err)
{
	struct dcfg_output *out = malloc(sizeof *out);
	uint32_t th;
	int rc = 0;

	if (out == NULL)
		return dcfg_error_set(err, scratch, "out of memory");
	if (dcfg_output_open(out, scratch, err) < 0) {
		free(out);
		return -1;
	}
	dcfg_stream_write_header(out, 1);
	dcfg_stream_write_process(out, b->g->pid);
	for (th = 0; rc == 0 && th < b->g->n_threads; th++) {
		struct tracer t = { b, out, b->thread_chunks[th], 0 };
		if (b->thread_chunks[th] == b->thread_chunks[th + 1])
			continue;   /* a thread that ran no block: nothing to trace */
		dcfg_stream_write_thread(out, th);
		rc = rec_walk_thread(b, th, 0, trace_edge, &t, err);
		if (rc == 2 || (rc == 0 && (t.left != 0 || t.chunk != b->thread_chunks[th + 1])))
			rc = dcfg_error_set(err, b->s->dir,
			    "thread %u: the second walk does not match the first's chunks", th);
	}
	if (rc != 0) {
		if (rc > 0)
			dcfg_output_close(out, err);
		else
			dcfg_output_discard(out);
		free(out);
		return -1;
	}
	rc = dcfg_output_close(out, err);
	free(out);
	return rc;
}

int
rec_write_trace(struct rec_build *b, const char *dcfg_plain, const char *scratch,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_BLOCKS | DCFG_KEEP_EDGES |
	    DCFG_LOAD_NO_ADDR_LOOKUPS | DCFG_LOAD_NO_IDENTITY };
	struct dcfg_encode_options eo = { .chunk_edges = REC_ENCODE_CHUNK_EDGES };
	struct dcfg *d;
	int rc;

	if (write_stream(b, scratch, err) < 0) {
		unlink(scratch);
		return -1;
	}
	if ((d = dcfg_load(dcfg_plain, &lo, err)) == NULL) {
		unlink(scratch);
		return -1;
	}
	eo.dcfg = d;
	rc = dcfg_encode(scratch, &eo, out, err);
	if (rc > 0)
		rc = dcfg_error_set(err, scratch, "writing the trace failed");
	dcfg_free(d);
	unlink(scratch);
	return rc;
}
