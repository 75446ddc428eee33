/*
 * A replay's results (replay.h): the rows of inclusive costs and edges
 * taken per thread, their sums, and the check of the edges taken against
 * the DCFG's counts. The replayer itself is replay.c's.
 */
#include "replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
dcfg_replay_rows_alloc(struct dcfg_replay *r, const struct dcfg_profile *pf, const char *path,
    struct dcfg_error *err)
{
	const struct dcfg_process *p = pf->p;
	size_t ne = (size_t)p->edges.count + 1, cells;

	r->threads = p->threads;
	r->stride = pf->fold ? 2 * ne : ne;
	if (__builtin_mul_overflow((size_t)r->threads + 1, r->stride, &cells) ||
	    cells > SIZE_MAX / sizeof *r->incl)
		return dcfg_error_set(err, path, "process %" PRIu64 ": %" PRIu32 " threads of %"
		    PRIu32 " edges are too many to replay", p->pid, r->threads, p->edges.count);
	r->incl = calloc(cells, sizeof *r->incl);
	r->taken = calloc(cells, sizeof *r->taken);
	r->sum = calloc(r->stride, sizeof *r->sum);
	if (r->incl == NULL || r->taken == NULL || r->sum == NULL)
		return dcfg_error_set(err, path, "out of memory");
	return 0;
}

int
dcfg_replay_rows_sum(struct dcfg_replay *r)
{
	uint32_t t;
	size_t i;
	int overflow = 0;

	for (t = 0; t < r->threads; t++)
		for (i = 0; i < r->stride; i++)
			overflow |= __builtin_add_overflow(r->sum[i], r->incl[t * r->stride + i],
			    &r->sum[i]);
	return overflow;
}

int
dcfg_replay_rows_check(const struct dcfg_replay *r, const struct dcfg_profile *pf, char *why,
    size_t size)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	size_t ne = (size_t)p->edges.count + 1;
	uint32_t t, i;

	for (t = 0; t < r->threads; t++)
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			uint64_t want = e->counts.first != DCFG_NONE && t < e->counts.count ?
			    d->counts[e->counts.first + t] : 0;
			uint64_t got = r->taken[t * ne + i];
			if (got != want) {
				snprintf(why, size, "process %" PRIu64 " thread %"
				    PRIu32 " edge %" PRIu32 ": taken %" PRIu64 " times in the trace, "
				    "COUNT_PER_THREAD says %" PRIu64, p->pid, t, e->id, got, want);
				return -1;
			}
		}
	return 0;
}

void
dcfg_replay_free(struct dcfg_replay *r)
{
	free(r->incl);
	free(r->taken);
	free(r->sum);
	memset(r, 0, sizeof *r);
}

const uint64_t *
dcfg_replay_incl(const struct dcfg_replay *r, uint32_t thread)
{
	return thread == DCFG_ALL_THREADS ? r->sum : r->incl + thread * r->stride;
}
