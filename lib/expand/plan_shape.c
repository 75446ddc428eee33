/*
 * The shape of a dcfg-expand --plan: the smallest capacity whose packing
 * of processes, threads and windows needs at most N lines, then what has
 * no edges joined to a line.
 */
#include "plan_internal.h"

#include "common/vec.h"

static int
new_unit(struct dcfg_plan *pl, enum plan_unit_kind kind, uint64_t sum)
{
	if (dcfg_reserve((void **)&pl->units, &pl->cap_units, pl->n_units + 1,
	    sizeof *pl->units) < 0)
		return -1;
	pl->units[pl->n_units++] = (struct plan_unit){ .kind = kind, .sum = sum };
	return 0;
}

static int
add_member(struct dcfg_plan *pl, size_t unit, int is_thread, size_t index, enum plan_where w)
{
	if (dcfg_reserve((void **)&pl->members, &pl->cap_members, pl->n_members + 1,
	    sizeof *pl->members) < 0)
		return -1;
	pl->members[pl->n_members++] = (struct plan_member){ unit, is_thread, index, w };
	return 0;
}

static int
note_unit(struct dcfg_plan *pl, struct plan_proc *p)
{
	if (p->first_unit == SIZE_MAX)
		p->first_unit = pl->n_units - 1;
	p->last_unit = pl->n_units - 1;
	return add_member(pl, pl->n_units - 1, 0, (size_t)(p - pl->procs), PLAN_ALL);
}

/*
 * A thread of more than C edges cut into pieces: as few as
 * dcfg_plan_fill() needs with C; then, keeping that many, filled with the
 * smallest MAX that needs no more, and the cuts moved nearest to equal
 * shares when no piece then grows past the largest of those.
 */
static int
split(struct dcfg_plan *pl, struct plan_proc *p, size_t ti, uint64_t c)
{
	struct plan_space sp;
	uint64_t pieces, lo = 1, hi = c;
	struct plan_unit *u;

	dcfg_plan_space_init(&sp, pl, &pl->threads[ti]);
	pieces = dcfg_plan_fill_count(&sp, c, UINT64_MAX);
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (dcfg_plan_fill_count(&sp, mid, pieces) <= pieces)
			hi = mid;
		else
			lo = mid + 1;
	}
	pieces = dcfg_plan_fill_count(&sp, lo, pieces);
	if (new_unit(pl, pieces > 1 ? PLAN_SPLIT : PLAN_THREADS, pl->threads[ti].edges) < 0)
		return -1;
	u = &pl->units[pl->n_units - 1];
	u->thread = ti;
	u->pieces = pieces;
	u->fill = lo;
	u->max = dcfg_plan_fill_largest(&sp, lo);
	u->nearest = pieces > 1 && dcfg_plan_nearest_fits(&sp, pieces, u->max, &u->sum);
	if (!u->nearest)
		u->sum = u->max;
	pl->threads[ti].unit = pl->n_units - 1;
	if (note_unit(pl, p) < 0)
		return -1;
	return add_member(pl, pl->n_units - 1, 1, ti, PLAN_ALL);
}

/* Lines left before LIMIT is passed, for a count that stops past it. */
static uint64_t
room(uint64_t limit, uint64_t lines)
{
	return limit - lines == UINT64_MAX ? UINT64_MAX : limit - lines + 1;
}

/*
 * The lines with capacity C: whole processes packed in order while their
 * edges fit in C; a process of more edges by its threads, packed alike,
 * and a thread of more edges cut into windows (split). Processes and
 * threads without edges are left for attach(). Returns the number of
 * lines; counting stops past LIMIT. With BUILD the units and members are
 * made. UINT64_MAX when out of memory.
 */
static uint64_t
shape(struct dcfg_plan *pl, uint64_t c, uint64_t limit, int build)
{
	uint64_t lines = 0;
	size_t i, j, w = SIZE_MAX, tu;

	pl->n_units = pl->n_members = 0;
	for (i = 0; i < pl->n_procs && lines <= limit; i++) {
		struct plan_proc *p = &pl->procs[i];
		p->first_unit = p->last_unit = SIZE_MAX;
		if (p->edges == 0)
			continue;
		if (p->edges <= c) {
			if (w == SIZE_MAX || pl->units[w].sum + p->edges > c) {
				lines++;
				if (new_unit(pl, PLAN_WHOLE, 0) < 0)
					return UINT64_MAX;
				w = pl->n_units - 1;
			}
			pl->units[w].sum += p->edges;
			if (build && note_unit(pl, p) < 0)
				return UINT64_MAX;
			continue;
		}
		w = tu = SIZE_MAX;
		for (j = 0; j < p->n_threads && lines <= limit; j++) {
			size_t ti = pl->order[p->thread + j];
			struct plan_thread *t = &pl->threads[ti];
			t->unit = SIZE_MAX;
			if (t->edges == 0)
				continue;
			if (t->edges <= c) {
				if (tu == SIZE_MAX || pl->units[tu].sum + t->edges > c) {
					lines++;
					if (new_unit(pl, PLAN_THREADS, 0) < 0)
						return UINT64_MAX;
					tu = pl->n_units - 1;
					if (build && note_unit(pl, p) < 0)
						return UINT64_MAX;
				}
				pl->units[tu].sum += t->edges;
				t->unit = tu;
				if (build && add_member(pl, tu, 1, ti, PLAN_ALL) < 0)
					return UINT64_MAX;
				continue;
			}
			tu = SIZE_MAX;
			if (build) {
				if (split(pl, p, ti, c) < 0)
					return UINT64_MAX;
				lines += pl->units[pl->n_units - 1].pieces;
			} else {
				struct plan_space sp;
				dcfg_plan_space_init(&sp, pl, t);
				lines += dcfg_plan_fill_count(&sp, c, room(limit, lines));
			}
		}
	}
	return lines;
}

/*
 * The unit nearest to process I, before it on a tie, whole-process only
 * with WHOLE_ONLY: the last unit of a process before it (*W = PLAN_LAST) or
 * the first of one after it (*W = PLAN_FIRST); SIZE_MAX if none.
 */
static size_t
nearest_unit(const struct dcfg_plan *pl, size_t i, int whole_only, enum plan_where *w)
{
	size_t d;

	for (d = 1; d < pl->n_procs; d++) {
		const struct plan_proc *b = i >= d ? &pl->procs[i - d] : NULL;
		const struct plan_proc *a = i + d < pl->n_procs ? &pl->procs[i + d] : NULL;
		if (!a && !b)
			break;
		*w = PLAN_LAST;
		if (b && b->last_unit != SIZE_MAX &&
		    (!whole_only || pl->units[b->last_unit].kind == PLAN_WHOLE))
			return b->last_unit;
		*w = PLAN_FIRST;
		if (a && a->first_unit != SIZE_MAX &&
		    (!whole_only || pl->units[a->first_unit].kind == PLAN_WHOLE))
			return a->first_unit;
	}
	return SIZE_MAX;
}

/*
 * What has no edges joins a line: a thread the line of the thread before
 * it in its process (the last of a split thread's), or after it when none
 * is before (the first); a process the nearest whole-process line, or,
 * when there is none and it has no threads, the nearest line as one more
 * -p (the last line before it, or the first after it). capacity() makes
 * sure that a process with threads has a whole-process line to join.
 */
static int
attach(struct dcfg_plan *pl)
{
	size_t i, j, k;

	for (i = 0; i < pl->n_procs; i++) {
		struct plan_proc *p = &pl->procs[i];
		if (p->edges > 0 && pl->units[p->first_unit].kind != PLAN_WHOLE) {
			for (j = 0; j < p->n_threads; j++) {
				size_t ti = pl->order[p->thread + j], u = SIZE_MAX;
				enum plan_where w = PLAN_LAST;
				if (pl->threads[ti].edges > 0)
					continue;
				for (k = j; k-- > 0 && u == SIZE_MAX; )
					u = pl->threads[pl->order[p->thread + k]].unit;
				for (k = j + 1; k < p->n_threads && u == SIZE_MAX; k++) {
					u = pl->threads[pl->order[p->thread + k]].unit;
					w = PLAN_FIRST;
				}
				if (add_member(pl, u, 1, ti, w) < 0)
					return -1;
			}
		}
		if (p->edges == 0) {
			enum plan_where w;
			size_t u = nearest_unit(pl, i, 1, &w);
			if (u == SIZE_MAX)
				u = nearest_unit(pl, i, 0, &w);
			if (add_member(pl, u, 0, i, pl->units[u].kind == PLAN_SPLIT ? w : PLAN_ALL) < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * The smallest capacity C whose shape needs at most N lines: at least
 * total/N, and, when a process without edges has threads, at least the
 * edges of the smallest process with edges, so that a whole-process line
 * is there for it to join.
 */
static int
capacity(struct dcfg_plan *pl, uint64_t *c)
{
	uint64_t n = pl->o->lines, lo, hi = pl->total, least = UINT64_MAX, lines;
	int need_whole = 0;
	size_t i;

	lo = pl->total / n + (pl->total % n != 0);
	for (i = 0; i < pl->n_procs; i++) {
		if (pl->procs[i].edges == 0 && pl->procs[i].n_threads > 0)
			need_whole = 1;
		if (pl->procs[i].edges > 0 && pl->procs[i].edges < least)
			least = pl->procs[i].edges;
	}
	if (need_whole && least > lo)
		lo = least;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if ((lines = shape(pl, mid, n, 0)) == UINT64_MAX)
			return -1;
		if (lines <= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	*c = lo;
	return 0;
}

/*
 * The largest shard. When it is more than the capacity (a piece that
 * cannot be cut), the plan is shaped again with it: no more lines, no
 * larger shard, and what fits then goes whole.
 */
static uint64_t
largest(const struct dcfg_plan *pl)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < pl->n_units; i++)
		if (pl->units[i].sum > m)
			m = pl->units[i].sum;
	return m;
}

int
dcfg_plan_write(struct dcfg_plan *pl, struct dcfg_output *out, const char *trace,
    struct dcfg_error *err)
{
	uint64_t c, big;
	size_t i;

	if (dcfg_plan_index(pl) < 0)
		return dcfg_error_set(err, trace, "out of memory");
	if (pl->n_procs == 0)
		return 0;
	if (pl->total == 0) {
		/* nothing to balance: one line selects it all */
		pl->n_units = pl->n_members = 0;
		if (new_unit(pl, PLAN_WHOLE, 0) < 0)
			return dcfg_error_set(err, trace, "out of memory");
		for (i = 0; i < pl->n_procs; i++)
			if (add_member(pl, 0, 0, i, PLAN_ALL) < 0)
				return dcfg_error_set(err, trace, "out of memory");
	} else {
		if (capacity(pl, &c) < 0 || shape(pl, c, UINT64_MAX, 1) == UINT64_MAX)
			return dcfg_error_set(err, trace, "out of memory");
		if ((big = largest(pl)) > c && shape(pl, big, UINT64_MAX, 1) == UINT64_MAX)
			return dcfg_error_set(err, trace, "out of memory");
		if (attach(pl) < 0)
			return dcfg_error_set(err, trace, "out of memory");
	}
	if (dcfg_plan_lines(pl, out) < 0)
		return dcfg_error_set(err, trace, "out of memory");
	return 0;
}
