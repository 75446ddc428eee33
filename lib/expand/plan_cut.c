/*
 * Where dcfg-expand --plan may cut a thread, and the cuts that make a
 * split thread's pieces: plan_shape.c searches with them, plan_lines.c
 * finds the same cuts again to write them.
 */
#include "plan_internal.h"

/*
 * The estimated edges of thread T before instruction count A: a segment
 * before A counts whole (a point when it is below A); the span A falls in
 * counts as if its edges ran evenly from its start, one every len/edges
 * instructions: ceil(edges x (A - start) / len). Exact at a segment's
 * start, which is where cuts fall without --align.
 */
static uint64_t
estimate(const struct dcfg_plan *pl, const struct plan_thread *t, uint64_t a)
{
	const union plan_slot *s = pl->slots + t->seg;
	const struct plan_seg *g;
	size_t lo = 0, hi = t->n_seg;

	while (lo < hi) {             /* the segments that start below A */
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].s.start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	g = &s[lo - 1].s;
	if (g->len > 0 && a - g->start < g->len) {
		unsigned __int128 x = (unsigned __int128)g->edges * (a - g->start);
		return g->before + (uint64_t)((x + g->len - 1) / g->len);
	}
	return g->before + g->edges;
}

void
dcfg_plan_space_init(struct plan_space *sp, const struct dcfg_plan *pl,
    const struct plan_thread *t)
{
	const union plan_slot *s = pl->slots + t->seg;
	uint64_t last = 0;
	size_t i;

	sp->pl = pl;
	sp->t = t;
	sp->step = pl->o->align;
	sp->lo = 1;
	sp->hi = 0;
	if (t->reaches_max || t->n_seg == 0)
		return;
	if (sp->step == 0) {
		sp->hi = t->n_seg - 1;
		return;
	}
	/* no chunk reaches 2^64-1, so none of these sums overflows */
	for (i = 0; i < t->n_seg; i++) {
		const struct plan_seg *g = &s[i].s;
		uint64_t x = g->len ? g->start + g->len - 1 : g->start;
		if (x > last)
			last = x;
	}
	sp->lo = s[0].s.start / sp->step + 1;
	sp->hi = last / sp->step;
}

uint64_t
dcfg_plan_pos(const struct plan_space *sp, uint64_t i)
{
	return sp->step ? i * sp->step : sp->pl->slots[sp->t->seg + i].s.start;
}

uint64_t
dcfg_plan_cum(const struct plan_space *sp, uint64_t i)
{
	return estimate(sp->pl, sp->t, dcfg_plan_pos(sp, i));
}

/* The first candidate with more than X edges before it; HI + 1 if none. */
static uint64_t
first_above(const struct plan_space *sp, uint64_t x)
{
	uint64_t lo = sp->lo, hi = sp->hi + 1;

	if (sp->lo > sp->hi)
		return sp->hi + 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (dcfg_plan_cum(sp, mid) > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The next cut after one with AT edges before it, for pieces of at most
 * MAX edges: the last candidate that keeps the piece within MAX, or, when
 * even the first that adds an edge does not, that one. 1 with *CUT set;
 * 0 when the rest of the thread is the last piece.
 */
int
dcfg_plan_fill(const struct plan_space *sp, uint64_t at, uint64_t max, uint64_t *cut)
{
	uint64_t e = sp->t->edges, f, c;

	if (e - at <= max)
		return 0;
	f = first_above(sp, at + max);
	if (f > sp->lo && dcfg_plan_cum(sp, f - 1) > at)
		c = f - 1;
	else if (f <= sp->hi)
		c = f;
	else
		return 0;
	if (dcfg_plan_cum(sp, c) >= e)
		return 0;
	*cut = c;
	return 1;
}

/*
 * How many pieces dcfg_plan_fill() makes with MAX; stops counting past
 * LIMIT.
 */
uint64_t
dcfg_plan_fill_count(const struct plan_space *sp, uint64_t max, uint64_t limit)
{
	uint64_t n = 0, at = 0, c;

	for (;;) {
		if (++n > limit || !dcfg_plan_fill(sp, at, max, &c))
			return n;
		at = dcfg_plan_cum(sp, c);
	}
}

/*
 * The cut after one with AT edges before it, nearest to TARGET edges,
 * that leaves both pieces at least one edge and the one before it at most
 * MAX. 1 with *CUT set, 0 if neither neighbour of TARGET will do.
 */
int
dcfg_plan_nearest(const struct plan_space *sp, uint64_t at, uint64_t target, uint64_t max,
    uint64_t *cut)
{
	uint64_t f = first_above(sp, target), e = sp->t->edges;
	uint64_t below = 0, above = 0;
	int has_below = 0, has_above = 0;

	if (f > sp->lo) {
		below = dcfg_plan_cum(sp, f - 1);
		has_below = below > at && below < e && below - at <= max;
	}
	if (f <= sp->hi) {
		above = dcfg_plan_cum(sp, f);
		has_above = above > at && above < e && above - at <= max;
	}
	if (has_below && (!has_above || target - below <= above - target))
		*cut = f - 1;
	else if (has_above)
		*cut = f;
	else
		return 0;
	return 1;
}

/* Piece I's share: the first I of PIECES equal shares of E. */
uint64_t
dcfg_plan_share(uint64_t e, uint64_t i, uint64_t pieces)
{
	return (uint64_t)((unsigned __int128)e * i / pieces);
}

/*
 * Whether the cuts nearest to equal shares keep every piece within MAX;
 * *LARGEST is then their largest piece.
 */
int
dcfg_plan_nearest_fits(const struct plan_space *sp, uint64_t pieces, uint64_t max,
    uint64_t *largest)
{
	uint64_t at = 0, i, c;

	*largest = 0;
	for (i = 1; i < pieces; i++) {
		if (!dcfg_plan_nearest(sp, at, dcfg_plan_share(sp->t->edges, i, pieces), max, &c))
			return 0;
		if (dcfg_plan_cum(sp, c) - at > *largest)
			*largest = dcfg_plan_cum(sp, c) - at;
		at = dcfg_plan_cum(sp, c);
	}
	if (sp->t->edges - at > *largest)
		*largest = sp->t->edges - at;
	return *largest <= max;
}

/* The largest piece dcfg_plan_fill() makes with MAX. */
uint64_t
dcfg_plan_fill_largest(const struct plan_space *sp, uint64_t max)
{
	uint64_t at = 0, c, largest = 0;

	while (dcfg_plan_fill(sp, at, max, &c)) {
		if (dcfg_plan_cum(sp, c) - at > largest)
			largest = dcfg_plan_cum(sp, c) - at;
		at = dcfg_plan_cum(sp, c);
	}
	return sp->t->edges - at > largest ? sp->t->edges - at : largest;
}
