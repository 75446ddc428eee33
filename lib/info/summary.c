#include "summary.h"

#include <stdlib.h>
#include <string.h>

/*
 * The edges from a loop's back-edge sources to its head, summed by
 * (source, target) pair: only the pairs the loops ask for are held, not
 * a sorted copy of every edge.
 */
struct back_arcs {
	uint64_t *key;     /* source << 32 | target, sorted, unique */
	uint64_t *sum;     /* the edges' totals for each key */
	size_t n;
};

static int
by_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
arc_key(uint32_t source, uint32_t target)
{
	return (uint64_t)source << 32 | target;
}

/* The index of KEY in the arcs, or ARCS->n when it is not there. */
static size_t
arc_find(const struct back_arcs *arcs, uint64_t key)
{
	size_t lo = 0, hi = arcs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (arcs->key[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < arcs->n && arcs->key[lo] == key ? lo : arcs->n;
}

/* 0, or -1 when out of memory. */
static int
back_arcs_init(struct back_arcs *arcs, const struct dcfg *d, const struct dcfg_process *p)
{
	size_t n = 0, i, k, m;

	memset(arcs, 0, sizeof *arcs);
	for (i = 0; i < p->loops.count; i++)
		n += d->loops[p->loops.first + i].back_edge_sources.count;
	arcs->key = malloc((n + 1) * sizeof *arcs->key);
	arcs->sum = calloc(n + 1, sizeof *arcs->sum);
	if (arcs->key == NULL || arcs->sum == NULL)
		return -1;
	for (n = i = 0; i < p->loops.count; i++) {
		const struct dcfg_loop *lp = &d->loops[p->loops.first + i];
		for (k = 0; k < lp->back_edge_sources.count; k++)
			arcs->key[n++] = arc_key(d->node_ids[lp->back_edge_sources.first + k],
			    lp->head_node_id);
	}
	qsort(arcs->key, n, sizeof *arcs->key, by_key);
	for (m = i = 0; i < n; i++)
		if (m == 0 || arcs->key[i] != arcs->key[m - 1])
			arcs->key[m++] = arcs->key[i];
	arcs->n = m;
	return 0;
}

static void
back_arcs_free(struct back_arcs *arcs)
{
	free(arcs->key);
	free(arcs->sum);
}

/* Adds one sample; 0, or -1 when the total would overflow. */
static int
sample(struct dcfg_stat *st, uint64_t v, uint64_t weight)
{
	if (weight == 0)
		return 0;
	if (v != 0 && weight > UINT64_MAX / v)
		return -1;
	if (st->total > UINT64_MAX - v * weight || st->count > UINT64_MAX - weight)
		return -1;
	if (st->count == 0 || v < st->min)
		st->min = v;
	if (st->count == 0 || v > st->max)
		st->max = v;
	st->count += weight;
	st->total += v * weight;
	return 0;
}

int
dcfg_summarize(const struct dcfg *d, const struct dcfg_process *p,
    struct dcfg_summary *s, const char *file, struct dcfg_error *err)
{
	uint64_t *execs = NULL, *calls = NULL;
	struct back_arcs arcs;
	int overflow = 0;
	uint32_t i, k, b;
	size_t a;

	memset(s, 0, sizeof *s);
	execs = calloc(p->blocks.count + 1, sizeof *execs);
	calls = calloc(p->routines.count + 1, sizeof *calls);
	if (back_arcs_init(&arcs, d, p) < 0 || execs == NULL || calls == NULL) {
		free(execs);
		free(calls);
		back_arcs_free(&arcs);
		return dcfg_error_set(err, file, "out of memory");
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		if (arcs.n > 0 && (a = arc_find(&arcs, arc_key(e->source, e->target))) < arcs.n) {
			if (arcs.sum[a] > UINT64_MAX - e->total)
				overflow = 1;
			arcs.sum[a] += e->total;
		}
		b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target);
		if (b == DCFG_NONE)
			continue;
		if (execs[b] > UINT64_MAX - e->total)
			overflow = 1;
		execs[b] += e->total;
		const struct dcfg_block *bl = &d->blocks[p->blocks.first + b];
		if (dcfg_edge_kind_is_call(e->kind) && bl->routine != DCFG_NONE &&
		    d->routines[bl->routine].entry_node_id == e->target) {
			uint64_t *c = &calls[bl->routine - p->routines.first];
			if (*c > UINT64_MAX - e->total)
				overflow = 1;
			*c += e->total;
		}
	}

	for (i = 0; i < p->blocks.count; i++) {
		const struct dcfg_block *bl = &d->blocks[p->blocks.first + i];
		uint64_t ex = p->edges.count > 0 ? execs[i] : bl->count;
		if (sample(&s->static_instrs, bl->num_instrs, 1) < 0 ||
		    sample(&s->executions, ex, 1) < 0 ||
		    sample(&s->dynamic_instrs, bl->num_instrs, ex) < 0)
			overflow = 1;
	}
	for (i = 0; i < p->routines.count; i++)
		if (sample(&s->calls, calls[i], 1) < 0)
			overflow = 1;
	for (i = 0; i < p->loops.count; i++) {
		const struct dcfg_loop *lp = &d->loops[p->loops.first + i];
		uint64_t iters = 0, n;
		for (k = 0; k < lp->back_edge_sources.count; k++) {
			a = arc_find(&arcs, arc_key(d->node_ids[lp->back_edge_sources.first + k],
			    lp->head_node_id));
			n = a < arcs.n ? arcs.sum[a] : 0;
			if (iters > UINT64_MAX - n)
				overflow = 1;
			iters += n;
		}
		if (sample(&s->iterations, iters, 1) < 0)
			overflow = 1;
	}
	free(execs);
	free(calls);
	back_arcs_free(&arcs);
	if (overflow)
		return dcfg_error_set(err, file,
		    "process %llu: a count or total does not fit in 64 bits",
		    (unsigned long long)p->pid);
	return 0;
}
