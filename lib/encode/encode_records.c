/*
 * The encoder's step for each record of a stream (encode_state.h), the
 * same in every pass: processes, threads and chunks opened and closed,
 * a chunk's edges and runs kept, and at its close counted (pass 1),
 * measured (pass 2) or written (pass 3).
 */
#include "encode_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "spill.h"

/* ---- writing ---- */

static void
out_u64(struct enc *e, uint64_t v)
{
	dcfg_out_u64(e->out, v);
}

static int
measure_chars(void *ctx, const char *s, size_t len)
{
	struct enc *e = ctx;

	return dcfg_dictionary_measure(&e->p->dict, s, len);
}

int
dcfg_enc_write_chars(struct enc *e, const char *s, size_t len)
{
	if (dcfg_reserve((void **)&e->tokens, &e->cap_tokens, len, sizeof *e->tokens) < 0)
		return -1;
	dcfg_compress(e->out, &e->p->dict, s, len, e->tokens);
	return 0;
}

static int
write_chars(void *ctx, const char *s, size_t len)
{
	return dcfg_enc_write_chars(ctx, s, len);
}

/* Pass 2 with a spill: measured, and kept for pass 3 between its marks (spill.h). */
static int
spill_chars(void *ctx, const char *s, size_t len)
{
	struct enc *e = ctx;

	if (dcfg_dictionary_measure(&e->p->dict, s, len) < 0)
		return -1;
	dcfg_out_char(e->out, DCFG_SPILL_CHARS);
	dcfg_out_bytes(e->out, s, len);
	dcfg_out_char(e->out, DCFG_SPILL_CHARS_END);
	return 0;
}

static void
write_open(void *ctx, uint64_t count)
{
	struct enc *e = ctx;

	dcfg_out_char(e->out, '(');
	dcfg_out_u64(e->out, count);
	dcfg_out_char(e->out, '*');
}

static void
write_close(void *ctx)
{
	struct enc *e = ctx;

	dcfg_out_char(e->out, ')');
}

static void
no_open(void *ctx, uint64_t count)
{
	(void)ctx;
	(void)count;
}

static void
no_close(void *ctx)
{
	(void)ctx;
}

/*
 * The chunk's EDGE_ID_SEQUENCE measured for the dictionary (pass 2) or
 * written (pass 3): the same text, cut the same way, in both.
 */
static int
chunk_text(struct enc *e)
{
	static const struct dcfg_text_visitor measure = { measure_chars, no_open, no_close };
	static const struct dcfg_text_visitor write = { write_chars, write_open, write_close };
	static const struct dcfg_text_visitor spill = { spill_chars, write_open, write_close };
	const struct dcfg_text_visitor *v = e->pass == 3 ? &write : e->spill ? &spill : &measure;
	struct dcfg_chunk_lines c = { e->edges, e->n, e->runs, e->n_runs };
	const struct dcfg_text *t;

	if (e->n_exp < 2)   /* the first edge is FIRST_EDGE_ID: no bits */
		return 0;
	if ((t = dcfg_chunk_encode(e->ce, &c, &e->p->tt)) == NULL ||
	    dcfg_text_walk(t, v, e) < 0)
		return dcfg_error_set(e->err, e->name, "out of memory");
	return 0;
}

static int
write_chunk(struct enc *e, uint64_t preceding, uint64_t instrs)
{
	int rc;

	dcfg_out_str(e->out, ",\n        [");
	out_u64(e, preceding);
	dcfg_out_str(e->out, ", ");
	out_u64(e, instrs);
	dcfg_out_str(e->out, ", ");
	out_u64(e, e->n_exp);
	dcfg_out_str(e->out, ", ");
	out_u64(e, e->n ? e->edges[0] : 0);
	dcfg_out_str(e->out, ", \"");
	rc = chunk_text(e);
	dcfg_out_str(e->out, "\"]");
	return rc;
}

/* ---- the walk over the stream, the same in every pass ---- */

static int
fail_at(struct enc *e, unsigned long line, const char *fmt, uint64_t v)
{
	char msg[200];

	snprintf(msg, sizeof msg, fmt, (unsigned long long)v);
	return dcfg_error_at(e->err, e->name, line, 1, "%s", msg);
}

static int
close_chunk(struct enc *e, int split)
{
	uint64_t preceding, instrs;

	if (!e->open)
		return 0;
	if (e->counts_instrs)
		instrs = e->instrs;
	else
		instrs = e->marker && !split && !e->continuation ? e->marker_instrs : 0;
	preceding = e->marker && !e->continuation ? e->marker_preceding : e->running;
	/*
	 * A trace's chunks are in execution order (spec 3.7). A marker that
	 * starts before the chunk before it ends, by the instructions counted
	 * (the DCFG's with --dcfg), would make a trace no reader takes.
	 */
	if (preceding < e->running)
		return dcfg_error_at(e->err, e->name, e->marker_line, 1,
		    "this chunk starts at instruction %llu, before the chunk before it ends (%llu%s)",
		    (unsigned long long)preceding, (unsigned long long)e->running,
		    e->o->dcfg ? ", by the DCFG's instruction counts" : "");
	if (preceding > UINT64_MAX - instrs)
		return fail_at(e, e->r->lineno,
		    "the thread's instructions up to this chunk's end exceed %llu", UINT64_MAX);
	e->running = preceding + instrs;
	e->open = 0;
	e->continuation = split;
	if (e->pass == 1) {
		struct dcfg_chunk_lines c = { e->edges, e->n, e->runs, e->n_runs };
		if (dcfg_chunk_count(&c, &e->p->tt) < 0)
			return dcfg_error_set(e->err, e->name, "out of memory");
		return 0;
	}
	if (!e->writes)
		return chunk_text(e);
	return write_chunk(e, preceding, instrs);
}

static void
open_chunk(struct enc *e, int marker, uint64_t preceding, uint64_t instrs)
{
	e->open = 1;
	e->n = 0;
	e->n_runs = 0;
	e->n_exp = 0;
	e->instrs = 0;
	e->marker = marker;
	if (marker) {
		e->continuation = 0;
		e->marker_preceding = preceding;
		e->marker_instrs = instrs;
		e->marker_line = e->r->lineno;
	}
}

static void
close_thread(struct enc *e)
{
	if (!e->in_thread)
		return;
	if (e->writes)
		dcfg_out_str(e->out, "]]");
	e->in_thread = 0;
}

static void
close_process(struct enc *e)
{
	if (e->p == NULL)
		return;
	if (e->writes)
		dcfg_out_str(e->out, "]]");
	e->p = NULL;
}

static int
open_process(struct enc *e, uint64_t pid, unsigned long line, size_t index)
{
	struct eproc *p;

	if (e->pass == 1) {
		if (dcfg_reserve((void **)&e->procs, &e->cap_procs, e->n_procs + 1, sizeof *e->procs) < 0)
			return dcfg_error_set(e->err, e->name, "out of memory");
		p = &e->procs[e->n_procs++];
		memset(p, 0, sizeof *p);
		if (e->o->dcfg && (p->dp = dcfg_find_process(e->o->dcfg, pid)) == NULL)
			return fail_at(e, line, "process %llu is not in the DCFG", pid);
	}
	e->p = &e->procs[index];
	e->threads = 0;
	if (e->writes) {
		dcfg_out_str(e->out, ",\n  [");
		out_u64(e, pid);
		dcfg_out_str(e->out, ",\n   ");
		if (e->pass == 3) {
			dcfg_dictionary_write(e->out, &e->p->dict);
		} else {   /* not chosen yet: pass 3 writes it where the spill says */
			dcfg_out_char(e->out, DCFG_SPILL_DICTIONARY);
			out_u64(e, index);
			dcfg_out_char(e->out, ';');
		}
		dcfg_out_str(e->out, ",\n   ");
		dcfg_transitions_write(e->out, &e->p->tt);
		dcfg_out_str(e->out, ",\n   [[\"THREAD_ID\", \"TRACE_DATA\"]");
	}
	return 0;
}

static void
open_thread(struct enc *e, uint64_t tid)
{
	e->in_thread = 1;
	e->running = 0;
	e->continuation = 0;
	e->chunks = 0;
	if (e->writes) {
		dcfg_out_str(e->out, ",\n    [");
		out_u64(e, tid);
		dcfg_out_str(e->out, ", [[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", "
		    "\"EDGE_COUNT\", \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"]");
	}
}

/*
 * A line at the top of the chunk (an edge, or a run's "# run") starts the
 * next chunk when this one is full: a run stays whole in its chunk, which
 * may then hold more than --chunk-edges edges.
 */
static int
top_line(struct enc *e, const struct dcfg_stream_record *r, const char *what)
{
	if (!e->in_thread)
		return fail_at(e, r->lineno, what, 0);
	if (r->depth > 0)
		return 0;
	/* full: this line starts the next piece (a chunk of exactly N is whole) */
	if (e->open && e->n_exp >= e->o->chunk_edges && close_chunk(e, 1) < 0)
		return -1;
	if (!e->open)
		open_chunk(e, 0, 0, 0);
	return 0;
}

/* The instructions of R's edge's source, from the DCFG or the source. 0, -1 with ERR. */
static int
source_instrs(struct enc *e, const struct dcfg_stream_record *r, uint64_t *instrs)
{
	if (e->o->dcfg) {
		const struct dcfg_edge *ed = dcfg_edge_by_id(e->o->dcfg, e->p->dp, r->edge);
		const struct dcfg_block *b;
		if (ed == NULL)
			return fail_at(e, r->lineno, "edge id %llu is not in the DCFG", r->edge);
		b = dcfg_block_by_node(e->o->dcfg, e->p->dp, ed->source);
		*instrs = b ? b->num_instrs : 0;
		return 0;
	}
	if (r->edge == 0 || r->edge > e->src->n_edges)
		return fail_at(e, r->lineno, "edge id %llu is not among the source's edges", r->edge);
	*instrs = e->src->edge_instrs[r->edge - 1];
	return 0;
}

/* After top_line. */
static int
add_edge(struct enc *e, const struct dcfg_stream_record *r)
{
	if (e->counts_instrs) {
		uint64_t instrs = 0;
		if (source_instrs(e, r, &instrs) < 0)
			return -1;
		if (r->weight != 1) {
			if (instrs > UINT64_MAX / r->weight)
				goto instr_overflow;
			instrs *= r->weight;
		}
		if (e->instrs > UINT64_MAX - instrs)
			goto instr_overflow;
		e->instrs += instrs;
	}
	if (e->n_exp > UINT64_MAX - r->weight)
		return fail_at(e, r->lineno,
		    "the chunk's EDGE_COUNT, its runs repeated, exceeds %llu", UINT64_MAX);
	e->n_exp += r->weight;
	if (dcfg_reserve((void **)&e->edges, &e->cap, e->n + 1, sizeof *e->edges) < 0)
		return dcfg_error_set(e->err, e->name, "out of memory");
	e->edges[e->n++] = r->edge;
	return 0;
instr_overflow:
	return fail_at(e, r->lineno,
	    "the chunk's INSTR_COUNT, its runs repeated, exceeds %llu", UINT64_MAX);
}

static int
open_run(struct enc *e, const struct dcfg_stream_record *r)
{
	if (top_line(e, r, "a \"# run\" line before \"# thread\"") < 0)
		return -1;
	if (dcfg_reserve((void **)&e->runs, &e->cap_runs, e->n_runs + 1, sizeof *e->runs) < 0)
		return dcfg_error_set(e->err, e->name, "out of memory");
	/* (the reader keeps the depth within DCFG_RUN_DEPTH_MAX) */
	e->open_runs[e->depth++] = e->n_runs;
	e->runs[e->n_runs++] = (struct dcfg_run_span){ .begin = e->n, .count = r->value };
	return 0;
}

static void
close_run(struct enc *e)
{
	size_t i = e->open_runs[--e->depth];

	if (e->runs[i].begin == e->n) {   /* no edges: nor in its runs, dropped before it */
		e->n_runs = i;
		return;
	}
	e->runs[i].end = e->n;
	e->runs[i].after = e->n_runs;
}

/* One record of the stream, the same in every pass: 0, 1 when OUT failed, -1 with ERR set. */
int
dcfg_enc_on_record(struct enc *e, const struct dcfg_stream_record *r)
{
	e->r = r;
	switch (r->kind) {
	case DCFG_STREAM_PROCESS:
		if (close_chunk(e, 0) < 0)
			return -1;
		close_thread(e);
		close_process(e);
		if (open_process(e, r->value, r->lineno, e->n_seen_procs++) < 0)
			return -1;
		break;
	case DCFG_STREAM_THREAD:
		if (e->p == NULL)
			return fail_at(e, r->lineno, "a \"# thread\" line before \"# process\"", 0);
		if (close_chunk(e, 0) < 0)
			return -1;
		close_thread(e);
		open_thread(e, r->value);
		break;
	case DCFG_STREAM_CHUNK:
		if (!e->in_thread)
			return fail_at(e, r->lineno, "a \"# chunk\" line before \"# thread\"", 0);
		if (close_chunk(e, 0) < 0)
			return -1;
		open_chunk(e, 1, r->preceding, r->instrs);
		break;
	case DCFG_STREAM_EDGE:
		/* (the common case first: a line of an open chunk that is not full) */
		if (!(r->depth > 0 || (e->open && e->in_thread && e->n_exp < e->o->chunk_edges)) &&
		    top_line(e, r, "an edge before \"# thread\"") < 0)
			return -1;
		if (add_edge(e, r) < 0)
			return -1;
		break;
	case DCFG_STREAM_RUN:
		if (open_run(e, r) < 0)
			return -1;
		break;
	case DCFG_STREAM_RUN_END:
		close_run(e);
		break;
	default:
		break;
	}
	return e->pass == 3 && dcfg_output_failed(e->out) ? 1 : 0;
}

/* Adds EDGES[0..N) to the open chunk, their instructions summed: edge records' add_edge. */
static int
add_edges(struct enc *e, const uint32_t *edges, size_t n)
{
	uint64_t instrs = 0;
	size_t i;

	if (e->counts_instrs && e->o->dcfg == NULL) {
		const uint32_t *per_edge = e->src->edge_instrs;
		uint64_t n_edges = e->src->n_edges;
		for (i = 0; i < n; i++) {
			if (edges[i] == 0 || edges[i] > n_edges)
				return fail_at(e, e->r->lineno,
				    "edge id %llu is not among the source's edges", edges[i]);
			instrs += per_edge[edges[i] - 1];
		}
	} else if (e->counts_instrs) {
		for (i = 0; i < n; i++) {
			struct dcfg_stream_record r = { .kind = DCFG_STREAM_EDGE, .edge = edges[i] };
			uint64_t one;
			if (source_instrs(e, &r, &one) < 0)
				return -1;
			instrs += one;
		}
	}
	if (e->instrs > UINT64_MAX - instrs)
		return fail_at(e, e->r->lineno,
		    "the chunk's INSTR_COUNT, its runs repeated, exceeds %llu", UINT64_MAX);
	e->instrs += instrs;
	e->n_exp += n;
	if (dcfg_reserve((void **)&e->edges, &e->cap, e->n + n, sizeof *e->edges) < 0)
		return dcfg_error_set(e->err, e->name, "out of memory");
	memcpy(e->edges + e->n, edges, n * sizeof *edges);
	e->n += n;
	return 0;
}

int
dcfg_encode_sink_edges(void *enc, const uint32_t *edges, size_t n)
{
	static const struct dcfg_stream_record edge = { .kind = DCFG_STREAM_EDGE, .weight = 1 };
	struct enc *e = enc;

	while (n > 0) {
		/* a slice's instructions stay far below 2^64: at most 2^24 edges of 2^32 */
		size_t take = n < (1u << 24) ? n : (1u << 24);
		if (!(e->open && e->in_thread && e->n_exp < e->o->chunk_edges) &&
		    top_line(e, &edge, "an edge before \"# thread\"") < 0)
			return -1;
		if (e->o->chunk_edges > e->n_exp && take > e->o->chunk_edges - e->n_exp)
			take = (size_t)(e->o->chunk_edges - e->n_exp);
		else if (e->o->chunk_edges <= e->n_exp)
			take = 1;
		if (add_edges(e, edges, take) < 0)
			return -1;
		edges += take;
		n -= take;
	}
	return e->pass == 3 && dcfg_output_failed(e->out) ? 1 : 0;
}

void
dcfg_enc_begin_walk(struct enc *e)
{
	e->p = NULL;
	e->in_thread = e->open = 0;
	e->depth = 0;
	e->n_seen_procs = 0;
}

int
dcfg_enc_end_walk(struct enc *e)
{
	if (close_chunk(e, 0) < 0)
		return -1;
	close_thread(e);
	close_process(e);
	return 0;
}

