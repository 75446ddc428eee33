#include "summary.h"

#include <stdlib.h>
#include <string.h>

/*
 * The edges from a loop's back-edge sources to its head, summed by
 * (source, target) pair: only the pairs the loops ask for are held, not
 * a sorted copy of every edge.
 */
struct back_arcs {
	uint64_t *key;     /* source << 32 | target, unique */
	uint64_t *sum;     /* the edges' totals for each key */
	size_t n;
	uint32_t *slot;    /* open addressing: 1 + the key's index, 0 when empty */
	size_t mask;       /* slots - 1, a power of 2 minus 1 */
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

static size_t
arc_hash(const struct back_arcs *arcs, uint64_t key)
{
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & arcs->mask;
}

/* The index of KEY in the arcs, or ARCS->n when it is not there: every edge asks. */
static size_t
arc_find(const struct back_arcs *arcs, uint64_t key)
{
	size_t h = arc_hash(arcs, key);

	for (; arcs->slot[h] != 0; h = (h + 1) & arcs->mask)
		if (arcs->key[arcs->slot[h] - 1] == key)
			return arcs->slot[h] - 1;
	return arcs->n;
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
	/* At most half full, so that a probe ends soon. */
	for (arcs->mask = 1; arcs->mask < 2 * m; arcs->mask *= 2)
		;
	if ((arcs->slot = calloc(arcs->mask, sizeof *arcs->slot)) == NULL)
		return -1;
	arcs->mask--;
	for (i = 0; i < m; i++) {
		size_t h = arc_hash(arcs, arcs->key[i]);
		while (arcs->slot[h] != 0)
			h = (h + 1) & arcs->mask;
		arcs->slot[h] = (uint32_t)(i + 1);
	}
	return 0;
}

static void
back_arcs_free(struct back_arcs *arcs)
{
	free(arcs->key);
	free(arcs->sum);
	free(arcs->slot);
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
		if ((a = arc_find(&arcs, arc_key(e->source, e->target))) < arcs.n) {
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
