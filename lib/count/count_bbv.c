#include "count_bbv.h"

#include <stdlib.h>

#include "common/vec.h"

/* An item of a kept run that is itself a run. */
#define RUN (UINT32_MAX - 1)

/*
 * A line of a kept run (BLOCK a block index or DCFG_BBV_NO_BLOCK) or a run
 * (BLOCK RUN). A line that moves the position by nothing and starts no
 * block of instructions is not kept: it changes nothing.
 *
 * A run's S is how far a copy of its period moves the position, W, and
 * FIRST and LAST are where, from the copy's start, its first and last
 * block start (FIRST > LAST: none). All three saturate at UINT64_MAX; BIG
 * says W did, so no copy of it can run without the position passing
 * 2^64 - 1, and FIRST or LAST saturated is past any position.
 */
struct dcfg_bbv_item {
	uint64_t n;          /* a line: its block's NUM_INSTRS; a run: its COUNT */
	uint64_t s;          /* a line: its source's NUM_INSTRS; a run: W */
	uint64_t weight;     /* a line: its weight; a run: the weight of its period's own lines */
	uint64_t first, last;
	uint32_t block;
	uint32_t end;        /* a run: the index after the last item of its period */
	int big;
};

struct dcfg_bbv_entry {
	uint32_t node;
	uint64_t count;
};

int
dcfg_bbv_init(struct dcfg_bbv *v, const struct dcfg *d, struct dcfg_output *out,
    uint64_t interval)
{
	*v = (struct dcfg_bbv){ .d = d, .out = out, .interval = interval };
	return dcfg_tally_init(&v->tally, d->n_blocks, 1);
}

void
dcfg_bbv_free(struct dcfg_bbv *v)
{
	dcfg_tally_free(&v->tally);
	free(v->sorted);
	free(v->items);
	v->sorted = NULL;
	v->items = NULL;
	v->n_items = v->cap_items = v->cap_sorted = 0;
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
	v->n_items = 0;
	v->depth = 0;
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

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t
sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static int
keep(struct dcfg_bbv *v, struct dcfg_bbv_item it)
{
	if (v->n_items >= RUN ||
	    dcfg_reserve((void **)&v->items, &v->cap_items, v->n_items + 1, sizeof *v->items) < 0)
		return -1;
	v->items[v->n_items++] = it;
	return 0;
}

int
dcfg_bbv_line(struct dcfg_bbv *v, uint64_t src, uint32_t block, uint64_t ni, uint64_t weight)
{
	struct dcfg_bbv_item *r;
	uint64_t at;

	v->data = 1;
	if (ni == 0)
		block = DCFG_BBV_NO_BLOCK;
	if (v->depth == 0)
		return step(v, src, block, ni);
	if (src == 0 && block == DCFG_BBV_NO_BLOCK)
		return 0;
	r = &v->items[v->open_runs[v->depth - 1]];
	if (__builtin_add_overflow(r->s, src, &at)) {
		r->big = 1;
		at = UINT64_MAX;
	}
	r->s = at;
	if (block != DCFG_BBV_NO_BLOCK) {
		if (r->first > r->last)
			r->first = at;
		r->last = at;
	}
	return keep(v, (struct dcfg_bbv_item){ .n = ni, .s = src, .weight = weight,
	    .block = block });
}

/*
 * K whole copies of run RUN's period, every block start of which lies in
 * the tally's interval: each line's block gains K times its executions in
 * a copy (its weight over the period's) times its instructions.
 */
static int
add_copies(struct dcfg_bbv *v, uint32_t run, uint64_t k)
{
	const struct dcfg_bbv_item *r = &v->items[run];
	uint32_t i;
	uint64_t x;

	for (i = run + 1; i < r->end; i++) {
		const struct dcfg_bbv_item *it = &v->items[i];
		if (it->block == DCFG_BBV_NO_BLOCK || it->block == RUN)
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
 * How many of the LEFT copies of run R, from the position on, can be added
 * at once: all of whose block starts lie in the interval of the first's
 * first block start. 0: the next copy's block starts lie in two
 * intervals, or it cannot be told without walking it.
 */
static uint64_t
whole(const struct dcfg_bbv *v, const struct dcfg_bbv_item *r, uint64_t left)
{
	uint64_t a, b, room;

	if (r->big || __builtin_add_overflow(v->pos, r->first, &a) ||
	    __builtin_add_overflow(v->pos, r->last, &b) || a / v->interval != b / v->interval)
		return 0;
	/* copy j (from 0) lies in it while b + j W < (k + 1) INTERVAL */
	room = v->interval - 1 - b % v->interval;
	return r->s == 0 || room / r->s >= left ? left : room / r->s + 1;
}

/*
 * The kept run (item 0), on an explicit stack of the runs being walked.
 * A run adds at once the copies whose block starts lie in one interval,
 * then walks the one copy whose block starts lie in two, and so on until
 * its copies are done; a run that starts no block only moves the
 * position. Each walked copy, and each group of copies added at once but
 * the last, is followed by a vector written, so the time goes with the
 * vectors. A frame whose POS is its RUN is deciding what to add next.
 */
static int
add_run(struct dcfg_bbv *v)
{
	struct frame {
		uint32_t run, pos;
		uint64_t left;       /* copies not yet added or walked */
	} st[DCFG_RUN_DEPTH_MAX];
	unsigned sp = 0;

	st[sp++] = (struct frame){ 0, 0, v->items[0].n };
	while (sp > 0) {
		struct frame *f = &st[sp - 1];
		const struct dcfg_bbv_item *r = &v->items[f->run], *it;
		if (f->pos == f->run) {
			uint64_t k, w;
			if (f->left == 0) {
				sp--;
				continue;
			}
			if (!r->big && r->first > r->last) {
				/* no block starts: the copies only move the position */
				if (__builtin_mul_overflow(f->left, r->s, &w) ||
				    __builtin_add_overflow(v->pos, w, &v->pos))
					return overflow(v);
				sp--;
				continue;
			}
			if ((k = whole(v, r, f->left)) > 0) {
				enter(v, (v->pos + r->first) / v->interval);
				if (add_copies(v, f->run, k) < 0 ||
				    __builtin_mul_overflow(k, r->s, &w) ||
				    __builtin_add_overflow(v->pos, w, &v->pos))
					return overflow(v);
				f->left -= k;
				continue;
			}
			f->left--;
			f->pos = f->run + 1;
		} else if (f->pos == r->end) {
			f->pos = f->run;
		} else if ((it = &v->items[f->pos])->block != RUN) {
			if (step(v, it->s, it->block, it->n) < 0)
				return -1;
			f->pos++;
		} else {
			uint32_t inner = f->pos;
			if (sp == DCFG_RUN_DEPTH_MAX)   /* the reader allows no deeper runs */
				return -1;
			f->pos = it->end;
			st[sp++] = (struct frame){ inner, inner, it->n };
		}
	}
	return 0;
}

int
dcfg_bbv_run(struct dcfg_bbv *v, const struct dcfg_stream_record *r)
{
	struct dcfg_bbv_item *it, *outer;
	uint64_t w;
	int rc;

	if (r->kind == DCFG_STREAM_RUN) {
		if (v->depth == DCFG_RUN_DEPTH_MAX ||
		    keep(v, (struct dcfg_bbv_item){ .n = r->value, .weight = r->weight * r->value,
		    .first = UINT64_MAX, .last = 0, .block = RUN }) < 0)
			return -1;
		v->open_runs[v->depth++] = (uint32_t)(v->n_items - 1);
		return 0;
	}
	if (r->kind != DCFG_STREAM_RUN_END || v->depth == 0)
		return 0;
	it = &v->items[v->open_runs[--v->depth]];
	it->end = (uint32_t)v->n_items;
	if (v->depth == 0) {
		rc = add_run(v);
		v->n_items = 0;
		return rc;
	}
	/* the inner run's copies, as part of a copy of the outer run */
	outer = &v->items[v->open_runs[v->depth - 1]];
	if (it->first <= it->last) {
		uint64_t last = sat_add(outer->s, sat_add(sat_mul(it->n - 1, it->s), it->last));
		if (outer->first > outer->last)
			outer->first = sat_add(outer->s, it->first);
		outer->last = last;
	}
	if (it->big || __builtin_mul_overflow(it->n, it->s, &w) ||
	    __builtin_add_overflow(outer->s, w, &outer->s)) {
		outer->big = 1;
		outer->s = UINT64_MAX;
	}
	return 0;
}
