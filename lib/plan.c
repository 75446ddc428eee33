#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "trace.h"
#include "vec.h"

/*
 * The index. While reading: the selected process rows, thread rows and
 * chunks in file order. Then a process or thread that has several rows
 * becomes one (first appearance decides the order), each thread's chunks
 * are sorted by PRECEDING_INSTR_COUNT and made into segments, in the
 * same array (a chunk's slot holds a segment afterwards): chunks that
 * overlap (one straddles where another starts) merge into one span, and
 * a chunk of no instructions strictly inside a span joins it; the others
 * are points. No segment straddles the start of another, so a cut at a
 * segment's start splits no chunk.
 */
struct chunk {
	uint64_t p, n, e;         /* PRECEDING_INSTR_COUNT, INSTR_COUNT, EDGE_COUNT */
	size_t thread;            /* the thread row while reading, then the thread */
};

struct trow {
	uint64_t pid, tid;
	size_t prow;              /* the process row it is in */
};

struct seg {
	uint64_t start, len;      /* instructions [start, start+len); len 0: a point */
	uint64_t edges, before;   /* its edges, and the thread's edges before it */
};

/* A chunk as read; once sorted, the same array holds the segments. */
union slot {
	struct chunk c;
	struct seg s;
};

struct thread {
	uint64_t tid;
	size_t proc;
	uint64_t edges;
	size_t seg, n_seg;        /* its segments */
	int reaches_max;          /* a chunk reaches instruction count 2^64-1: never cut */
	size_t unit;              /* its unit (SIZE_MAX: none yet) */
};

struct proc {
	uint64_t pid;
	uint64_t edges;
	size_t thread, n_threads; /* its threads, in order, in plan->order */
	size_t first_unit, last_unit;  /* SIZE_MAX: none */
};

/* What a plan prints: units in order, each one line or a split thread's lines. */
enum unit_kind { WHOLE, THREADS, SPLIT };

struct unit {
	enum unit_kind kind;
	uint64_t sum;             /* edges (SPLIT: of its largest piece) */
	/* SPLIT: the thread, its pieces, and how its cuts are placed */
	size_t thread;
	uint64_t pieces;
	uint64_t fill;            /* fill() with this makes them */
	uint64_t max;             /* the largest piece that makes */
	int nearest;              /* cuts nearest to equal shares instead, none larger */
};

/* Members go on every line of their unit, or only its first or last. */
enum where { ALL, FIRST, LAST };

struct member {
	size_t unit;
	int is_thread;
	size_t index;             /* process or thread */
	enum where where;
};

struct dcfg_plan {
	const struct dcfg_plan_options *o;
	struct dcfg_progress *meter;

	uint64_t *prows; size_t n_prows, cap_prows;
	struct trow *trows; size_t n_trows, cap_trows;
	union slot *slots; size_t n_chunks, cap_chunks;
	uint64_t total;           /* the selection's edges */

	struct proc *procs; size_t n_procs;
	struct thread *threads; size_t n_threads;
	size_t *order;            /* thread indices, grouped by process */
	size_t n_segs;            /* in slots, after build_index */

	struct unit *units; size_t n_units, cap_units;
	struct member *members; size_t n_members, cap_members;
};

static int
listed(const uint64_t *v, size_t n, uint64_t x)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct dcfg_plan *pl = ctx;

	if (!listed(pl->o->pids, pl->o->n_pids, pid))
		return DCFG_TRACE_SKIP;
	if (pl->o->dcfg && dcfg_find_process(pl->o->dcfg, pid) == NULL)
		return dcfg_trace_fail(t, "process %llu is not in the DCFG",
		    (unsigned long long)pid);
	if (dcfg_reserve((void **)&pl->prows, &pl->cap_prows, pl->n_prows + 1,
	    sizeof *pl->prows) < 0)
		return dcfg_trace_fail(t, "out of memory");
	pl->prows[pl->n_prows++] = pid;
	return DCFG_TRACE_OK;
}

static int
on_thread(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid)
{
	struct dcfg_plan *pl = ctx;

	if (!listed(pl->o->tids, pl->o->n_tids, tid))
		return DCFG_TRACE_SKIP;
	if (dcfg_reserve((void **)&pl->trows, &pl->cap_trows, pl->n_trows + 1,
	    sizeof *pl->trows) < 0)
		return dcfg_trace_fail(t, "out of memory");
	pl->trows[pl->n_trows++] = (struct trow){ pid, tid, pl->n_prows - 1 };
	return DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct dcfg_plan *pl = ctx;
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	uint64_t end;

	if (__builtin_add_overflow(ci->preceding_instr_count, ci->instr_count, &end))
		return dcfg_chunk_fail_row(c,
		    "PRECEDING_INSTR_COUNT + INSTR_COUNT is more than 2^64-1");
	if (__builtin_add_overflow(pl->total, ci->edge_count, &pl->total))
		return dcfg_chunk_fail_row(c,
		    "the EDGE_COUNT of the selected chunks adds up to more than 2^64-1");
	if (dcfg_reserve((void **)&pl->slots, &pl->cap_chunks, pl->n_chunks + 1,
	    sizeof *pl->slots) < 0)
		return dcfg_chunk_fail_row(c, "out of memory");
	pl->slots[pl->n_chunks++].c = (struct chunk){ ci->preceding_instr_count,
	    ci->instr_count, ci->edge_count, pl->n_trows - 1 };
	return DCFG_TRACE_OK;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct dcfg_plan *pl = ctx;

	if (pl->meter)
		dcfg_progress_update(pl->meter, bytes, 0);
	else if (pl->o->progress)
		pl->o->progress(pl->o->progress_ctx, bytes);
}

/* ---- the index ------------------------------------------------------------ */

/* Rows sorted by key, then by file order: the first of equal keys names them all. */
struct keyed {
	uint64_t k1, k2;
	size_t row;
};

static int
by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static int
by_place(const void *a, const void *b)
{
	const struct chunk *x = &((const union slot *)a)->c, *y = &((const union slot *)b)->c;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return 0;
}

/*
 * FIRST[i] = the first row (in file order) with row i's key; returns how
 * many distinct keys there are, and NUMBER[i] = the rank of row i's key in
 * order of first appearance.
 */
static int
unify(struct keyed *k, size_t n, size_t *number, size_t *count)
{
	size_t i, j, *first = malloc((n ? n : 1) * sizeof *first);

	if (first == NULL)
		return -1;
	qsort(k, n, sizeof *k, by_key);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && k[j].k1 == k[i].k1 && k[j].k2 == k[i].k2; j++)
			first[k[j].row] = k[i].row;
	}
	*count = 0;
	for (i = 0; i < n; i++)
		number[i] = first[i] == i ? (*count)++ : number[first[i]];
	free(first);
	return 0;
}

/*
 * Thread T's chunks, slots [FROM, TO) sorted, into its segments, written
 * from slot pl->n_segs on (never past the chunk being read).
 */
static void
make_segments(struct dcfg_plan *pl, struct thread *t, size_t from, size_t to)
{
	uint64_t before = 0;
	size_t i;

	t->seg = pl->n_segs;
	for (i = from; i < to; i++) {
		struct chunk c = pl->slots[i].c;
		struct seg *last = pl->n_segs > t->seg ? &pl->slots[pl->n_segs - 1].s : NULL;
		uint64_t end = c.p + c.n;

		t->edges += c.e;
		if (c.p == UINT64_MAX || end == UINT64_MAX)
			t->reaches_max = 1;
		/*
		 * Sorted by start: a chunk overlaps the last span when it starts
		 * before the span's end (a point only strictly inside it).
		 */
		if (last && last->len > 0 && c.p < last->start + last->len &&
		    (c.n > 0 || c.p > last->start)) {
			if (end > last->start + last->len)
				last->len = end - last->start;
			last->edges += c.e;
			continue;
		}
		pl->slots[pl->n_segs++].s = (struct seg){ c.p, c.n, c.e, 0 };
	}
	t->n_seg = pl->n_segs - t->seg;
	for (i = t->seg; i < pl->n_segs; i++) {
		pl->slots[i].s.before = before;
		before += pl->slots[i].s.edges;
	}
}

static int
build_index(struct dcfg_plan *pl)
{
	size_t n = pl->n_prows > pl->n_trows ? pl->n_prows : pl->n_trows;
	struct keyed *k = malloc((n ? n : 1) * sizeof *k);
	size_t *number = malloc((n ? n : 1) * sizeof *number);
	size_t *proc_of_prow = malloc((pl->n_prows ? pl->n_prows : 1) * sizeof *proc_of_prow);
	size_t *thread_of_trow = malloc((pl->n_trows ? pl->n_trows : 1) * sizeof *thread_of_trow);
	size_t i, j, *fill = NULL;
	int rc = -1;

	if (!k || !number || !proc_of_prow || !thread_of_trow)
		goto out;
	/* processes */
	for (i = 0; i < pl->n_prows; i++)
		k[i] = (struct keyed){ pl->prows[i], 0, i };
	if (unify(k, pl->n_prows, proc_of_prow, &pl->n_procs) < 0)
		goto out;
	if ((pl->procs = calloc(pl->n_procs + 1, sizeof *pl->procs)) == NULL)
		goto out;
	for (i = 0; i < pl->n_prows; i++)
		pl->procs[proc_of_prow[i]].pid = pl->prows[i];
	/* threads: one per process and THREAD_ID */
	for (i = 0; i < pl->n_trows; i++)
		k[i] = (struct keyed){ proc_of_prow[pl->trows[i].prow], pl->trows[i].tid, i };
	if (unify(k, pl->n_trows, thread_of_trow, &pl->n_threads) < 0)
		goto out;
	if ((pl->threads = calloc(pl->n_threads + 1, sizeof *pl->threads)) == NULL ||
	    (pl->order = malloc((pl->n_threads + 1) * sizeof *pl->order)) == NULL ||
	    (fill = calloc(pl->n_procs + 1, sizeof *fill)) == NULL)
		goto out;
	for (i = 0; i < pl->n_trows; i++) {
		struct thread *t = &pl->threads[thread_of_trow[i]];
		t->tid = pl->trows[i].tid;
		t->proc = proc_of_prow[pl->trows[i].prow];
		t->unit = SIZE_MAX;
	}
	/* each process's threads in order of first appearance */
	for (i = 0; i < pl->n_threads; i++)
		pl->procs[pl->threads[i].proc].n_threads++;
	for (i = 0, j = 0; i < pl->n_procs; i++) {
		pl->procs[i].thread = j;
		j += pl->procs[i].n_threads;
		pl->procs[i].first_unit = pl->procs[i].last_unit = SIZE_MAX;
	}
	for (i = 0; i < pl->n_threads; i++) {
		struct proc *p = &pl->procs[pl->threads[i].proc];
		pl->order[p->thread + fill[pl->threads[i].proc]++] = i;
	}
	/* chunks by thread and place, then segments in their place */
	for (i = 0; i < pl->n_chunks; i++)
		pl->slots[i].c.thread = thread_of_trow[pl->slots[i].c.thread];
	if (pl->n_chunks > 0)
		qsort(pl->slots, pl->n_chunks, sizeof *pl->slots, by_place);
	for (i = 0; i < pl->n_chunks; i = j) {
		size_t ti = pl->slots[i].c.thread;
		for (j = i; j < pl->n_chunks && pl->slots[j].c.thread == ti; j++)
			;
		make_segments(pl, &pl->threads[ti], i, j);
	}
	for (i = 0; i < pl->n_threads; i++)
		pl->procs[pl->threads[i].proc].edges += pl->threads[i].edges;
	rc = 0;
out:
	free(k);
	free(number);
	free(proc_of_prow);
	free(thread_of_trow);
	free(fill);
	return rc;
}

/* ---- cutting a thread ------------------------------------------------------ */

/*
 * The estimated edges of thread T before instruction count A: a segment
 * before A counts whole (a point when it is below A); the span A falls in
 * counts as if its edges ran evenly from its start, one every len/edges
 * instructions: ceil(edges x (A - start) / len). Exact at a segment's
 * start, which is where cuts fall without --align.
 */
static uint64_t
estimate(const struct dcfg_plan *pl, const struct thread *t, uint64_t a)
{
	const union slot *s = pl->slots + t->seg;
	const struct seg *g;
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

/*
 * Where a thread may be cut: candidates LO..HI (none when LO > HI), the
 * instruction count POS(i) of each, and the estimated edges before it,
 * non-decreasing in i. Without --align the candidates are the segments'
 * starts after the first; with it, the multiples of the interval above
 * the thread's first instruction and up to its last.
 */
struct space {
	const struct dcfg_plan *pl;
	const struct thread *t;
	uint64_t lo, hi, step;    /* step 0: segment starts */
};

static void
space_init(struct space *sp, const struct dcfg_plan *pl, const struct thread *t)
{
	const union slot *s = pl->slots + t->seg;
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
		const struct seg *g = &s[i].s;
		uint64_t x = g->len ? g->start + g->len - 1 : g->start;
		if (x > last)
			last = x;
	}
	sp->lo = s[0].s.start / sp->step + 1;
	sp->hi = last / sp->step;
}

static uint64_t
pos(const struct space *sp, uint64_t i)
{
	return sp->step ? i * sp->step : sp->pl->slots[sp->t->seg + i].s.start;
}

static uint64_t
cum(const struct space *sp, uint64_t i)
{
	return estimate(sp->pl, sp->t, pos(sp, i));
}

/* The first candidate with more than X edges before it; HI + 1 if none. */
static uint64_t
first_above(const struct space *sp, uint64_t x)
{
	uint64_t lo = sp->lo, hi = sp->hi + 1;

	if (sp->lo > sp->hi)
		return sp->hi + 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (cum(sp, mid) > x)
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
static int
fill(const struct space *sp, uint64_t at, uint64_t max, uint64_t *cut)
{
	uint64_t e = sp->t->edges, f, c;

	if (e - at <= max)
		return 0;
	f = first_above(sp, at + max);
	if (f > sp->lo && cum(sp, f - 1) > at)
		c = f - 1;
	else if (f <= sp->hi)
		c = f;
	else
		return 0;
	if (cum(sp, c) >= e)
		return 0;
	*cut = c;
	return 1;
}

/* How many pieces fill() makes with MAX; stops counting past LIMIT. */
static uint64_t
fill_count(const struct space *sp, uint64_t max, uint64_t limit)
{
	uint64_t n = 0, at = 0, c;

	for (;;) {
		if (++n > limit || !fill(sp, at, max, &c))
			return n;
		at = cum(sp, c);
	}
}

/*
 * The cut after one with AT edges before it, nearest to TARGET edges,
 * that leaves both pieces at least one edge and the one before it at most
 * MAX. 1 with *CUT set, 0 if neither neighbour of TARGET will do.
 */
static int
nearest(const struct space *sp, uint64_t at, uint64_t target, uint64_t max, uint64_t *cut)
{
	uint64_t f = first_above(sp, target), e = sp->t->edges;
	uint64_t below = 0, above = 0;
	int has_below = 0, has_above = 0;

	if (f > sp->lo) {
		below = cum(sp, f - 1);
		has_below = below > at && below < e && below - at <= max;
	}
	if (f <= sp->hi) {
		above = cum(sp, f);
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
static uint64_t
share(uint64_t e, uint64_t i, uint64_t pieces)
{
	return (uint64_t)((unsigned __int128)e * i / pieces);
}

/*
 * Whether the cuts nearest to equal shares keep every piece within MAX;
 * *LARGEST is then their largest piece.
 */
static int
nearest_fits(const struct space *sp, uint64_t pieces, uint64_t max, uint64_t *largest)
{
	uint64_t at = 0, i, c;

	*largest = 0;
	for (i = 1; i < pieces; i++) {
		if (!nearest(sp, at, share(sp->t->edges, i, pieces), max, &c))
			return 0;
		if (cum(sp, c) - at > *largest)
			*largest = cum(sp, c) - at;
		at = cum(sp, c);
	}
	if (sp->t->edges - at > *largest)
		*largest = sp->t->edges - at;
	return *largest <= max;
}

/* ---- the shape of the plan ------------------------------------------------ */

static int
new_unit(struct dcfg_plan *pl, enum unit_kind kind, uint64_t sum)
{
	if (dcfg_reserve((void **)&pl->units, &pl->cap_units, pl->n_units + 1,
	    sizeof *pl->units) < 0)
		return -1;
	pl->units[pl->n_units++] = (struct unit){ .kind = kind, .sum = sum };
	return 0;
}

static int
add_member(struct dcfg_plan *pl, size_t unit, int is_thread, size_t index, enum where w)
{
	if (dcfg_reserve((void **)&pl->members, &pl->cap_members, pl->n_members + 1,
	    sizeof *pl->members) < 0)
		return -1;
	pl->members[pl->n_members++] = (struct member){ unit, is_thread, index, w };
	return 0;
}

static int
note_unit(struct dcfg_plan *pl, struct proc *p)
{
	if (p->first_unit == SIZE_MAX)
		p->first_unit = pl->n_units - 1;
	p->last_unit = pl->n_units - 1;
	return add_member(pl, pl->n_units - 1, 0, (size_t)(p - pl->procs), ALL);
}

/* The largest piece fill() makes with MAX. */
static uint64_t
fill_largest(const struct space *sp, uint64_t max)
{
	uint64_t at = 0, c, largest = 0;

	while (fill(sp, at, max, &c)) {
		if (cum(sp, c) - at > largest)
			largest = cum(sp, c) - at;
		at = cum(sp, c);
	}
	return sp->t->edges - at > largest ? sp->t->edges - at : largest;
}

/*
 * A thread of more than C edges cut into pieces: as few as fill() needs
 * with C; then, keeping that many, filled with the smallest MAX that
 * needs no more, and the cuts moved nearest to equal shares when no
 * piece then grows past the largest of those.
 */
static int
split(struct dcfg_plan *pl, struct proc *p, size_t ti, uint64_t c)
{
	struct space sp;
	uint64_t pieces, lo = 1, hi = c;
	struct unit *u;

	space_init(&sp, pl, &pl->threads[ti]);
	pieces = fill_count(&sp, c, UINT64_MAX);
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (fill_count(&sp, mid, pieces) <= pieces)
			hi = mid;
		else
			lo = mid + 1;
	}
	pieces = fill_count(&sp, lo, pieces);
	if (new_unit(pl, pieces > 1 ? SPLIT : THREADS, pl->threads[ti].edges) < 0)
		return -1;
	u = &pl->units[pl->n_units - 1];
	u->thread = ti;
	u->pieces = pieces;
	u->fill = lo;
	u->max = fill_largest(&sp, lo);
	u->nearest = pieces > 1 && nearest_fits(&sp, pieces, u->max, &u->sum);
	if (!u->nearest)
		u->sum = u->max;
	pl->threads[ti].unit = pl->n_units - 1;
	if (note_unit(pl, p) < 0)
		return -1;
	return add_member(pl, pl->n_units - 1, 1, ti, ALL);
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
		struct proc *p = &pl->procs[i];
		p->first_unit = p->last_unit = SIZE_MAX;
		if (p->edges == 0)
			continue;
		if (p->edges <= c) {
			if (w == SIZE_MAX || pl->units[w].sum + p->edges > c) {
				lines++;
				if (new_unit(pl, WHOLE, 0) < 0)
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
			struct thread *t = &pl->threads[ti];
			t->unit = SIZE_MAX;
			if (t->edges == 0)
				continue;
			if (t->edges <= c) {
				if (tu == SIZE_MAX || pl->units[tu].sum + t->edges > c) {
					lines++;
					if (new_unit(pl, THREADS, 0) < 0)
						return UINT64_MAX;
					tu = pl->n_units - 1;
					if (build && note_unit(pl, p) < 0)
						return UINT64_MAX;
				}
				pl->units[tu].sum += t->edges;
				t->unit = tu;
				if (build && add_member(pl, tu, 1, ti, ALL) < 0)
					return UINT64_MAX;
				continue;
			}
			tu = SIZE_MAX;
			if (build) {
				if (split(pl, p, ti, c) < 0)
					return UINT64_MAX;
				lines += pl->units[pl->n_units - 1].pieces;
			} else {
				struct space sp;
				space_init(&sp, pl, t);
				lines += fill_count(&sp, c, room(limit, lines));
			}
		}
	}
	return lines;
}

/*
 * The unit nearest to process I, before it on a tie, whole-process only
 * with WHOLE_ONLY: the last unit of a process before it (*W = LAST) or
 * the first of one after it (*W = FIRST); SIZE_MAX if none.
 */
static size_t
nearest_unit(const struct dcfg_plan *pl, size_t i, int whole_only, enum where *w)
{
	size_t d;

	for (d = 1; d < pl->n_procs; d++) {
		const struct proc *b = i >= d ? &pl->procs[i - d] : NULL;
		const struct proc *a = i + d < pl->n_procs ? &pl->procs[i + d] : NULL;
		if (!a && !b)
			break;
		*w = LAST;
		if (b && b->last_unit != SIZE_MAX &&
		    (!whole_only || pl->units[b->last_unit].kind == WHOLE))
			return b->last_unit;
		*w = FIRST;
		if (a && a->first_unit != SIZE_MAX &&
		    (!whole_only || pl->units[a->first_unit].kind == WHOLE))
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
		struct proc *p = &pl->procs[i];
		if (p->edges > 0 && pl->units[p->first_unit].kind != WHOLE) {
			for (j = 0; j < p->n_threads; j++) {
				size_t ti = pl->order[p->thread + j], u = SIZE_MAX;
				enum where w = LAST;
				if (pl->threads[ti].edges > 0)
					continue;
				for (k = j; k-- > 0 && u == SIZE_MAX; )
					u = pl->threads[pl->order[p->thread + k]].unit;
				for (k = j + 1; k < p->n_threads && u == SIZE_MAX; k++) {
					u = pl->threads[pl->order[p->thread + k]].unit;
					w = FIRST;
				}
				if (add_member(pl, u, 1, ti, w) < 0)
					return -1;
			}
		}
		if (p->edges == 0) {
			enum where w;
			size_t u = nearest_unit(pl, i, 1, &w);
			if (u == SIZE_MAX)
				u = nearest_unit(pl, i, 0, &w);
			if (add_member(pl, u, 0, i, pl->units[u].kind == SPLIT ? w : ALL) < 0)
				return -1;
		}
	}
	return 0;
}

/* ---- writing ------------------------------------------------------------- */

static int
by_line(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->is_thread != y->is_thread)
		return x->is_thread - y->is_thread;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void
word(struct dcfg_output *out, int *first, const char *opt, uint64_t v)
{
	if (!*first)
		dcfg_out_char(out, ' ');
	*first = 0;
	dcfg_out_str(out, opt);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, v);
}

/*
 * One line of unit U (members M[0..N)): piece FIRST and/or LAST of it;
 * a window [FROM, TO) where HAS_FROM, HAS_TO.
 */
static void
line(const struct dcfg_plan *pl, struct dcfg_output *out, const struct unit *u,
    const struct member *m, size_t n, int first, int last,
    int has_from, uint64_t from, int has_to, uint64_t to)
{
	int lead = 1;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if ((m[i].where == FIRST && !first) || (m[i].where == LAST && !last))
			continue;
		if (m[i].is_thread)
			word(out, &lead, "-t", pl->threads[m[i].index].tid);
		else
			word(out, &lead, "-p", pl->procs[m[i].index].pid);
	}
	if (u->kind == WHOLE)     /* the threads selected, the same in every process */
		for (i = 0; i < pl->o->n_tids; i++) {
			for (j = 0; j < i && pl->o->tids[j] != pl->o->tids[i]; j++)
				;
			if (j == i)
				word(out, &lead, "-t", pl->o->tids[i]);
		}
	if (has_from)
		word(out, &lead, "--from-icount", from);
	if (has_to)
		word(out, &lead, "--to-icount", to);
	if ((has_from || has_to) && pl->o->align) {
		dcfg_out_str(out, " --dcfg ");
		dcfg_out_str(out, pl->o->dcfg_path);
	}
	dcfg_out_char(out, '\n');
}

/* A split thread's lines: its cuts found again, one after another. */
static void
split_lines(const struct dcfg_plan *pl, struct dcfg_output *out, const struct unit *u,
    const struct member *m, size_t n)
{
	struct space sp;
	uint64_t i, at = 0, from = 0, c;

	space_init(&sp, pl, &pl->threads[u->thread]);
	for (i = 0; i < u->pieces; i++) {
		int cut = i + 1 < u->pieces &&
		    (u->nearest ? nearest(&sp, at, share(sp.t->edges, i + 1, u->pieces), u->max, &c) :
		    fill(&sp, at, u->fill, &c));
		line(pl, out, u, m, n, i == 0, !cut, i > 0, from, cut, cut ? pos(&sp, c) : 0);
		if (!cut)
			break;
		at = cum(&sp, c);
		from = pos(&sp, c);
	}
}

static int
write_units(struct dcfg_plan *pl, struct dcfg_output *out)
{
	size_t i, j;

	if (pl->n_members > 0)
		qsort(pl->members, pl->n_members, sizeof *pl->members, by_line);
	for (i = 0; i < pl->n_members; i = j) {
		const struct unit *u = &pl->units[pl->members[i].unit];
		for (j = i; j < pl->n_members && pl->members[j].unit == pl->members[i].unit; j++)
			;
		if (u->kind == SPLIT)
			split_lines(pl, out, u, pl->members + i, j - i);
		else
			line(pl, out, u, pl->members + i, j - i, 1, 1, 0, 0, 0, 0);
		if (dcfg_output_failed(out))
			break;
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

	if (build_index(pl) < 0)
		return dcfg_error_set(err, trace, "out of memory");
	if (pl->n_procs == 0)
		return 0;
	if (pl->total == 0) {
		/* nothing to balance: one line selects it all */
		pl->n_units = pl->n_members = 0;
		if (new_unit(pl, WHOLE, 0) < 0)
			return dcfg_error_set(err, trace, "out of memory");
		for (i = 0; i < pl->n_procs; i++)
			if (add_member(pl, 0, 0, i, ALL) < 0)
				return dcfg_error_set(err, trace, "out of memory");
	} else {
		if (capacity(pl, &c) < 0 || shape(pl, c, UINT64_MAX, 1) == UINT64_MAX)
			return dcfg_error_set(err, trace, "out of memory");
		if ((big = largest(pl)) > c && shape(pl, big, UINT64_MAX, 1) == UINT64_MAX)
			return dcfg_error_set(err, trace, "out of memory");
		if (attach(pl) < 0)
			return dcfg_error_set(err, trace, "out of memory");
	}
	return write_units(pl, out);
}

/* ---- the context ------------------------------------------------------------ */

struct dcfg_plan *
dcfg_plan_new(const struct dcfg_plan_options *opt)
{
	struct dcfg_plan *pl = calloc(1, sizeof *pl);

	if (pl)
		pl->o = opt;
	return pl;
}

int
dcfg_plan_read(struct dcfg_plan *pl, const char *trace, struct dcfg_error *err)
{
	static const struct dcfg_trace_handler handler = {
		.process = on_process,
		.thread = on_thread,
		.chunk = on_chunk,
		.progress = on_progress,
	};

	pl->meter = dcfg_progress_of(pl->o->progress, pl->o->progress_ctx);
	/* the chunk table: no edges are decoded */
	dcfg_progress_file(pl->meter, NULL, trace, NULL);
	return dcfg_trace_read(trace, &handler, pl, err) < 0 ? -1 : 0;
}

void
dcfg_plan_free(struct dcfg_plan *pl)
{
	if (pl == NULL)
		return;
	free(pl->prows);
	free(pl->trows);
	free(pl->slots);
	free(pl->procs);
	free(pl->threads);
	free(pl->order);
	free(pl->units);
	free(pl->members);
	free(pl);
}

int
dcfg_plan(const char *trace, const struct dcfg_plan_options *opt,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct dcfg_plan *pl = dcfg_plan_new(opt);
	int rc;

	if (pl == NULL)
		return dcfg_error_set(err, trace, "out of memory");
	rc = dcfg_plan_read(pl, trace, err);
	if (rc == 0)
		rc = dcfg_plan_write(pl, out, trace, err);
	dcfg_plan_free(pl);
	return rc;
}
