/*
 * dcfg-convert --to dot --routine/--node: one routine's blocks, its loops
 * as nested clusters (by the DCFG's LOOPS, cycles of parents cut), and a
 * cluster around the routine when several are drawn. dot_cfg.c chooses the
 * routines and draws the edges. The exact text is described in
 * dcfg-convert(1).
 */
#include <stdlib.h>
#include <string.h>

#include "dot.h"

/* ---- one routine, its blocks in its loops ---- */

#define TOP UINT32_MAX        /* the top level, as a "loop" */

struct cfg {
	const struct dcfg_profile *pf;
	const struct dcfg_profile_func *f;
	uint32_t fi;              /* f's index in pf->funcs */
	struct dcfg_output *out;
	uint64_t min;
	uint32_t n;               /* the function's blocks */
	const uint32_t *pos;      /* per process block: its position in its function (shared) */
	uint32_t nl;              /* loops that count */
	const struct dcfg_loop **loops;   /* by LOOPS order */
	uint32_t *head;           /* per loop: its head's position */
	uint32_t *parent;         /* per loop: a loop, or TOP */
	uint32_t *depth;
	uint32_t *inner;          /* per position: its innermost loop, or TOP */
	unsigned char *full;      /* per loop: holds a written block, itself or nested */
	uint32_t *child_first, *children;     /* per loop + top: its child loops by head position */
	uint32_t *own_first, *own;            /* per loop + top: its own blocks by position */
	uint32_t *loop_at;        /* per position: the loop it heads, or TOP */
	uint32_t *stack, *next;
};

static void
cfg_free(struct cfg *g)
{
	free(g->loops);
	free(g->head);
	free(g->parent);
	free(g->depth);
	free(g->inner);
	free(g->full);
	free(g->child_first);
	free(g->children);
	free(g->own_first);
	free(g->own);
	free(g->loop_at);
	free(g->stack);
	free(g->next);
}

static uint32_t
position(const struct cfg *g, uint32_t node_id)
{
	uint32_t b = dcfg_profile_block_of(g->pf, node_id);

	return b == DCFG_NONE || g->pf->block_func[b] != g->fi ? DCFG_NONE : g->pos[b];
}

static int
block_written(const struct cfg *g, uint32_t at)
{
	return g->pf->exec[g->pf->blocks[g->f->first + at]] >= g->min;
}

/* Parents with cycles cut, and depths; an explicit stack, no recursion. */
static void
nest_loops(struct cfg *g)
{
	uint32_t i, l, top, q;
	unsigned char *state = g->full;     /* borrowed: 0 new, 1 on the walk, 2 placed */

	memset(state, 0, g->nl);
	for (i = 0; i < g->nl; i++) {
		if (state[i])
			continue;
		top = 0;
		for (l = i; l != TOP && state[l] == 0; l = g->parent[l]) {
			state[l] = 1;
			g->stack[top++] = l;
		}
		if (l != TOP && state[l] == 1)
			g->parent[g->stack[top - 1]] = TOP;    /* the link closing a cycle */
		while (top > 0) {
			q = g->stack[--top];
			g->depth[q] = g->parent[q] == TOP ? 0 : g->depth[g->parent[q]] + 1;
			state[q] = 2;
		}
	}
}

/*
 * Items grouped by key (counting sort, stable): item i (ITEM_AT[i], or i when
 * ITEM_AT is NULL; TOP: none) goes to group KEY_OF[item] of 0..groups.
 */
static void
group(uint32_t *first, uint32_t *items, uint32_t groups, uint32_t n,
    const uint32_t *item_at, const uint32_t *key_of)
{
	uint32_t i, k, item;

	memset(first, 0, ((size_t)groups + 3) * sizeof *first);
	for (i = 0; i < n; i++)
		if ((item = item_at ? item_at[i] : i) != TOP)
			first[key_of[item] + 2]++;
	for (k = 0; k <= groups; k++)
		first[k + 2] += first[k + 1];
	for (i = 0; i < n; i++)
		if ((item = item_at ? item_at[i] : i) != TOP)
			items[first[key_of[item] + 1]++] = item;
}

/* Room for NRL loops and the function's blocks. -1: out of memory. */
static int
cfg_alloc(struct cfg *g, size_t nrl)
{
	g->loops = malloc((nrl + 1) * sizeof *g->loops);
	g->head = malloc((nrl + 1) * sizeof *g->head);
	g->parent = malloc((nrl + 1) * sizeof *g->parent);
	g->depth = malloc((nrl + 1) * sizeof *g->depth);
	g->full = malloc(nrl + 1);
	g->stack = malloc((nrl + 2) * sizeof *g->stack);
	g->next = malloc((nrl + 2) * sizeof *g->next);
	g->child_first = malloc((nrl + 3) * sizeof *g->child_first);
	g->children = malloc((nrl + 1) * sizeof *g->children);
	g->inner = malloc(((size_t)g->n + 1) * sizeof *g->inner);
	g->loop_at = malloc(((size_t)g->n + 1) * sizeof *g->loop_at);
	g->own_first = malloc((nrl + 3) * sizeof *g->own_first);
	g->own = malloc(((size_t)g->n + 1) * sizeof *g->own);
	if (!g->loops || !g->head || !g->parent || !g->depth || !g->full ||
	    !g->stack || !g->next || !g->child_first || !g->children || !g->inner ||
	    !g->loop_at || !g->own_first || !g->own)
		return -1;
	return 0;
}

static int
build_cfg(struct cfg *g)
{
	const struct dcfg_profile *pf = g->pf;
	const struct dcfg *d = pf->d;
	const struct dcfg_loop *rl = NULL;
	size_t nrl = 0, i, k;
	uint32_t l, at, *key;

	if (g->f->routine != DCFG_NONE)
		rl = dcfg_routine_loops(d, &d->routines[g->f->routine], &nrl);
	if (nrl > UINT32_MAX - 2)
		nrl = UINT32_MAX - 2;
	if (cfg_alloc(g, nrl) < 0)
		return -1;
	for (at = 0; at < g->n; at++) {
		g->inner[at] = TOP;
		g->loop_at[at] = TOP;
	}

	/* The loops that count: a head among the blocks, the first row per head. */
	for (i = 0, g->nl = 0; i < nrl; i++) {
		at = position(g, rl[i].head_node_id);
		if (at == DCFG_NONE || g->loop_at[at] != TOP)
			continue;
		g->loop_at[at] = g->nl;
		g->head[g->nl] = at;
		g->loops[g->nl++] = &rl[i];
	}
	for (l = 0; l < g->nl; l++) {
		at = g->loops[l]->parent_head_node_id == 0 ? DCFG_NONE :
		    position(g, g->loops[l]->parent_head_node_id);
		g->parent[l] = at == DCFG_NONE ? TOP : g->loop_at[at];
	}
	nest_loops(g);

	/* Each block in its innermost loop: deepest, ties the earliest row. */
	for (l = 0; l < g->nl; l++) {
		const struct dcfg_loop *lp = g->loops[l];
		for (k = 0; k <= lp->nodes.count; k++) {
			if (k == lp->nodes.count)
				at = g->head[l];
			else if (lp->nodes.first + k >= d->n_node_ids ||
			    (at = position(g, d->node_ids[lp->nodes.first + k])) == DCFG_NONE)
				continue;
			if (g->inner[at] == TOP || g->depth[l] > g->depth[g->inner[at]])
				g->inner[at] = l;
		}
	}

	/* A loop is drawn when it, or one nested in it, holds a written block. */
	memset(g->full, 0, g->nl);
	for (at = 0; at < g->n; at++)
		for (l = block_written(g, at) ? g->inner[at] : TOP; l != TOP && !g->full[l];
		    l = g->parent[l])
			g->full[l] = 1;

	/* Child loops by parent (the top level: group nl), in head order; own blocks by loop. */
	if ((key = malloc(((size_t)(g->n > g->nl ? g->n : g->nl) + 1) * sizeof *key)) == NULL)
		return -1;
	for (l = 0; l < g->nl; l++)
		key[l] = g->parent[l] == TOP ? g->nl : g->parent[l];
	group(g->child_first, g->children, g->nl, g->n, g->loop_at, key);
	for (at = 0; at < g->n; at++)
		key[at] = g->inner[at] == TOP ? g->nl : g->inner[at];
	group(g->own_first, g->own, g->nl, g->n, NULL, key);
	free(key);
	return 0;
}

static void
out_block(const struct cfg *g, uint32_t at)
{
	const struct dcfg_profile *pf = g->pf;
	uint32_t b = pf->blocks[g->f->first + at];
	const struct dcfg_block *bl = dcfg_profile_block(pf, b);
	const struct dcfg_symbol *sym;
	uint64_t off;

	if (!block_written(g, at))
		return;
	dcfg_out_char(g->out, 'n');
	dcfg_out_u64(g->out, bl->node_id);
	dcfg_out_str(g->out, " [label=\"");
	if ((sym = dcfg_symbol_at(pf->d, pf->p, bl->addr, &off)) != NULL) {
		dcfg_dot_escaped(g->out, dcfg_string(pf->d, sym->name));
		dcfg_out_char(g->out, '+');
		dcfg_out_hex(g->out, off);
	} else {
		dcfg_out_hex(g->out, bl->addr);
	}
	dcfg_dot_source(g->out, pf, bl->addr, "\\n");
	dcfg_out_str(g->out, "\\ninstrs: ");
	dcfg_out_u64(g->out, bl->num_instrs);
	dcfg_out_str(g->out, "\\nexecs: ");
	dcfg_out_u64(g->out, pf->exec[b]);
	dcfg_out_char(g->out, '"');
	/* Cannot overflow: the view checked the sum over all blocks. */
	dcfg_dot_fill(g->out, pf->exec[b] * bl->num_instrs, pf->total);
	dcfg_out_str(g->out, "];\n");
}

static void
out_own_blocks(const struct cfg *g, uint32_t group)
{
	uint32_t k;

	for (k = g->own_first[group]; k < g->own_first[group + 1]; k++)
		out_block(g, g->own[k]);
}

/* The blocks and the clusters, depth first with an explicit stack. */
static void
out_clusters(struct cfg *g)
{
	uint32_t top = 0, grp, l, node_id;
	const struct dcfg_block *head;

	out_own_blocks(g, g->nl);
	g->stack[top] = g->nl;
	g->next[top++] = g->child_first[g->nl];
	while (top > 0 && !dcfg_output_failed(g->out)) {
		grp = g->stack[top - 1];
		if (g->next[top - 1] == g->child_first[grp + 1]) {
			if (grp != g->nl)
				dcfg_out_str(g->out, "}\n");
			top--;
			continue;
		}
		l = g->children[g->next[top - 1]++];
		if (!g->full[l])
			continue;
		head = dcfg_profile_block(g->pf, g->pf->blocks[g->f->first + g->head[l]]);
		node_id = head->node_id;
		dcfg_out_str(g->out, "subgraph \"cluster_loop_");
		dcfg_out_u64(g->out, node_id);
		dcfg_out_str(g->out, "\" {\nlabel=\"loop ");
		if (dcfg_source_at(g->pf->d, g->pf->p, head->addr) != NULL)
			dcfg_dot_source(g->out, g->pf, head->addr, "");
		else
			dcfg_out_u64(g->out, node_id);
		dcfg_out_str(g->out, " (depth ");
		dcfg_out_u64(g->out, g->depth[l] + 1);
		dcfg_out_str(g->out, ")\";\n");
		out_own_blocks(g, l);
		g->stack[top] = l;
		g->next[top++] = g->child_first[l];
	}
}

int
dcfg_dot_routine_blocks(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t fi,
    const uint32_t *pos, uint64_t min, int cluster)
{
	struct cfg g = { .pf = pf, .f = &pf->funcs[fi], .fi = fi, .out = out, .min = min,
	    .pos = pos };
	uint32_t at;
	int any = 0;

	g.n = g.f->count;
	if (build_cfg(&g) < 0) {
		cfg_free(&g);
		return -1;
	}
	for (at = 0; at < g.n && !any; at++)
		any = block_written(&g, at);
	cluster = cluster && any;
	if (cluster) {
		dcfg_out_str(out, "subgraph \"cluster_routine_");
		dcfg_out_u64(out, dcfg_profile_block(pf, g.f->entry)->node_id);
		dcfg_out_str(out, "\" {\nlabel=\"");
		dcfg_dot_escaped(out, dcfg_profile_name(pf, g.f));
		dcfg_out_str(out, "\";\n");
	}
	out_clusters(&g);
	if (cluster)
		dcfg_out_str(out, "}\n");
	cfg_free(&g);
	return 0;
}
