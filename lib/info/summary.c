#include "summary.h"

#include <stdlib.h>
#include <string.h>

struct arc {
	uint64_t key;      /* source << 32 | target */
	uint64_t count;
};

static int
by_key(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
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

/* Sum of the counts of the arcs from SOURCE to TARGET. */
static uint64_t
arc_count(const struct arc *arcs, size_t n, uint32_t source, uint32_t target,
    int *overflow)
{
	uint64_t key = (uint64_t)source << 32 | target, sum = 0;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (arcs[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && arcs[lo].key == key; lo++) {
		if (sum > UINT64_MAX - arcs[lo].count)
			*overflow = 1;
		sum += arcs[lo].count;
	}
	return sum;
}

int
dcfg_summarize(const struct dcfg *d, const struct dcfg_process *p,
    struct dcfg_summary *s, const char *file, struct dcfg_error *err)
{
	uint64_t *execs = NULL, *calls = NULL;
	struct arc *arcs = NULL;
	int overflow = 0;
	uint32_t i, k, b;

	memset(s, 0, sizeof *s);
	execs = calloc(p->blocks.count + 1, sizeof *execs);
	calls = calloc(p->routines.count + 1, sizeof *calls);
	arcs = malloc((p->edges.count + 1) * sizeof *arcs);
	if (execs == NULL || calls == NULL || arcs == NULL) {
		free(execs);
		free(calls);
		free(arcs);
		return dcfg_error_set(err, file, "out of memory");
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		arcs[i].key = (uint64_t)e->source << 32 | e->target;
		arcs[i].count = e->total;
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
	qsort(arcs, p->edges.count, sizeof *arcs, by_key);

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
			n = arc_count(arcs, p->edges.count,
			    d->node_ids[lp->back_edge_sources.first + k], lp->head_node_id,
			    &overflow);
			if (iters > UINT64_MAX - n)
				overflow = 1;
			iters += n;
		}
		if (sample(&s->iterations, iters, 1) < 0)
			overflow = 1;
	}
	free(execs);
	free(calls);
	free(arcs);
	if (overflow)
		return dcfg_error_set(err, file,
		    "process %llu: a count or total does not fit in 64 bits",
		    (unsigned long long)p->pid);
	return 0;
}
