#include "count_bbv.h"

#include <stdlib.h>

#include "vec.h"

/*
 * A line of a kept run (BLOCK a block index) or a run (BLOCK NO_BLOCK).
 * Lines that enter no block, or one of no instructions, are not kept: they
 * add nothing to a vector.
 */
#define NO_BLOCK UINT32_MAX

struct dcfg_bbv_item {
	uint64_t n;          /* a line: the block's NUM_INSTRS; a run: its COUNT */
	uint64_t weight;     /* a line: its weight; a run: the weight of its period's own lines */
	uint64_t per_copy;   /* a run: the instructions of one copy of its period, UINT64_MAX when more */
	uint32_t block;
	uint32_t end;        /* a run: the index after the last item of its period */
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
	free(v->items);
	v->items = NULL;
	v->n_items = v->cap_items = 0;
}

struct bbv_entry {
	uint32_t node;
	uint64_t count;
};

static int
by_node(const void *a, const void *b)
{
	const struct bbv_entry *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

int
dcfg_bbv_flush(struct dcfg_bbv *v)
{
	struct bbv_entry *e;
	size_t i, n = v->tally.n_touched;

	if (n == 0)
		return 0;
	if ((e = malloc(n * sizeof *e)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t b = v->tally.touched[i];
		e[i] = (struct bbv_entry){ v->d->blocks[b].node_id, v->tally.value[b] };
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
	free(e);
	v->instrs = 0;
	return 0;
}

/* One block execution: the interval closes when it reaches INTERVAL. */
static int
add_block(struct dcfg_bbv *v, uint32_t block, uint64_t ni)
{
	uint64_t *t = dcfg_tally_at(&v->tally, block);

	if (__builtin_add_overflow(*t, ni, t) ||
	    __builtin_add_overflow(v->instrs, ni, &v->instrs)) {
		v->overflow = 1;
		return -1;
	}
	return v->instrs >= v->interval ? dcfg_bbv_flush(v) : 0;
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
	if (v->n_items >= NO_BLOCK ||
	    dcfg_reserve((void **)&v->items, &v->cap_items, v->n_items + 1, sizeof *v->items) < 0)
		return -1;
	v->items[v->n_items++] = it;
	return 0;
}

int
dcfg_bbv_line(struct dcfg_bbv *v, uint32_t block, uint64_t ni, uint64_t weight)
{
	struct dcfg_bbv_item *r;

	if (ni == 0)
		return 0;
	if (v->depth == 0)
		return add_block(v, block, ni);
	r = &v->items[v->open[v->depth - 1]];
	r->per_copy = sat_add(r->per_copy, ni);
	return keep(v, (struct dcfg_bbv_item){ ni, weight, 0, block, 0 });
}

/*
 * K whole copies of run RUN's period, in which no interval closes: each
 * line's block gains K times its executions in a copy (its weight over
 * the period's) times its instructions. Nothing overflows, since all of it
 * is below what the interval still holds.
 */
static void
add_copies(struct dcfg_bbv *v, uint32_t run, uint64_t k)
{
	const struct dcfg_bbv_item *r = &v->items[run];
	uint32_t i;

	for (i = run + 1; i < r->end; i++) {
		const struct dcfg_bbv_item *it = &v->items[i];
		if (it->block != NO_BLOCK)
			*dcfg_tally_at(&v->tally, it->block) += k * (it->weight / r->weight) * it->n;
	}
	v->instrs += k * r->per_copy;
}

/*
 * The kept run (item 0), on an explicit stack of the runs being walked:
 * a run adds at once the copies that end before the interval closes, then
 * walks the one copy in which it closes, and so on until its copies are
 * done. Each walked copy closes an interval, so the time goes with the
 * vectors written. A frame whose POS is its RUN is deciding what to add next.
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
			/* v->instrs < v->interval here: the copies that fit below it */
			uint64_t k = f->left, room = v->interval - v->instrs - 1;
			if (r->per_copy > 0 && room / r->per_copy < k)
				k = room / r->per_copy;
			if (k > 0) {
				add_copies(v, f->run, k);
				f->left -= k;
			}
			if (f->left == 0) {
				sp--;
				continue;
			}
			f->left--;
			f->pos = f->run + 1;
		} else if (f->pos == r->end) {
			f->pos = f->run;
		} else if ((it = &v->items[f->pos])->block != NO_BLOCK) {
			if (add_block(v, it->block, it->n) < 0)
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
	struct dcfg_bbv_item *it;
	int rc;

	if (r->kind == DCFG_STREAM_RUN) {
		if (v->depth == DCFG_RUN_DEPTH_MAX ||
		    keep(v, (struct dcfg_bbv_item){ r->value, r->weight * r->value, 0, NO_BLOCK, 0 }) < 0)
			return -1;
		v->open[v->depth++] = (uint32_t)(v->n_items - 1);
		return 0;
	}
	if (r->kind != DCFG_STREAM_RUN_END || v->depth == 0)
		return 0;
	it = &v->items[v->open[--v->depth]];
	it->end = (uint32_t)v->n_items;
	if (v->depth > 0) {
		struct dcfg_bbv_item *outer = &v->items[v->open[v->depth - 1]];
		outer->per_copy = sat_add(outer->per_copy, sat_mul(it->n, it->per_copy));
		return 0;
	}
	rc = add_run(v);
	v->n_items = 0;
	return rc;
}
