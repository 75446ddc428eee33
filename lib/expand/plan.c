#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "plan_internal.h"
#include "common/progress.h"
#include <dcfg/trace.h>
#include "common/vec.h"

/* ---- reading ------------------------------------------------------------ */

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct dcfg_plan *pl = ctx;

	if (!dcfg_selection_process(&pl->sel, pid))
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

	if (!dcfg_selection_thread(&pl->sel, tid))
		return DCFG_TRACE_SKIP;
	if (dcfg_reserve((void **)&pl->trows, &pl->cap_trows, pl->n_trows + 1,
	    sizeof *pl->trows) < 0)
		return dcfg_trace_fail(t, "out of memory");
	pl->trows[pl->n_trows++] = (struct plan_trow){ pid, tid, pl->n_prows - 1 };
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
	pl->slots[pl->n_chunks++].c = (struct plan_chunk){ ci->preceding_instr_count,
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
	const struct plan_chunk *x = &((const union plan_slot *)a)->c, *y = &((const union plan_slot *)b)->c;

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
make_segments(struct dcfg_plan *pl, struct plan_thread *t, size_t from, size_t to)
{
	uint64_t before = 0;
	size_t i;

	t->seg = pl->n_segs;
	for (i = from; i < to; i++) {
		struct plan_chunk c = pl->slots[i].c;
		struct plan_seg *last = pl->n_segs > t->seg ? &pl->slots[pl->n_segs - 1].s : NULL;
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
		pl->slots[pl->n_segs++].s = (struct plan_seg){ c.p, c.n, c.e, 0 };
	}
	t->n_seg = pl->n_segs - t->seg;
	for (i = t->seg; i < pl->n_segs; i++) {
		pl->slots[i].s.before = before;
		before += pl->slots[i].s.edges;
	}
}

int
dcfg_plan_index(struct dcfg_plan *pl)
{
	size_t n = pl->n_prows > pl->n_trows ? pl->n_prows : pl->n_trows;
	struct keyed *k = malloc((n ? n : 1) * sizeof *k);
	size_t *proc_of_prow = malloc((pl->n_prows ? pl->n_prows : 1) * sizeof *proc_of_prow);
	size_t *thread_of_trow = malloc((pl->n_trows ? pl->n_trows : 1) * sizeof *thread_of_trow);
	size_t i, j, *fill = NULL;
	int rc = -1;

	if (!k || !proc_of_prow || !thread_of_trow)
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
		struct plan_thread *t = &pl->threads[thread_of_trow[i]];
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
		struct plan_proc *p = &pl->procs[pl->threads[i].proc];
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
	free(proc_of_prow);
	free(thread_of_trow);
	free(fill);
	return rc;
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
	if (dcfg_selection_init(&pl->sel, pl->o->pids, pl->o->n_pids, pl->o->tids,
	    pl->o->n_tids) < 0)
		return dcfg_error_set(err, trace, "out of memory");
	if (dcfg_trace_read(trace, &handler, pl, err) < 0)
		return -1;
	return dcfg_selection_check(&pl->sel, trace, err);
}

void
dcfg_plan_free(struct dcfg_plan *pl)
{
	if (pl == NULL)
		return;
	dcfg_selection_free(&pl->sel);
	free(pl->prows);
	free(pl->trows);
	free(pl->slots);
	free(pl->procs);
	free(pl->threads);
	free(pl->order);
	free(pl->units);
	free(pl->members);
	free(pl->of_pids);
	free(pl->of_tids);
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
