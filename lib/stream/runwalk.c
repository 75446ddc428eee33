/*
 * The outermost run of a version 2 stream, kept and walked by whole
 * copies (runwalk.h).
 */
#include "runwalk.h"

#include <stdlib.h>

#include "common/vec.h"

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
dcfg_runwalk_init(struct dcfg_runwalk *rw, const struct dcfg_runwalk_ops *ops, void *ctx,
    int mark_empty)
{
	*rw = (struct dcfg_runwalk){ .ops = ops, .ctx = ctx, .mark_empty = mark_empty };
}

void
dcfg_runwalk_free(struct dcfg_runwalk *rw)
{
	free(rw->items);
	rw->items = NULL;
	rw->n_items = rw->cap_items = 0;
	rw->depth = 0;
}

void
dcfg_runwalk_reset(struct dcfg_runwalk *rw)
{
	rw->n_items = 0;
	rw->depth = 0;
}

static int
keep(struct dcfg_runwalk *rw, struct dcfg_runwalk_item it)
{
	if (rw->n_items >= DCFG_RUNWALK_RUN || dcfg_reserve((void **)&rw->items, &rw->cap_items,
	    rw->n_items + 1, sizeof *rw->items) < 0)
		return DCFG_RUNWALK_ENOMEM;
	rw->items[rw->n_items++] = it;
	return 0;
}

int
dcfg_runwalk_line(struct dcfg_runwalk *rw, uint64_t src, uint32_t block, uint64_t aux,
    uint64_t weight, int mark)
{
	struct dcfg_runwalk_item *r;
	uint64_t at;

	if (src == 0 && block == DCFG_RUNWALK_NONE)
		return 0;
	r = &rw->items[rw->open_runs[rw->depth - 1]];
	if (__builtin_add_overflow(r->s, src, &at)) {
		r->big = 1;
		at = UINT64_MAX;
	}
	r->s = at;
	if (block != DCFG_RUNWALK_NONE) {
		r->blocks = 1;
		if (mark) {
			if (r->first > r->last)
				r->first = at;
			r->last = at;
		}
	}
	return keep(rw, (struct dcfg_runwalk_item){ .n = aux, .s = src, .weight = weight,
	    .block = block });
}

/*
 * The kept run (item 0), on an explicit stack of the runs being walked.
 * At each run's turn, the copies it has left are offered to BARE, then as
 * many as WHOLE says are added at once by ADD, and else one copy is
 * walked: its lines through STEP, its inner runs pushed. A frame whose POS
 * is its RUN is deciding what to add next.
 */
static int
walk(struct dcfg_runwalk *rw)
{
	const struct dcfg_runwalk_ops *ops = rw->ops;
	void *ctx = rw->ctx;
	struct frame {
		uint32_t run, pos;
		uint64_t left;       /* copies not yet added or walked */
	} st[DCFG_RUN_DEPTH_MAX];
	unsigned sp = 0;

	st[sp++] = (struct frame){ 0, 0, rw->items[0].n };
	while (sp > 0) {
		struct frame *f = &st[sp - 1];
		const struct dcfg_runwalk_item *r = &rw->items[f->run], *it;
		if (f->pos == f->run) {
			uint64_t k;
			int rc;
			if (f->left == 0) {
				sp--;
				continue;
			}
			if ((rc = ops->bare(ctx, r, f->left)) < 0)
				return DCFG_RUNWALK_ECALLBACK;
			if (rc > 0) {
				sp--;
				continue;
			}
			if ((k = ops->whole(ctx, r, f->left)) > 0) {
				if (ops->add(ctx, rw, f->run, k) < 0)
					return DCFG_RUNWALK_ECALLBACK;
				f->left -= k;
				continue;
			}
			f->left--;
			f->pos = f->run + 1;
		} else if (f->pos == r->end) {
			f->pos = f->run;
		} else if ((it = &rw->items[f->pos])->block != DCFG_RUNWALK_RUN) {
			if (ops->step(ctx, it) < 0)
				return DCFG_RUNWALK_ECALLBACK;
			f->pos++;
		} else {
			uint32_t inner = f->pos;
			if (sp == DCFG_RUN_DEPTH_MAX)   /* the reader allows no deeper runs */
				return DCFG_RUNWALK_EDEEP;
			f->pos = it->end;
			st[sp++] = (struct frame){ inner, inner, it->n };
		}
	}
	return 0;
}

int
dcfg_runwalk_record(struct dcfg_runwalk *rw, const struct dcfg_stream_record *r)
{
	struct dcfg_runwalk_item *it, *outer;
	uint64_t w;
	int rc;

	if (r->kind == DCFG_STREAM_RUN) {
		if (rw->depth == DCFG_RUN_DEPTH_MAX)
			return DCFG_RUNWALK_EDEEP;
		if ((rc = keep(rw, (struct dcfg_runwalk_item){ .n = r->value,
		    .weight = r->weight * r->value, .first = UINT64_MAX, .last = 0,
		    .block = DCFG_RUNWALK_RUN })) < 0)
			return rc;
		rw->open_runs[rw->depth++] = (uint32_t)(rw->n_items - 1);
		return 0;
	}
	if (r->kind != DCFG_STREAM_RUN_END || rw->depth == 0)
		return 0;
	it = &rw->items[rw->open_runs[--rw->depth]];
	it->end = (uint32_t)rw->n_items;
	if (rw->depth == 0) {
		rc = it->n == 0 ? 0 : walk(rw);
		rw->n_items = 0;
		return rc;
	}
	/* the inner run's copies, as part of a copy of the outer run */
	outer = &rw->items[rw->open_runs[rw->depth - 1]];
	if (it->n > 0 && it->blocks)
		outer->blocks = 1;
	if ((it->n > 0 || rw->mark_empty) && it->first <= it->last) {
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
