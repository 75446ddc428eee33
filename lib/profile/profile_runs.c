/*
 * Data lines and the runs of a version 2 stream (dcfg-stream(5)). A run is
 * kept until its outermost end, then added by whole copies wherever no
 * boundary can fall inside them: a copy with no eligible entry never holds
 * one, and copies whose eligible entries all start in the grid interval of
 * the last eligible entry before them hold none either. Only a copy that
 * holds a boundary is walked line by line, so the time goes with the
 * slices written, not with the run's count (as dcfg-count --bbv does).
 * Keeping and walking the run is stream/runwalk.h's; what is decided
 * here are its callbacks.
 */
#include "profile_internal.h"

_Static_assert(DCFG_PINPOINTS_NONE == DCFG_RUNWALK_NONE, "a line of no block is the runs' too");

/* One execution of a line: the position moves by SRC, and block B (unless NONE) is entered there. */
static inline int
step(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint64_t src, uint32_t b)
{
	if (__builtin_add_overflow(t->pos, src, &t->pos))
		return dcfg_pinpoints_overflow(pr);
	return b == DCFG_PINPOINTS_NONE ? 0 : dcfg_pinpoints_entry(pr, t, b);
}

/* One line of a walked copy. */
static int
run_step(void *ctx, const struct dcfg_runwalk_item *it)
{
	struct dcfg_pinpoints *pr = ctx;

	return step(pr, pr->cur, it->s, it->block);
}

/*
 * The LEFT copies of run R: past 2^64 - 1 at their end, fail now, not
 * after their slices; with no entries, they only move the position.
 */
static int
run_bare(void *ctx, const struct dcfg_runwalk_item *r, uint64_t left)
{
	struct dcfg_pinpoints *pr = ctx;
	struct dcfg_pinpoints_thread *t = pr->cur;
	uint64_t w;

	if (r->big || __builtin_mul_overflow(left, r->s, &w) ||
	    __builtin_add_overflow(t->pos, w, &w))
		return dcfg_pinpoints_overflow(pr);
	if (r->blocks)
		return 0;
	if (__builtin_mul_overflow(left, r->s, &w) || __builtin_add_overflow(t->pos, w, &t->pos))
		return dcfg_pinpoints_overflow(pr);
	return 1;
}

/* K whole copies of run RUN's period, none of which holds a boundary. */
static int
add_copies(void *ctx, const struct dcfg_runwalk *rw, uint32_t run, uint64_t k)
{
	struct dcfg_pinpoints *pr = ctx;
	struct dcfg_pinpoints_thread *t = pr->cur;
	const struct dcfg_runwalk_item *r = &rw->items[run];
	uint32_t i;
	uint64_t x;

	for (i = run + 1; i < r->end; i++) {
		const struct dcfg_runwalk_item *it = &rw->items[i];
		if (it->block == DCFG_PINPOINTS_NONE || it->block == DCFG_RUNWALK_RUN)
			continue;
		if (__builtin_mul_overflow(k, it->weight / r->weight, &x))
			return dcfg_pinpoints_overflow(pr);
		if (x > 0 && dcfg_pinpoints_add(pr, t, it->block, x) < 0)
			return -1;
	}
	if (__builtin_mul_overflow(k, r->s, &x) || __builtin_add_overflow(t->pos, x, &t->pos))
		return dcfg_pinpoints_overflow(pr);
	return pr->o->summary ? dcfg_pinpoints_summary_turn(pr, t, k, r->s) : 0;
}

/*
 * whole() under LoopPoint's rule: copy j (from 0) holds no boundary while
 * its last eligible entry, at B + j S, starts below the threshold (with
 * --summary, the lowest at which anything happens).
 */
static uint64_t
whole_chained(const struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t,
    const struct dcfg_runwalk_item *r, uint64_t left)
{
	uint64_t below = pr->o->summary ? dcfg_pinpoints_summary_lowest(t) : t->threshold;
	uint64_t b, room;

	if (__builtin_add_overflow(t->pos, r->last, &b))
		return 0;
	if (b >= below)   /* the summary's chains may go round as the copies do */
		return pr->o->summary ? dcfg_pinpoints_summary_whole(pr->cur, r, r->s, left) : 0;
	room = below - 1 - b;
	return r->s == 0 || room / r->s >= left ? left : room / r->s + 1;
}

/*
 * How many of the LEFT copies of run R, from the position on, hold no
 * boundary and can be added at once. 0: the next copy must be walked (it
 * may hold a boundary, or the thread's first entry).
 */
static uint64_t
whole(void *ctx, const struct dcfg_runwalk_item *r, uint64_t left)
{
	const struct dcfg_pinpoints *pr = ctx;
	const struct dcfg_pinpoints_thread *t = pr->cur;
	uint64_t n = pr->o->slice_size, b, room;

	if (r->big || !t->started)
		return 0;
	if (r->first > r->last)
		return left;
	if (dcfg_pinpoints_chained(pr->o))
		return whole_chained(pr, t, r, left);
	if (pr->o->part && !t->seen_eligible)   /* a candidate: its piece starts there */
		return 0;
	if (__builtin_add_overflow(t->pos, r->last, &b) || b / n != t->last_q)
		return 0;
	/* copy j (from 0) holds none while b + j S stays in interval LAST_Q */
	room = n - 1 - b % n;
	return r->s == 0 || room / r->s >= left ? left : room / r->s + 1;
}

static const struct dcfg_runwalk_ops run_ops = {
	.bare = run_bare, .whole = whole, .add = add_copies, .step = run_step,
};

void
dcfg_pinpoints_runs_init(struct dcfg_pinpoints *pr)
{
	dcfg_runwalk_init(&pr->runs, &run_ops, pr, 0);
}

void
dcfg_pinpoints_runs_free(struct dcfg_pinpoints *pr)
{
	dcfg_runwalk_free(&pr->runs);
}

/* A code of runwalk.h as the command's error. */
static int
runs_error(struct dcfg_pinpoints *pr, int rc)
{
	if (rc == DCFG_RUNWALK_ENOMEM)
		return dcfg_error_set(pr->err, pr->name, "out of memory");
	if (rc == DCFG_RUNWALK_EDEEP)
		return dcfg_error_set(pr->err, pr->name, "runs nested too deep");
	return rc < 0 ? -1 : 0;
}

int
dcfg_pinpoints_line(struct dcfg_pinpoints *pr, uint64_t src, uint32_t b, uint64_t weight)
{
	if (!dcfg_runwalk_open(&pr->runs))
		return step(pr, pr->cur, src, b);
	return runs_error(pr, dcfg_runwalk_line(&pr->runs, src, b, 0, weight,
	    b != DCFG_PINPOINTS_NONE && pr->blocks[b].eligible));
}

int
dcfg_pinpoints_run(struct dcfg_pinpoints *pr, const struct dcfg_stream_record *r)
{
	return runs_error(pr, dcfg_runwalk_record(&pr->runs, r));
}
