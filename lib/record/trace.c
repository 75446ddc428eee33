/*
 * The trace: lib/encode's first two passes each walk every thread again,
 * its edges given straight to the encoder with the chunks the counting
 * pass measured (no text between), each edge's instructions from the
 * graph; the third reads back the second's text, kept in the spool.
 */
#include "trace.h"

#include <stdlib.h>

#include <dcfg/dcfg.h>
#include "encode/encode.h"

/* The encoder keeps one chunk's edges: a marker's chunk longer than this is split. */
#define REC_ENCODE_CHUNK_EDGES (1u << 24)
/* Edge ids a walk hands over at once. */
#define REC_TRACE_IDS (64u * 1024)

struct tracer {
	struct rec_build *b;
	dcfg_encode_sink sink;
	void *enc;
	uint32_t thread;
	size_t chunk;             /* the next chunk of b->chunks */
	uint64_t left;            /* edges still to give of the current chunk */
	int stop;                 /* the sink's non-zero value that stopped the walk */
};

/* The walk's edge ids to the encoder, a chunk marker where the counting pass cut a chunk. */
static int
trace_ids(void *ctx, const uint32_t *ids, size_t n)
{
	struct tracer *t = ctx;
	const struct rec_build *b = t->b;

	while (n > 0) {
		size_t take;
		int rc;
		if (t->left == 0) {
			const struct rec_chunk *c;
			struct dcfg_stream_record r = { .kind = DCFG_STREAM_CHUNK, .weight = 1 };
			if (t->chunk >= b->thread_chunks[t->thread + 1])
				return 2;
			c = &b->chunks[t->chunk++];
			r.preceding = c->preceding;
			r.instrs = c->instrs;
			r.edges = c->edges;
			if ((rc = t->sink(t->enc, &r)) != 0)
				return t->stop = rc, 3;
			t->left = c->edges;
		}
		take = t->left < n ? (size_t)t->left : n;
		if ((rc = dcfg_encode_sink_edges(t->enc, ids, take)) != 0)
			return t->stop = rc, 3;
		t->left -= take;
		ids += take;
		n -= take;
	}
	return 0;
}

/* One pass of the encoder: every thread walked again, its chunks as the counting pass cut them. */
static int
replay(void *ctx, dcfg_encode_sink sink, void *enc, struct dcfg_error *err)
{
	struct rec_build *b = ctx;
	struct tracer t = { .b = b, .sink = sink, .enc = enc };
	struct rec_id_sink out = { .cap = REC_TRACE_IDS, .flush = trace_ids, .ctx = &t };
	struct dcfg_stream_record r = { .kind = DCFG_STREAM_PROCESS, .weight = 1 };
	uint32_t th;
	int rc = 0;

	r.value = b->g->pid;
	if ((rc = sink(enc, &r)) != 0)
		return rc;
	if ((out.ids = malloc(REC_TRACE_IDS * sizeof *out.ids)) == NULL)
		return dcfg_error_set(err, b->s->dir, "out of memory");
	for (th = 0; th < b->g->n_threads && rc == 0; th++) {
		if (b->thread_chunks[th] == b->thread_chunks[th + 1])
			continue;   /* a thread that ran no block: nothing to trace */
		r.kind = DCFG_STREAM_THREAD;
		r.value = th;
		if ((rc = sink(enc, &r)) != 0)
			break;
		t.thread = th;
		t.chunk = b->thread_chunks[th];
		t.left = 0;
		rc = rec_walk_thread(b, th, &out, err);
		if (rc == 3)
			rc = t.stop;
		else if (rc == 2 || (rc == 0 && (t.left != 0 || t.chunk != b->thread_chunks[th + 1])))
			rc = dcfg_error_set(err, b->s->dir,
			    "thread %u: the second walk does not match the first's chunks", th);
	}
	free(out.ids);
	return rc;
}

int
rec_write_trace(struct rec_build *b, struct dcfg_output *out, struct dcfg_error *err)
{
	struct dcfg_encode_options eo = { .chunk_edges = REC_ENCODE_CHUNK_EDGES,
	    .spill_dir = b->s->dir };
	struct dcfg_encode_source src = { .name = b->s->dir, .replay = replay, .ctx = b,
	    .edge_instrs = b->edge_instrs, .n_edges = b->g->n_edges };
	int rc = dcfg_encode_edges(&src, &eo, out, err);

	if (rc > 0)
		rc = dcfg_error_set(err, b->s->dir, "writing the trace failed");
	return rc;
}
