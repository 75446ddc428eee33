#include "gprof.h"

#include <stdlib.h>
#include <string.h>

/* A call edge of the view: executed, into a block (so into a function). */
static uint32_t
callee(const struct dcfg_profile *pf, uint32_t e)
{
	const struct dcfg_edge *edge = &pf->d->edges[pf->p->edges.first + e];
	uint32_t b;

	if (pf->role[e] != DCFG_ROLE_CALL || pf->count[e] == 0 ||
	    (b = dcfg_profile_block_of(pf, edge->target)) == DCFG_NONE)
		return DCFG_NONE;
	return dcfg_profile_callee(pf, b);
}

static uint32_t
caller(const struct dcfg_profile *pf, uint32_t e)
{
	uint32_t b = dcfg_profile_block_of(pf, pf->d->edges[pf->p->edges.first + e].source);

	return b == DCFG_NONE ? DCFG_NONE : pf->block_func[b];
}

struct graph {
	uint32_t *first, *arcs;         /* each function's call edges, CSR */
	uint32_t *comp;                 /* its component, callees first */
	uint32_t n_comps;
	uint32_t *in_first, *in_arcs;   /* each component's calls from outside it, CSR */
};

/*
 * Tarjan's strongly connected components, with an explicit stack: a deep
 * call chain in the input must not become deep recursion here. Components
 * come out callees first.
 */
static int
components(const struct dcfg_profile *pf, struct graph *g)
{
	size_t nf = pf->n_funcs;
	uint32_t *index = malloc((nf + 1) * sizeof *index), *low = malloc((nf + 1) * sizeof *low);
	uint32_t *stack = malloc((nf + 1) * sizeof *stack), *walk = malloc((nf + 1) * sizeof *walk);
	uint32_t *pos = malloc((nf + 1) * sizeof *pos);
	uint8_t *on = calloc(nf + 1, 1);
	uint32_t next = 0, sp = 0, wp, v, w, root;
	int rc = -1;

	if (!index || !low || !stack || !walk || !pos || !on)
		goto out;
	for (v = 0; v < nf; v++)
		index[v] = DCFG_NONE;
	g->n_comps = 0;
	for (root = 0; root < nf; root++) {
		if (index[root] != DCFG_NONE)
			continue;
		wp = 0;
		walk[wp++] = root;
		index[root] = low[root] = next++;
		pos[root] = g->first[root];
		stack[sp++] = root;
		on[root] = 1;
		while (wp) {
			v = walk[wp - 1];
			if (pos[v] < g->first[v + 1]) {
				w = callee(pf, g->arcs[pos[v]++]);
				if (index[w] == DCFG_NONE) {
					index[w] = low[w] = next++;
					pos[w] = g->first[w];
					stack[sp++] = w;
					on[w] = 1;
					walk[wp++] = w;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			wp--;
			if (wp && low[v] < low[walk[wp - 1]])
				low[walk[wp - 1]] = low[v];
			if (low[v] == index[v]) {
				do {
					w = stack[--sp];
					on[w] = 0;
					g->comp[w] = g->n_comps;
				} while (w != v);
				g->n_comps++;
			}
		}
	}
	rc = 0;
out:
	free(index);
	free(low);
	free(stack);
	free(walk);
	free(pos);
	free(on);
	return rc;
}

/* Each function's call edges (g->first, g->arcs), and their components. -1: out of memory. */
static int
call_arcs(const struct dcfg_profile *pf, struct graph *g)
{
	size_t nf = pf->n_funcs;
	uint32_t ne = pf->p->edges.count, e, f;

	g->first = calloc(nf + 2, sizeof *g->first);
	g->arcs = malloc(((size_t)ne + 1) * sizeof *g->arcs);
	g->comp = malloc((nf + 1) * sizeof *g->comp);
	if (!g->first || !g->arcs || !g->comp)
		return -1;
	for (e = 0; e < ne; e++)
		if (callee(pf, e) != DCFG_NONE && (f = caller(pf, e)) != DCFG_NONE)
			g->first[f + 2]++;
	for (f = 0; f < nf; f++)
		g->first[f + 2] += g->first[f + 1];
	for (e = 0; e < ne; e++)
		if (callee(pf, e) != DCFG_NONE && (f = caller(pf, e)) != DCFG_NONE)
			g->arcs[g->first[f + 1]++] = e;
	return components(pf, g);
}

/* The calls into each component from outside it, in EDGES order. -1: out of memory. */
static int
calls_in(const struct dcfg_profile *pf, struct graph *g)
{
	uint32_t ne = pf->p->edges.count, e, f, k, c;

	g->in_first = calloc((size_t)g->n_comps + 2, sizeof *g->in_first);
	g->in_arcs = malloc(((size_t)ne + 1) * sizeof *g->in_arcs);
	if (!g->in_first || !g->in_arcs)
		return -1;
	for (k = 0; k < g->first[pf->n_funcs]; k++) {
		e = g->arcs[k];
		if (g->comp[caller(pf, e)] != g->comp[callee(pf, e)])
			g->in_first[g->comp[callee(pf, e)] + 2]++;
	}
	for (c = 0; c < g->n_comps; c++)
		g->in_first[c + 2] += g->in_first[c + 1];
	for (e = 0; e < ne; e++)
		if (callee(pf, e) != DCFG_NONE && (f = caller(pf, e)) != DCFG_NONE &&
		    g->comp[f] != g->comp[callee(pf, e)])
			g->in_arcs[g->in_first[g->comp[callee(pf, e)] + 1]++] = e;
	return 0;
}

/* Each component's own instructions, in TOTAL. */
static void
own_costs(const struct dcfg_profile *pf, const struct graph *g, uint64_t *total)
{
	uint32_t f, k;

	for (f = 0; f < pf->n_funcs; f++) {
		const struct dcfg_profile_func *fn = &pf->funcs[f];
		if (pf->fold) {
			total[g->comp[f]] += dcfg_profile_self(pf, f);
			continue;
		}
		for (k = 0; k < fn->count; k++) {
			uint32_t b = pf->blocks[fn->first + k];
			total[g->comp[f]] += pf->exec[b] * dcfg_profile_block(pf, b)->num_instrs;
		}
	}
}

/*
 * Callees first: a component's total is complete (its own costs and
 * its calls out, already shared) before it is shared among its callers.
 */
static void
share_costs(struct dcfg_profile *pf, const struct graph *g, uint64_t *total)
{
	uint32_t c, k, e;

	for (c = 0; c < g->n_comps; c++) {
		unsigned __int128 n = 0, cum = 0, before = 0, now;
		unsigned shift = 0;
		for (k = g->in_first[c]; k < g->in_first[c + 1]; k++)
			n += pf->count[g->in_arcs[k]];
		/* Counts summing past 2^64 are scaled down, so the product fits. */
		while ((n >> shift) > UINT64_MAX)
			shift++;
		for (k = g->in_first[c]; k < g->in_first[c + 1]; k++) {
			e = g->in_arcs[k];
			cum += pf->count[e];
			now = (unsigned __int128)total[c] * (cum >> shift) / (n >> shift);
			pf->incl[e] = (uint64_t)(now - before);
			before = now;
			total[g->comp[caller(pf, e)]] += pf->incl[e];
		}
	}
}

int
dcfg_gprof_estimate(struct dcfg_profile *pf)
{
	struct graph g = { 0 };
	uint64_t *total = NULL;
	int rc = -1;

	memset(pf->incl, 0, ((size_t)pf->p->edges.count + 1) * sizeof *pf->incl);
	if (call_arcs(pf, &g) < 0 || calls_in(pf, &g) < 0 ||
	    (total = calloc((size_t)g.n_comps + 1, sizeof *total)) == NULL)
		goto out;
	own_costs(pf, &g, total);
	share_costs(pf, &g, total);
	rc = 0;
out:
	free(g.first);
	free(g.arcs);
	free(g.comp);
	free(g.in_first);
	free(g.in_arcs);
	free(total);
	return rc;
}
