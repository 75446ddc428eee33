#include "count_bbv.h"

#include <stdlib.h>

#include "common/vec.h"

_Static_assert(DCFG_BBV_NO_BLOCK == DCFG_RUNWALK_NONE, "a line of no block is the runs' too");

static const struct dcfg_runwalk_ops run_ops;

struct dcfg_bbv_entry {
	uint32_t node;
	uint64_t count;
};

int
dcfg_bbv_init(struct dcfg_bbv *v, const struct dcfg *d, struct dcfg_output *out,
    uint64_t interval)
{
	*v = (struct dcfg_bbv){ .d = d, .out = out, .interval = interval };
	dcfg_runwalk_init(&v->runs, &run_ops, v, 1);
	return dcfg_tally_init(&v->tally, d->n_blocks, 1);
}

void
dcfg_bbv_free(struct dcfg_bbv *v)
{
	dcfg_tally_free(&v->tally);
	free(v->sorted);
	dcfg_runwalk_free(&v->runs);
	v->sorted = NULL;
	v->cap_sorted = 0;
}

static int
by_node(const void *a, const void *b)
{
	const struct dcfg_bbv_entry *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

static void
meta(struct dcfg_bbv *v, const char *what, uint64_t n)
{
	dcfg_out_str(v->out, what);
	dcfg_out_u64(v->out, n);
	dcfg_out_char(v->out, '\n');
}

/* Writes the vector of interval CUR, placed by "# interval" or "# skip", if it holds anything. */
static void
write_vector(struct dcfg_bbv *v)
{
	struct dcfg_bbv_entry *e = v->sorted;
	size_t i, n = v->tally.n_touched;

	if (n == 0 || n > v->cap_sorted)   /* nothing, or after an error */
		return;
	if (v->written) {
		if (v->cur - v->last > 1)
			meta(v, "# skip ", v->cur - v->last - 1);
	} else if (v->anchored) {
		meta(v, "# interval ", v->cur);
	} else if (v->cur > 0) {
		meta(v, "# skip ", v->cur);
	}
	for (i = 0; i < n; i++) {
		uint32_t b = v->tally.touched[i];
		e[i] = (struct dcfg_bbv_entry){ v->d->blocks[b].node_id, v->tally.value[b] };
	}
	dcfg_tally_clear(&v->tally);
	qsort(e, n, sizeof *e, by_node);
	for (i = 0; i < n; i++) {
		dcfg_out_str(v->out, i ? " :" : "T:");
		dcfg_out_u64(v->out, e[i].node);
		dcfg_out_char(v->out, ':');
		dcfg_out_u64(v->out, e[i].count);
	}
	dcfg_out_char(v->out, '\n');
	v->written = 1;
	v->last = v->cur;
}

void
dcfg_bbv_start(struct dcfg_bbv *v)
{
	dcfg_tally_clear(&v->tally);
	v->open = 1;
	v->data = v->anchored = v->written = 0;
	v->pos = v->from = v->cur = v->last = 0;
	v->lo = v->hi = 0;
	dcfg_runwalk_reset(&v->runs);
}

void
dcfg_bbv_end(struct dcfg_bbv *v)
{
	if (!v->open)
		return;
	write_vector(v);
	if (v->anchored) {
		dcfg_out_str(v->out, "# instructions ");
		dcfg_out_u64(v->out, v->from);
		dcfg_out_char(v->out, ' ');
		dcfg_out_u64(v->out, v->pos);
		dcfg_out_char(v->out, '\n');
	}
	v->open = 0;
}

int
dcfg_bbv_chunk(struct dcfg_bbv *v, uint64_t preceding)
{
	if (preceding < v->pos)
		return -1;
	v->pos = preceding;
	if (!v->data && !v->anchored) {
		v->anchored = 1;
		v->from = preceding;
	}
	return 0;
}

static int
overflow(struct dcfg_bbv *v)
{
	v->overflow = 1;
	return -1;
}

/* The tally now holds interval K (never below CUR): the one it held is written. */
static void
enter(struct dcfg_bbv *v, uint64_t k)
{
	if (v->tally.n_touched > 0 && k != v->cur)
		write_vector(v);
	v->cur = k;
	v->lo = k * v->interval;
	v->hi = v->lo + v->interval < v->lo ? UINT64_MAX : v->lo + v->interval;
}

/*
 * X more instructions of block BLOCK in the tally's interval. The room to
 * sort the interval's blocks grows with them, so that writing it cannot
 * fail. -1: an overflow, or out of memory.
 */
static inline int
add(struct dcfg_bbv *v, uint32_t block, uint64_t x)
{
	uint64_t *t = dcfg_tally_at(&v->tally, block);

	if (v->tally.n_touched > v->cap_sorted && dcfg_reserve((void **)&v->sorted,
	    &v->cap_sorted, v->tally.n_touched, sizeof *v->sorted) < 0)
		return -1;
	return __builtin_add_overflow(*t, x, t) ? overflow(v) : 0;
}

/* One execution of a line: the position moves by SRC, and block BLOCK starts there. */
static inline int
step(struct dcfg_bbv *v, uint64_t src, uint32_t block, uint64_t ni)
{
	if (__builtin_add_overflow(v->pos, src, &v->pos))
		return overflow(v);
	if (block == DCFG_BBV_NO_BLOCK)
		return 0;
	/* most blocks start in the interval of the one before: no division */
	if (v->pos < v->lo || v->pos >= v->hi)
		enter(v, v->pos / v->interval);
	return add(v, block, ni);
}

int
dcfg_bbv_line(struct dcfg_bbv *v, uint64_t src, uint32_t block, uint64_t ni, uint64_t weight)
{
	v->data = 1;
	if (ni == 0)
		block = DCFG_BBV_NO_BLOCK;
	if (!dcfg_runwalk_open(&v->runs))
		return step(v, src, block, ni);
	return dcfg_runwalk_line(&v->runs, src, block, ni, weight, block != DCFG_BBV_NO_BLOCK) < 0 ?
	    -1 : 0;
}

/*
 * K whole copies of run RUN's period, every block start of which lies in
 * the tally's interval: each line's block gains K times its executions in
 * a copy (its weight over the period's) times its instructions.
 */
static int
add_copies(struct dcfg_bbv *v, const struct dcfg_runwalk *rw, uint32_t run, uint64_t k)
{
	const struct dcfg_runwalk_item *r = &rw->items[run];
	uint32_t i;
	uint64_t x;

	for (i = run + 1; i < r->end; i++) {
		const struct dcfg_runwalk_item *it = &rw->items[i];
		if (it->block == DCFG_BBV_NO_BLOCK || it->block == DCFG_RUNWALK_RUN)
			continue;
		if (__builtin_mul_overflow(k, it->weight / r->weight, &x) ||
		    __builtin_mul_overflow(x, it->n, &x))
			return overflow(v);
		if (add(v, it->block, x) < 0)
			return -1;
	}
	return 0;
}

/*
 * The runs' callbacks (stream/runwalk.h). A run adds at once the copies
 * whose block starts lie in one interval, then walks the one copy whose
 * block starts lie in two, and so on until its copies are done; a run
 * that starts no block only moves the position. Each walked copy, and
 * each group of copies added at once but the last, is followed by a
 * vector written, so the time goes with the vectors.
 */

/* The LEFT copies of run R when it starts no block: they only move the position. */
static int
run_bare(void *ctx, const struct dcfg_runwalk_item *r, uint64_t left)
{
	struct dcfg_bbv *v = ctx;
	uint64_t w;

	if (r->big || r->first <= r->last)
		return 0;
	if (__builtin_mul_overflow(left, r->s, &w) || __builtin_add_overflow(v->pos, w, &v->pos))
		return overflow(v);
	return 1;
}

/*
 * How many of the LEFT copies of run R, from the position on, can be added
 * at once: all of whose block starts lie in the interval of the first's
 * first block start. 0: the next copy's block starts lie in two
 * intervals, or it cannot be told without walking it.
 */
static uint64_t
whole(void *ctx, const struct dcfg_runwalk_item *r, uint64_t left)
{
	const struct dcfg_bbv *v = ctx;
	uint64_t a, b, room;

	if (r->big || __builtin_add_overflow(v->pos, r->first, &a) ||
	    __builtin_add_overflow(v->pos, r->last, &b) || a / v->interval != b / v->interval)
		return 0;
	/* copy j (from 0) lies in it while b + j W < (k + 1) INTERVAL */
	room = v->interval - 1 - b % v->interval;
	return r->s == 0 || room / r->s >= left ? left : room / r->s + 1;
}

/* K copies that WHOLE allowed: in the interval of their first block start. */
static int
run_add(void *ctx, const struct dcfg_runwalk *rw, uint32_t run, uint64_t k)
{
	struct dcfg_bbv *v = ctx;
	const struct dcfg_runwalk_item *r = &rw->items[run];
	uint64_t w;

	enter(v, (v->pos + r->first) / v->interval);
	if (add_copies(v, rw, run, k) < 0 || __builtin_mul_overflow(k, r->s, &w) ||
	    __builtin_add_overflow(v->pos, w, &v->pos))
		return overflow(v);
	return 0;
}

/* One line of a walked copy. */
static int
run_step(void *ctx, const struct dcfg_runwalk_item *it)
{
	return step(ctx, it->s, it->block, it->n);
}

static const struct dcfg_runwalk_ops run_ops = {
	.bare = run_bare, .whole = whole, .add = run_add, .step = run_step,
};

int
dcfg_bbv_run(struct dcfg_bbv *v, const struct dcfg_stream_record *r)
{
	return dcfg_runwalk_record(&v->runs, r) < 0 ? -1 : 0;
}
