/*
 * The trace: lib/encode's passes each walk every thread again, its edges
 * given straight to the encoder with the chunks the counting pass
 * measured (no text between), each edge's instructions from the graph.
 */
#include "trace.h"

#include <stdlib.h>

#include <dcfg/dcfg.h>
#include "encode/encode.h"

/* The encoder keeps one chunk's edges: a marker's chunk longer than this is split. */
#define REC_ENCODE_CHUNK_EDGES (1u << 24)

struct tracer {
	struct rec_build *b;
	dcfg_encode_sink sink;
	void *enc;
	size_t chunk;             /* the next chunk of b->chunks */
	uint64_t left;            /* edges still to give of the current chunk */
	struct dcfg_stream_record r;
};

static int
trace_edge(void *ctx, uint32_t thread, uint32_t edge, uint32_t source_instrs)
{
	struct tracer *t = ctx;
	const struct rec_build *b = t->b;
	int rc;

	(void)source_instrs;
	if (t->left == 0) {
		const struct rec_chunk *c;
		if (t->chunk >= b->thread_chunks[thread + 1])
			return 2;
		c = &b->chunks[t->chunk++];
		t->r.kind = DCFG_STREAM_CHUNK;
		t->r.preceding = c->preceding;
		t->r.instrs = c->instrs;
		t->r.edges = c->edges;
		if ((rc = t->sink(t->enc, &t->r)) != 0)
			return rc < 0 ? 3 : 1;
		t->r.kind = DCFG_STREAM_EDGE;
		t->left = c->edges;
	}
	t->left--;
	t->r.edge = b->g->edges[edge].id;
	rc = t->sink(t->enc, &t->r);
	return rc < 0 ? 3 : rc;
}

/* One pass of the encoder: every thread walked again, its chunks as the counting pass cut them. */
static int
replay(void *ctx, dcfg_encode_sink sink, void *enc, struct dcfg_error *err)
{
	struct rec_build *b = ctx;
	struct tracer t = { .b = b, .sink = sink, .enc = enc, .r = { .weight = 1 } };
	uint32_t th;
	int rc;

	t.r.kind = DCFG_STREAM_PROCESS;
	t.r.value = b->g->pid;
	if ((rc = sink(enc, &t.r)) != 0)
		return rc;
	for (th = 0; th < b->g->n_threads; th++) {
		if (b->thread_chunks[th] == b->thread_chunks[th + 1])
			continue;   /* a thread that ran no block: nothing to trace */
		t.r.kind = DCFG_STREAM_THREAD;
		t.r.value = th;
		if ((rc = sink(enc, &t.r)) != 0)
			return rc;
		t.chunk = b->thread_chunks[th];
		t.left = 0;
		rc = rec_walk_thread(b, th, 0, trace_edge, &t, err);
		if (rc == 1 || rc < 0)
			return rc;
		if (rc == 3)
			return -1;
		if (rc == 2 || t.left != 0 || t.chunk != b->thread_chunks[th + 1])
			return dcfg_error_set(err, b->s->dir,
			    "thread %u: the second walk does not match the first's chunks", th);
	}
	return 0;
}

int
rec_write_trace(struct rec_build *b, struct dcfg_output *out, struct dcfg_error *err)
{
	struct dcfg_encode_options eo = { .chunk_edges = REC_ENCODE_CHUNK_EDGES };
	struct dcfg_encode_source src = { .name = b->s->dir, .replay = replay, .ctx = b,
	    .edge_instrs = b->edge_instrs, .n_edges = b->g->n_edges };
	int rc = dcfg_encode_edges(&src, &eo, out, err);

	if (rc > 0)
		rc = dcfg_error_set(err, b->s->dir, "writing the trace failed");
	return rc;
}
