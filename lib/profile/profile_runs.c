/*
 * Data lines and the runs of a version 2 stream (dcfg-stream(5)). A run is
 * kept until its outermost end, then added by whole copies wherever no
 * boundary can fall inside them: a copy with no eligible entry never holds
 * one, and copies whose eligible entries all start in the grid interval of
 * the last eligible entry before them hold none either. Only a copy that
 * holds a boundary is walked line by line, so the time goes with the
 * slices written, not with the run's count (as dcfg-count --bbv does).
 */
#include "profile_internal.h"

#include <stdlib.h>

#include "common/vec.h"

/* An item of a kept run that is itself a run. */
#define RUN (UINT32_MAX - 1)

/*
 * A line of a kept run (BLOCK a block or DCFG_PINPOINTS_NONE) or a run (BLOCK
 * RUN). A run's S is how far a copy of its period moves the position, and
 * FIRST and LAST where, from the copy's start, its first and last eligible
 * entries start (FIRST > LAST: none); all three saturate, and BIG says S
 * did. BLOCKS: a copy enters some block.
 */
struct dcfg_pinpoints_item {
	uint64_t n;          /* a run: its COUNT */
	uint64_t s;          /* a line: its source's NUM_INSTRS; a run: as above */
	uint64_t weight;     /* a line: its weight; a run: the weight of its period's own lines */
	uint64_t first, last;
	uint32_t block;
	uint32_t end;        /* a run: the index after the last item of its period */
	int big, blocks;
};

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

void
dcfg_pinpoints_runs_free(struct dcfg_pinpoints *pr)
{
	free(pr->items);
	pr->items = NULL;
	pr->n_items = pr->cap_items = 0;
}

/* One execution of a line: the position moves by SRC, and block B (unless NONE) is entered there. */
static inline int
step(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint64_t src, uint32_t b)
{
	if (__builtin_add_overflow(t->pos, src, &t->pos))
		return dcfg_pinpoints_overflow(pr);
	return b == DCFG_PINPOINTS_NONE ? 0 : dcfg_pinpoints_entry(pr, t, b);
}

static int
keep(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_item it)
{
	if (pr->n_items >= RUN || dcfg_reserve((void **)&pr->items, &pr->cap_items,
	    pr->n_items + 1, sizeof *pr->items) < 0)
		return dcfg_error_set(pr->err, pr->name, "out of memory");
	pr->items[pr->n_items++] = it;
	return 0;
}

int
dcfg_pinpoints_line(struct dcfg_pinpoints *pr, uint64_t src, uint32_t b, uint64_t weight)
{
	struct dcfg_pinpoints_item *r;
	uint64_t at;

	if (pr->depth == 0)
		return step(pr, pr->cur, src, b);
	if (src == 0 && b == DCFG_PINPOINTS_NONE)
		return 0;
	r = &pr->items[pr->open_runs[pr->depth - 1]];
	if (__builtin_add_overflow(r->s, src, &at)) {
		r->big = 1;
		at = UINT64_MAX;
	}
	r->s = at;
	if (b != DCFG_PINPOINTS_NONE) {
		r->blocks = 1;
		if (pr->blocks[b].eligible) {
			if (r->first > r->last)
				r->first = at;
			r->last = at;
		}
	}
	return keep(pr, (struct dcfg_pinpoints_item){ .s = src, .weight = weight, .block = b });
}

/* K whole copies of run RUN's period, none of which holds a boundary. */
static int
add_copies(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t run, uint64_t k)
{
	const struct dcfg_pinpoints_item *r = &pr->items[run];
	uint32_t i;
	uint64_t x;

	for (i = run + 1; i < r->end; i++) {
		const struct dcfg_pinpoints_item *it = &pr->items[i];
		if (it->block == DCFG_PINPOINTS_NONE || it->block == RUN)
			continue;
		if (__builtin_mul_overflow(k, it->weight / r->weight, &x))
			return dcfg_pinpoints_overflow(pr);
		if (x > 0 && dcfg_pinpoints_add(pr, t, it->block, x) < 0)
			return -1;
	}
	if (__builtin_mul_overflow(k, r->s, &x) || __builtin_add_overflow(t->pos, x, &t->pos))
		return dcfg_pinpoints_overflow(pr);
	return 0;
}

/*
 * How many of the LEFT copies of run R, from the position on, hold no
 * boundary and can be added at once. 0: the next copy must be walked (it
 * may hold a boundary, or the thread's first entry).
 */
static uint64_t
whole(const struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t,
    const struct dcfg_pinpoints_item *r, uint64_t left)
{
	uint64_t n = pr->o->slice_size, b, room;

	if (r->big || !t->started)
		return 0;
	if (r->first > r->last)
		return left;
	if (pr->o->part && !t->seen_eligible)   /* a candidate: its piece starts there */
		return 0;
	if (__builtin_add_overflow(t->pos, r->last, &b) || b / n != t->last_q)
		return 0;
	/* copy j (from 0) holds none while b + j S stays in interval LAST_Q */
	room = n - 1 - b % n;
	return r->s == 0 || room / r->s >= left ? left : room / r->s + 1;
}

/*
 * The kept run (item 0), on an explicit stack of the runs being walked. A
 * frame whose POS is its RUN is deciding what to add next.
 */
static int
add_run(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct frame {
		uint32_t run, pos;
		uint64_t left;       /* copies not yet added or walked */
	} st[DCFG_RUN_DEPTH_MAX];
	unsigned sp = 0;

	st[sp++] = (struct frame){ 0, 0, pr->items[0].n };
	while (sp > 0) {
		struct frame *f = &st[sp - 1];
		const struct dcfg_pinpoints_item *r = &pr->items[f->run], *it;
		if (f->pos == f->run) {
			uint64_t k, w;
			if (f->left == 0) {
				sp--;
				continue;
			}
			/* the copies left end the position there: past 2^64 - 1, fail now, not after its slices */
			if (r->big || __builtin_mul_overflow(f->left, r->s, &w) ||
			    __builtin_add_overflow(t->pos, w, &w))
				return dcfg_pinpoints_overflow(pr);
			if (!r->blocks) {
				/* no entries: the copies only move the position */
				if (__builtin_mul_overflow(f->left, r->s, &w) ||
				    __builtin_add_overflow(t->pos, w, &t->pos))
					return dcfg_pinpoints_overflow(pr);
				sp--;
				continue;
			}
			if ((k = whole(pr, t, r, f->left)) > 0) {
				if (add_copies(pr, t, f->run, k) < 0)
					return -1;
				f->left -= k;
				continue;
			}
			f->left--;
			f->pos = f->run + 1;
		} else if (f->pos == r->end) {
			f->pos = f->run;
		} else if ((it = &pr->items[f->pos])->block != RUN) {
			if (step(pr, t, it->s, it->block) < 0)
				return -1;
			f->pos++;
		} else {
			uint32_t inner = f->pos;
			if (sp == DCFG_RUN_DEPTH_MAX)   /* the reader allows no deeper runs */
				return dcfg_error_set(pr->err, pr->name, "runs nested too deep");
			f->pos = it->end;
			st[sp++] = (struct frame){ inner, inner, it->n };
		}
	}
	return 0;
}

int
dcfg_pinpoints_run(struct dcfg_pinpoints *pr, const struct dcfg_stream_record *r)
{
	struct dcfg_pinpoints_item *it, *outer;
	uint64_t w;
	int rc;

	if (r->kind == DCFG_STREAM_RUN) {
		if (pr->depth == DCFG_RUN_DEPTH_MAX)
			return dcfg_error_set(pr->err, pr->name, "runs nested too deep");
		if (keep(pr, (struct dcfg_pinpoints_item){ .n = r->value, .weight = r->weight * r->value,
		    .first = UINT64_MAX, .last = 0, .block = RUN }) < 0)
			return -1;
		pr->open_runs[pr->depth++] = (uint32_t)(pr->n_items - 1);
		return 0;
	}
	if (r->kind != DCFG_STREAM_RUN_END || pr->depth == 0)
		return 0;
	it = &pr->items[pr->open_runs[--pr->depth]];
	it->end = (uint32_t)pr->n_items;
	if (pr->depth == 0) {
		rc = it->n == 0 ? 0 : add_run(pr, pr->cur);
		pr->n_items = 0;
		return rc;
	}
	/* the inner run's copies, as part of a copy of the outer run */
	outer = &pr->items[pr->open_runs[pr->depth - 1]];
	if (it->n > 0 && it->blocks)
		outer->blocks = 1;
	if (it->n > 0 && it->first <= it->last) {
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
