/*
 * The edges: each thread's blocks streamed from its file, each step from
 * one block to the next an edge of the kind its source's last
 * instruction explains. A step no instruction explains is a signal
 * delivered (CONTEXT_CHANGE); the place it interrupted is remembered, so
 * that the step that lands back there is its CONTEXT_CHANGE_RETURN.
 */
#include "build.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/* Where an interrupted thread may resume: two places when its instruction could go either way. */
struct resume {
	uint64_t a, b;
};

struct walk {
	struct rec_build *b;
	uint32_t thread;
	int counting;
	struct resume stack[REC_CC_DEPTH];
	unsigned depth;
};

static size_t
edge_hash(uint32_t source, uint32_t target, enum dcfg_edge_kind kind)
{
	uint64_t h = ((uint64_t)source << 32 | target) * 0x9e3779b97f4a7c15ull;

	return (size_t)((h ^ (h >> 29) ^ (uint64_t)kind * 0xff51afd7ed558ccdull) >> 7);
}

static int
grow_slots(struct rec_build *b)
{
	size_t n = b->n_slots ? b->n_slots * 2 : 1024, i;
	uint32_t *slots = calloc(n, sizeof *slots);

	if (slots == NULL)
		return -1;
	for (i = 0; i < b->g->n_edges; i++) {
		const struct dcfg_rec_edge *e = &b->g->edges[i];
		size_t h = edge_hash(e->source, e->target, e->kind) & (n - 1);
		while (slots[h] != 0)
			h = (h + 1) & (n - 1);
		slots[h] = (uint32_t)i + 1;
	}
	free(b->slots);
	b->slots = slots;
	b->n_slots = n;
	return 0;
}

static int
new_edge(struct rec_build *b, uint32_t source, uint32_t target, enum dcfg_edge_kind kind)
{
	struct dcfg_rec_graph *g = b->g;
	struct dcfg_rec_edge *e;

	if (dcfg_reserve((void **)&g->edges, &b->cap_edges, g->n_edges + 1, sizeof *g->edges) < 0)
		return -1;
	e = &g->edges[g->n_edges];
	e->id = (uint32_t)g->n_edges + 1;
	e->source = source;
	e->target = target;
	e->kind = kind;
	if ((e->count_per_thread = calloc(g->n_threads + 1, sizeof *e->count_per_thread)) == NULL)
		return -1;
	if (dcfg_reserve((void **)&b->edge_instrs, &b->cap_edge_instrs, g->n_edges + 1,
	    sizeof *b->edge_instrs) < 0) {
		free(e->count_per_thread);
		return -1;
	}
	b->edge_instrs[g->n_edges] = source >= DCFG_REC_FIRST_BLOCK ?
	    g->blocks[source - DCFG_REC_FIRST_BLOCK].n_instrs : 0;
	g->n_edges++;
	return 0;
}

/* The edge's index, made when CREATE; -1 when out of memory or (not CREATE) absent. */
int64_t
rec_find_edge(struct rec_build *b, uint32_t source, uint32_t target, enum dcfg_edge_kind kind,
    int create)
{
	const struct dcfg_rec_edge *e;
	size_t h;

	if (b->last_out[source] != 0) {
		e = &b->g->edges[b->last_out[source] - 1];
		if (e->target == target && e->kind == kind)
			return b->last_out[source] - 1;
	}
	if (b->n_slots == 0 && grow_slots(b) < 0)
		return -1;
	for (h = edge_hash(source, target, kind) & (b->n_slots - 1); b->slots[h] != 0;
	    h = (h + 1) & (b->n_slots - 1)) {
		e = &b->g->edges[b->slots[h] - 1];
		if (e->source == source && e->target == target && e->kind == kind) {
			b->last_out[source] = b->slots[h];
			return b->slots[h] - 1;
		}
	}
	if (!create || new_edge(b, source, target, kind) < 0)
		return -1;
	b->slots[h] = (uint32_t)b->g->n_edges;
	b->last_out[source] = (uint32_t)b->g->n_edges;
	if (2 * b->g->n_edges > b->n_slots && grow_slots(b) < 0)
		return -1;
	return (int64_t)b->g->n_edges - 1;
}

static void
remember(struct walk *w, uint64_t a, uint64_t b)
{
	if (w->depth == REC_CC_DEPTH) {   /* the oldest is forgotten: a handler never returned */
		memmove(w->stack, w->stack + 1, (REC_CC_DEPTH - 1) * sizeof *w->stack);
		w->depth--;
	}
	w->stack[w->depth++] = (struct resume){ a, b };
}

/* A step the source's last instruction cannot make. */
static enum dcfg_edge_kind
unexplained(struct walk *w, const struct rec_insn *in, const struct dcfg_rec_block *from,
    uint64_t at)
{
	uint64_t next = from->addr + from->size, last = from->addr + from->last_offset;
	unsigned i;

	for (i = w->depth; i-- > 0;)
		if (w->stack[i].a == at || w->stack[i].b == at) {
			w->depth = i;
			return DCFG_EDGE_CONTEXT_CHANGE_RETURN;
		}
	/* sigreturn, back to a place changed by the handler or not seen: the innermost */
	if (in->cls == REC_SYSCALL && w->depth > 0) {
		w->depth--;
		return DCFG_EDGE_CONTEXT_CHANGE_RETURN;
	}
	switch (in->cls) {
	case REC_COND:
		remember(w, next, in->has_target ? in->target : next);
		break;
	case REC_JUMP: case REC_CALL:
		remember(w, in->target, in->target);
		break;
	case REC_SYSCALL: case REC_REP:
		remember(w, next, last);
		break;
	default:
		remember(w, next, next);
		break;
	}
	return DCFG_EDGE_CONTEXT_CHANGE;
}

static enum dcfg_edge_kind
step_kind(struct walk *w, uint32_t from, uint32_t to)
{
	const struct dcfg_rec_block *f = &w->b->g->blocks[from];
	const struct rec_insn *in = &w->b->insn[from];
	uint64_t at = w->b->g->blocks[to].addr, next = f->addr + f->size;

	switch (in->cls) {
	case REC_PLAIN:
		if (at == next)
			return DCFG_EDGE_FALL_THROUGH;
		break;
	case REC_COND:
		if (at == next)
			return DCFG_EDGE_FALL_THROUGH;
		if (!in->has_target || at == in->target)
			return DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH;
		break;
	case REC_JUMP:
		if (!in->has_target || at == in->target)
			return DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH;
		break;
	case REC_JUMP_INDIRECT:
		return DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH;
	case REC_CALL:
		if (!in->has_target || at == in->target)
			return DCFG_EDGE_DIRECT_CALL;
		break;
	case REC_CALL_INDIRECT:
		return DCFG_EDGE_INDIRECT_CALL;
	case REC_RETURN:
		return DCFG_EDGE_RETURN;
	case REC_SYSCALL:
		if (at == next)
			return DCFG_EDGE_SYSTEM_CALL_BYPASS;
		break;
	case REC_REP:
		if (at == f->addr + f->last_offset)
			return DCFG_EDGE_REP;
		if (at == next)
			return DCFG_EDGE_FALL_THROUGH;
		break;
	}
	return unexplained(w, in, f, at);
}

static void
report(struct rec_build *b, const struct rec_thread_reader *r)
{
	if (b->progress)
		b->progress(b->progress_ctx, b->bytes_done + rec_thread_bytes_read(r), b->bytes_total);
}

static int
edge_error(struct walk *w, struct dcfg_error *err)
{
	return dcfg_error_set(err, w->b->s->dir, w->counting ? "out of memory" :
	    "the second walk over thread %u took an edge the first did not", w->thread);
}

/* The edge from translation block PREV_TB's last block, PREV, into TB's first, BLK; -1 with ERR. */
static int64_t
enter_tb(struct walk *w, uint32_t prev_tb, uint32_t prev, uint32_t tb, uint32_t blk,
    struct dcfg_error *err)
{
	struct rec_build *b = w->b;
	uint64_t memo = b->tb_next_edge[prev_tb];
	enum dcfg_edge_kind kind;
	int64_t e;

	if ((uint32_t)(memo >> 32) == tb + 1)
		return (uint32_t)memo;
	kind = step_kind(w, prev, blk);
	e = rec_find_edge(b, DCFG_REC_FIRST_BLOCK + prev, DCFG_REC_FIRST_BLOCK + blk, kind,
	    w->counting);
	if (e < 0)
		return edge_error(w, err);
	if (kind != DCFG_EDGE_CONTEXT_CHANGE && kind != DCFG_EDGE_CONTEXT_CHANGE_RETURN)
		b->tb_next_edge[prev_tb] = (uint64_t)(tb + 1) << 32 | (uint32_t)e;
	return e;
}

/* The fall-through edges between TB's pieces, found once (made when counting), in order. */
static int
tb_pieces(struct walk *w, uint32_t tb, struct dcfg_error *err)
{
	struct rec_build *b = w->b;
	uint32_t p, first = b->tb_first_piece[tb], end = b->tb_first_piece[tb + 1];

	if (end - first < 2 || b->piece_edge[first + 1] != 0)
		return 0;
	for (p = first + 1; p < end; p++) {
		int64_t e = rec_find_edge(b, DCFG_REC_FIRST_BLOCK + b->piece_block[p - 1],
		    DCFG_REC_FIRST_BLOCK + b->piece_block[p], DCFG_EDGE_FALL_THROUGH, w->counting);
		if (e < 0)
			return edge_error(w, err);
		b->piece_edge[p] = (uint32_t)e + 1;
	}
	return 0;
}

/* The edge into TB (from PREV_TB, or ENTRY when PREV_TB is UINT32_MAX), its pieces' edges found. */
static int64_t
step_edge(struct walk *w, uint32_t prev_tb, uint32_t tb, struct dcfg_error *err)
{
	struct rec_build *b = w->b;
	uint32_t blk = b->piece_block[b->tb_first_piece[tb]];
	int64_t e;

	if (prev_tb == UINT32_MAX) {
		if ((e = rec_find_edge(b, DCFG_REC_START, DCFG_REC_FIRST_BLOCK + blk, DCFG_EDGE_ENTRY,
		    w->counting)) < 0)
			return edge_error(w, err);
	} else {
		uint32_t prev = b->piece_block[b->tb_first_piece[prev_tb + 1] - 1];
		if ((e = enter_tb(w, prev_tb, prev, tb, blk, err)) < 0)
			return -1;
	}
	if (tb_pieces(w, tb, err) < 0)
		return -1;
	return e;
}

/* The EXIT edge from LAST_TB's last block; -1 with ERR. */
static int64_t
exit_edge(struct walk *w, uint32_t last_tb, struct dcfg_error *err)
{
	struct rec_build *b = w->b;
	uint32_t prev = b->piece_block[b->tb_first_piece[last_tb + 1] - 1];
	int64_t e = rec_find_edge(b, DCFG_REC_FIRST_BLOCK + prev, DCFG_REC_END, DCFG_EDGE_EXIT,
	    w->counting);

	return e < 0 ? edge_error(w, err) : e;
}

/*
 * A step whose edge was taken before is a load and a compare (the memo)
 * and the stores of its edge ids: the translation block's pieces' edges
 * follow the one into it.
 */
static int
walk_blocks(struct walk *w, struct rec_thread_reader *r, struct rec_id_sink *out,
    struct dcfg_error *err)
{
	struct rec_build *b = w->b;
	const uint64_t *memo = b->tb_next_edge;
	const uint32_t *first_piece = b->tb_first_piece, *piece_edge = b->piece_edge;
	uint32_t *ids = out->ids, prev_tb = UINT32_MAX, tb, steps = 0;
	size_t n = 0, cap = out->cap;
	int64_t e;
	int rc;

	while ((rc = rec_thread_next(r, &tb, err)) > 0) {
		uint32_t p = first_piece[tb], end = first_piece[tb + 1];
		uint64_t m = prev_tb != UINT32_MAX ? memo[prev_tb] : 0;
		if ((uint32_t)(m >> 32) == tb + 1)
			e = (uint32_t)m;
		else if ((e = step_edge(w, prev_tb, tb, err)) < 0)
			return -1;
		if (cap - n < end - p) {
			if ((rc = out->flush(out->ctx, ids, n)) != 0)
				return rc;
			n = 0;
		}
		ids[n++] = (uint32_t)e + 1;
		for (p++; p < end; p++)
			ids[n++] = piece_edge[p];
		prev_tb = tb;
		if ((++steps & 0xffff) == 0)
			report(b, r);
	}
	if (rc < 0)
		return -1;
	if (prev_tb != UINT32_MAX) {
		if ((e = exit_edge(w, prev_tb, err)) < 0)
			return -1;
		if (n == cap) {
			if ((rc = out->flush(out->ctx, ids, n)) != 0)
				return rc;
			n = 0;
		}
		ids[n++] = (uint32_t)e + 1;
	}
	report(b, r);
	return n > 0 ? out->flush(out->ctx, ids, n) : 0;
}

/* b->thread_counts holds every edge's slot. */
static int
counts_fit(struct rec_build *b)
{
	size_t n = b->n_thread_counts, cap = n;

	if (b->g->n_edges <= n)
		return 0;
	if (dcfg_reserve((void **)&b->thread_counts, &cap, b->g->n_edges, sizeof *b->thread_counts) < 0)
		return -1;
	for (; n < cap; n++)
		b->thread_counts[n] = 0;
	b->n_thread_counts = cap;
	return 0;
}

/* The edges of a step into TB one by one into the chunks: the step that fills a chunk. */
static int
chunk_step(struct rec_counter *c, uint32_t prev_tb, uint32_t tb)
{
	const struct rec_build *b = c->b;
	uint32_t p, end = b->tb_first_piece[tb + 1];

	if (rec_chunk_edge(c, prev_tb == UINT32_MAX ? 0 : b->tb_tail[prev_tb]) < 0)
		return -1;
	for (p = b->tb_first_piece[tb]; p + 1 < end; p++)
		if (rec_chunk_edge(c, b->g->blocks[b->piece_block[p]].n_instrs) < 0)
			return -1;
	return 0;
}

/* The per-step tables as locals: the compiler cannot keep B's fields across the stores. */
struct count_tables {
	const uint64_t *memo;
	const uint32_t *head, *tail, *first_piece;
	uint64_t *runs, *counts;
	struct rec_chunk *chunk;         /* the open chunk, or NULL */
};

static void
load_tables(struct count_tables *t, const struct rec_build *b, const struct rec_counter *c)
{
	t->memo = b->tb_next_edge;
	t->head = b->tb_head;
	t->tail = b->tb_tail;
	t->first_piece = b->tb_first_piece;
	t->runs = b->tb_runs;
	t->counts = b->thread_counts;
	t->chunk = c->open ? &b->chunks[b->n_chunks] : NULL;
}

/*
 * A step whose edge was taken before is a load and a compare (the
 * memo), two increments and a chunk's sums: the fall-through edges
 * inside translation blocks are counted from b->tb_runs at the end.
 */
static int
count_blocks(struct walk *w, struct rec_thread_reader *r, struct rec_counter *c,
    struct dcfg_error *err)
{
	struct rec_build *b = w->b;
	struct count_tables t;
	uint32_t prev_tb = UINT32_MAX, tb, steps = 0;
	uint64_t instrs = 0, limit = c->limit;
	int64_t e;
	int rc;

	load_tables(&t, b, c);
	while ((rc = rec_thread_next(r, &tb, err)) > 0) {
		uint64_t memo = prev_tb != UINT32_MAX ? t.memo[prev_tb] : 0;
		uint32_t step = (prev_tb != UINT32_MAX ? t.tail[prev_tb] : 0) + t.head[tb];
		if ((uint32_t)(memo >> 32) == tb + 1) {
			e = (uint32_t)memo;
		} else {
			if ((e = step_edge(w, prev_tb, tb, err)) < 0)
				return -1;
			if (counts_fit(b) < 0)
				return dcfg_error_set(err, b->s->dir, "out of memory");
			t.counts = b->thread_counts;
		}
		t.counts[e]++;
		t.runs[tb]++;
		instrs += step;
		if (t.chunk != NULL && t.chunk->instrs + step < limit) {
			t.chunk->instrs += step;
			t.chunk->edges += t.first_piece[tb + 1] - t.first_piece[tb];
		} else {
			c->running = t.chunk != NULL ? t.chunk->preceding + t.chunk->instrs : c->running;
			if (chunk_step(c, prev_tb, tb) < 0)
				return dcfg_error_set(err, b->s->dir, "out of memory");
			t.chunk = c->open ? &b->chunks[b->n_chunks] : NULL;
		}
		prev_tb = tb;
		if ((++steps & 0xffff) == 0)
			report(b, r);
	}
	if (rc < 0)
		return -1;
	if (t.chunk != NULL)
		c->running = t.chunk->preceding + t.chunk->instrs;
	if (prev_tb != UINT32_MAX) {
		if ((e = exit_edge(w, prev_tb, err)) < 0)
			return -1;
		if (counts_fit(b) < 0 || rec_chunk_edge(c, b->tb_tail[prev_tb]) < 0)
			return dcfg_error_set(err, b->s->dir, "out of memory");
		b->thread_counts[e]++;
		instrs += b->tb_tail[prev_tb];
	}
	b->g->instrs_per_thread[w->thread] += instrs;
	report(b, r);
	return 0;
}

/* The per-block and per-piece tables, made once. */
static int
prepare(struct rec_build *b)
{
	size_t n_tbs = b->s->n_tbs, n_pieces = b->tb_first_piece[n_tbs], t;

	if (b->last_out != NULL)
		return 0;
	b->last_out = calloc(b->g->n_blocks + DCFG_REC_FIRST_BLOCK, sizeof *b->last_out);
	b->tb_next_edge = calloc(n_tbs + 1, sizeof *b->tb_next_edge);
	b->piece_edge = calloc(n_pieces + 1, sizeof *b->piece_edge);
	b->tb_head = malloc((n_tbs + 1) * sizeof *b->tb_head);
	b->tb_tail = malloc((n_tbs + 1) * sizeof *b->tb_tail);
	b->tb_runs = calloc(n_tbs + 1, sizeof *b->tb_runs);
	if (b->last_out == NULL || b->tb_next_edge == NULL || b->piece_edge == NULL ||
	    b->tb_head == NULL || b->tb_tail == NULL || b->tb_runs == NULL)
		return -1;
	for (t = 0; t < n_tbs; t++) {
		uint32_t p = b->tb_first_piece[t], end = b->tb_first_piece[t + 1], head = 0;
		for (; p + 1 < end; p++)
			head += b->g->blocks[b->piece_block[p]].n_instrs;
		b->tb_head[t] = head;
		b->tb_tail[t] = b->g->blocks[b->piece_block[end - 1]].n_instrs;
	}
	return 0;
}

/* Opens THREAD's file into a new *R, the tables made. 0, or -1 with ERR. */
static int
open_thread(struct rec_build *b, uint32_t thread, struct rec_thread_reader **r, uint64_t *size,
    struct dcfg_error *err)
{
	if ((*r = malloc(sizeof **r)) == NULL)
		return dcfg_error_set(err, b->s->dir, "out of memory");
	if (thread >= b->g->n_threads) {
		free(*r);
		return dcfg_error_set(err, b->s->dir, "no thread %u", thread);
	}
	if (prepare(b) < 0) {
		free(*r);
		return dcfg_error_set(err, b->s->dir, "out of memory");
	}
	if (rec_thread_size(b->s, thread, size, err) < 0 || rec_thread_open(*r, b->s, thread, err) < 0) {
		free(*r);
		return -1;
	}
	b->thread_preceding = (*r)->preceding_instrs;
	return 0;
}

int
rec_walk_thread(struct rec_build *b, uint32_t thread, struct rec_id_sink *out,
    struct dcfg_error *err)
{
	struct rec_thread_reader *r;
	struct walk w = { .b = b, .thread = thread, .counting = 0 };
	uint64_t size = 0;
	int rc;

	if (open_thread(b, thread, &r, &size, err) < 0)
		return -1;
	rc = walk_blocks(&w, r, out, err);
	b->bytes_done += size;
	rec_thread_close(r);
	free(r);
	return rc;
}

int
rec_count_thread(struct rec_build *b, uint32_t thread, struct rec_counter *c,
    struct dcfg_error *err)
{
	struct rec_thread_reader *r;
	struct walk w = { .b = b, .thread = thread, .counting = 1 };
	uint64_t size = 0;
	int rc;

	if (open_thread(b, thread, &r, &size, err) < 0)
		return -1;
	rc = count_blocks(&w, r, c, err);
	b->bytes_done += size;
	rec_thread_close(r);
	free(r);
	return rc;
}
