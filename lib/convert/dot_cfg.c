/*
 * dcfg-convert --to dot --routine/--node: the chosen routines' blocks, each
 * routine's loops as nested clusters, the edges between the blocks, and a
 * stub node per other side (a routine not chosen, or a special node) and
 * direction for the edges that enter or leave them. The exact text is
 * described in dcfg-convert(1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot.h"
#include "routine_hint.h"
#include "common/json.h"

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

/*
 * The function --routine names: entry node id first, then Callgrind name,
 * as the input spells it or as the tables show it (escaped).
 */
static const struct dcfg_profile_func *
find_routine(const struct dcfg_profile *pf, const char *arg)
{
	uint64_t id;
	const char *why;
	char shown[1024];
	size_t i;

	if (dcfg_parse_c_integer(arg, strlen(arg), &id, &why) == 0 && id <= UINT32_MAX)
		for (i = 0; i < pf->n_funcs; i++)
			if (dcfg_profile_block(pf, pf->funcs[i].entry)->node_id == id)
				return &pf->funcs[i];
	for (i = 0; i < pf->n_funcs; i++)
		if (strcmp(dcfg_profile_name(pf, &pf->funcs[i]), arg) == 0 ||
		    (dcfg_escape(shown, sizeof shown, dcfg_profile_name(pf, &pf->funcs[i])) <
		    sizeof shown && strcmp(shown, arg) == 0))
			return &pf->funcs[i];
	return NULL;
}

/*
 * A name two images share is qualified (names.h): when ARG is such a bare
 * name, say which names the user may have meant.
 */
static int
no_routine(const struct dcfg_profile *pf, const struct dcfg_convert_options *o,
    const char *arg, struct dcfg_error *err)
{
	char also[160] = "", shown[160];
	size_t i, len = strlen(arg), at = 0;
	int n = 0;

	for (i = 0; i < pf->n_funcs && at < sizeof also; i++) {
		const char *name = dcfg_profile_name(pf, &pf->funcs[i]);
		if (strncmp(name, arg, len) == 0 && name[len] == '@' && strchr(name + len + 1, '@') == NULL) {
			int w;
			dcfg_escape(shown, sizeof shown, name);
			w = snprintf(also + at, sizeof also - at, "%s%s", n++ ? ", " : "", shown);
			at += w > 0 ? (size_t)w : 0;
		}
	}
	if (n == 0) {
		char hint[320];
		dcfg_routine_hint(pf, arg, hint, sizeof hint);
		return dcfg_error_set(err, o->dcfg_path, "process %" PRIu64 " has no routine %s%s",
		    pf->p->pid, arg, hint);
	}
	return dcfg_error_set(err, o->dcfg_path, "process %" PRIu64 " has no routine %s; "
	    "images share the name: %s%s", pf->p->pid, arg, also, at >= sizeof also ? "..." : "");
}

/* ---- the chosen routines and their stubs ---- */

enum { STUB_IN, STUB_OUT };   /* the order their edges are written in, per block */

/* The edges between a block of a chosen function and one other side, one direction. */
struct stub {
	uint64_t rank;            /* the block's function << 32 | its position */
	uint64_t other;           /* a function's index, or n_funcs + a node that is no block */
	uint64_t count;           /* summed */
	uint32_t block, dir;
};

struct sel {
	const struct dcfg_convert_options *o;
	const struct dcfg_profile *pf;
	struct dcfg_output *out;
	uint64_t min, max;
	unsigned char *chosen;    /* per function */
	uint32_t *pos;            /* per block: its position in its function */
	struct stub *stubs, *nodes;
	size_t n_stubs, n_nodes;
};

static int
by_stub(const void *a, const void *b)
{
	const struct stub *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->other < y->other ? -1 : x->other > y->other;
}

static int
by_stub_node(const void *a, const void *b)
{
	const struct stub *x = a, *y = b;

	if (x->other != y->other)
		return x->other < y->other ? -1 : 1;
	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

static int
written(const struct sel *s, uint32_t b)
{
	return s->pf->exec[b] >= s->min;
}

/* The functions --routine and --node name, marked in s->chosen; how many, or -1 with ERR. */
static long
choose(struct sel *s, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg_convert_options *o = s->o;
	const struct dcfg_profile_func *f;
	uint32_t b;
	size_t i;
	long n = 0;

	for (i = 0; i < o->n_routines; i++) {
		if ((f = find_routine(pf, o->routines[i])) == NULL)
			return no_routine(pf, o, o->routines[i], err);
		s->chosen[f - pf->funcs] = 1;
	}
	for (i = 0; i < o->n_nodes; i++) {
		if (o->nodes[i] > UINT32_MAX ||
		    (b = dcfg_profile_block_of(pf, (uint32_t)o->nodes[i])) == DCFG_NONE)
			return dcfg_error_set(err, o->dcfg_path, "process %" PRIu64 " has no block %"
			    PRIu64, pf->p->pid, o->nodes[i]);
		s->chosen[pf->block_func[b]] = 1;
	}
	for (i = 0; i < pf->n_funcs; i++)
		n += s->chosen[i];
	return n;
}

/* The other end of an edge, as struct stub's OTHER. */
static uint64_t
other_side(const struct dcfg_profile *pf, uint32_t node_id, uint32_t b)
{
	return b != DCFG_NONE ? pf->block_func[b] : (uint64_t)pf->n_funcs + node_id;
}

/*
 * The stubs' edges, summed per block, direction and other side, and the
 * stub nodes some drawn edge reaches. -1 with ERR.
 */
static int
collect_stubs(struct sel *s, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg_process *p = pf->p;
	size_t i, k, n = 0;

	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &pf->d->edges[p->edges.first + i];
		uint32_t sb = dcfg_profile_block_of(pf, e->source), tb = dcfg_profile_block_of(pf, e->target);
		int sin = sb != DCFG_NONE && s->chosen[pf->block_func[sb]];
		int tin = tb != DCFG_NONE && s->chosen[pf->block_func[tb]];
		struct stub *st = &s->stubs[s->n_stubs];

		if (sin == tin)
			continue;
		st->block = sin ? sb : tb;
		st->dir = sin ? STUB_OUT : STUB_IN;
		st->other = sin ? other_side(pf, e->target, tb) : other_side(pf, e->source, sb);
		st->rank = (uint64_t)pf->block_func[st->block] << 32 | s->pos[st->block];
		st->count = pf->count[i];
		s->n_stubs++;
	}
	qsort(s->stubs, s->n_stubs, sizeof *s->stubs, by_stub);
	for (i = 0; i < s->n_stubs; i = k) {
		struct stub sum = s->stubs[i];
		for (k = i + 1; k < s->n_stubs && by_stub(&s->stubs[k], &sum) == 0; k++)
			if (__builtin_add_overflow(sum.count, s->stubs[k].count, &sum.count))
				return dcfg_error_set(err, s->o->dcfg_path, "process %" PRIu64 ": the "
				    "edges of block %" PRIu32 " to one routine do not fit in 64 bits",
				    p->pid, dcfg_profile_block(pf, sum.block)->node_id);
		if (written(s, sum.block) && sum.count >= s->min) {
			s->stubs[n++] = sum;
			if (sum.count > s->max)
				s->max = sum.count;
		}
	}
	s->n_stubs = n;
	memcpy(s->nodes, s->stubs, n * sizeof *s->nodes);
	qsort(s->nodes, n, sizeof *s->nodes, by_stub_node);
	for (i = 0, s->n_nodes = 0; i < n; i++)
		if (s->n_nodes == 0 || by_stub_node(&s->nodes[s->n_nodes - 1], &s->nodes[i]) != 0)
			s->nodes[s->n_nodes++] = s->nodes[i];
	return 0;
}

/* A stub's node name: inID or outID, the other side's entry block or node. */
static void
out_stub_id(const struct sel *s, const struct stub *st)
{
	const struct dcfg_profile *pf = s->pf;

	dcfg_out_str(s->out, st->dir == STUB_IN ? "in" : "out");
	dcfg_out_u64(s->out, st->other < pf->n_funcs ?
	    dcfg_profile_block(pf, pf->funcs[st->other].entry)->node_id : st->other - pf->n_funcs);
}

static void
out_stub_nodes(const struct sel *s)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg *d = pf->d;
	size_t i;
	uint32_t sp;

	for (i = 0; i < s->n_nodes; i++) {
		const struct stub *st = &s->nodes[i];
		out_stub_id(s, st);
		dcfg_out_str(s->out, " [label=\"");
		if (st->other < pf->n_funcs)
			dcfg_dot_escaped(s->out, dcfg_profile_name(pf, &pf->funcs[st->other]));
		else if ((sp = dcfg_idmap_get(&d->special_by_id, (uint32_t)(st->other - pf->n_funcs))) !=
		    DCFG_NONE)
			dcfg_dot_escaped(s->out, dcfg_string(d, d->special_nodes[sp].name));
		else
			dcfg_out_str(s->out, "UNKNOWN");
		dcfg_out_str(s->out, "\", shape=ellipse, style=dashed];\n");
	}
}

/* The target of out_edges[K] from block B when it is drawn between two blocks, else DCFG_NONE. */
static uint32_t
block_edge(const struct sel *s, uint32_t b, uint32_t k)
{
	const struct dcfg_profile *pf = s->pf;
	uint32_t e = pf->out_edges[k], t;

	t = dcfg_profile_block_of(pf, pf->d->edges[pf->p->edges.first + e].target);
	if (t == DCFG_NONE || !s->chosen[pf->block_func[t]] || pf->count[e] < s->min ||
	    !written(s, b) || !written(s, t))
		return DCFG_NONE;
	return t;
}

/* Block to block edges, by source (chosen functions, then position), target address, id. */
static void
out_block_edges(struct sel *s, int pass)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg *d = pf->d;
	uint32_t fi, at, b, k, t, e;

	for (fi = 0; fi < pf->n_funcs && !dcfg_output_failed(s->out); fi++) {
		if (!s->chosen[fi])
			continue;
		for (at = 0; at < pf->funcs[fi].count; at++) {
			b = pf->blocks[pf->funcs[fi].first + at];
			for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
				const struct dcfg_edge *edge;
				if ((t = block_edge(s, b, k)) == DCFG_NONE)
					continue;
				e = pf->out_edges[k];
				if (pass == 0) {
					if (pf->count[e] > s->max)
						s->max = pf->count[e];
					continue;
				}
				edge = &d->edges[pf->p->edges.first + e];
				dcfg_out_char(s->out, 'n');
				dcfg_out_u64(s->out, dcfg_profile_block(pf, b)->node_id);
				dcfg_out_str(s->out, " -> n");
				dcfg_out_u64(s->out, dcfg_profile_block(pf, t)->node_id);
				dcfg_out_str(s->out, " [label=\"");
				dcfg_dot_edge_label(s->out, pf, edge, pf->count[e]);
				dcfg_dot_edge_end(s->out, pf->count[e], s->max);
			}
		}
	}
}

static void
out_stub_edges(const struct sel *s)
{
	size_t i;

	for (i = 0; i < s->n_stubs && !dcfg_output_failed(s->out); i++) {
		const struct stub *st = &s->stubs[i];
		if (st->dir == STUB_IN) {
			out_stub_id(s, st);
			dcfg_out_str(s->out, " -> n");
			dcfg_out_u64(s->out, dcfg_profile_block(s->pf, st->block)->node_id);
		} else {
			dcfg_out_char(s->out, 'n');
			dcfg_out_u64(s->out, dcfg_profile_block(s->pf, st->block)->node_id);
			dcfg_out_str(s->out, " -> ");
			out_stub_id(s, st);
		}
		dcfg_out_str(s->out, " [label=\"");
		dcfg_out_u64(s->out, st->count);
		dcfg_dot_edge_end(s->out, st->count, s->max);
	}
}

/* One function's blocks and loops; in a cluster of its own when CLUSTER and any is drawn. */
static int
out_function(const struct sel *s, uint32_t fi, int cluster)
{
	const struct dcfg_profile *pf = s->pf;
	struct cfg g = { .pf = pf, .f = &pf->funcs[fi], .fi = fi, .out = s->out, .min = s->min,
	    .pos = s->pos };
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
		dcfg_out_str(s->out, "subgraph \"cluster_routine_");
		dcfg_out_u64(s->out, dcfg_profile_block(pf, g.f->entry)->node_id);
		dcfg_out_str(s->out, "\" {\nlabel=\"");
		dcfg_dot_escaped(s->out, dcfg_profile_name(pf, g.f));
		dcfg_out_str(s->out, "\";\n");
	}
	out_clusters(&g);
	if (cluster)
		dcfg_out_str(s->out, "}\n");
	cfg_free(&g);
	return 0;
}

/* What a routine's picture means, for its legend (fixed HTML text). */
static const char cfg_legend[] =
    "box: a block: symbol+offset, source line, instructions, executions<br/>"
    "cluster: a routine, or a loop by its head's source line and depth (1: outermost)<br/>"
    "dashed ellipse: another routine, or START or END, at the other end of edges<br/>"
    "edge: its count, after a tag unless it is a branch or fall-through<br/>"
    "(jmp, ind-jmp, call, ret, bypass...: see dcfg-convert(1)); wider for more<br/>";

int
dcfg_dot_routines(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err)
{
	const struct dcfg_process *p = pf->p;
	/* Without --all-edges, what never ran is left out, as --min-count 1 would. */
	struct sel s = { .o = o, .pf = pf, .out = out,
	    .min = o->min_count == 0 && !o->all_edges ? 1 : o->min_count };
	size_t ne = (size_t)p->edges.count + 1, i, k;
	uint32_t fi, one = 0;
	long n;
	int rc = -1;

	s.chosen = calloc(pf->n_funcs + 1, 1);
	s.pos = malloc(((size_t)p->blocks.count + 1) * sizeof *s.pos);
	s.stubs = malloc(ne * sizeof *s.stubs);
	s.nodes = malloc(ne * sizeof *s.nodes);
	if (s.chosen == NULL || s.pos == NULL || s.stubs == NULL || s.nodes == NULL) {
		dcfg_error_set(err, o->dcfg_path, "out of memory");
		goto out;
	}
	if ((n = choose(&s, err)) < 0)
		goto out;
	for (i = 0; i < pf->n_funcs; i++)
		for (k = 0; k < pf->funcs[i].count; k++)
			s.pos[pf->blocks[pf->funcs[i].first + k]] = (uint32_t)k;
	if (collect_stubs(&s, err) < 0)
		goto out;
	out_block_edges(&s, 0);

	for (fi = 0; fi < pf->n_funcs && !s.chosen[fi]; fi++)
		;
	one = fi;
	/* One routine keeps the graph it always had: named after it, no cluster around it. */
	dcfg_dot_header(out, n == 1 ? dcfg_profile_name(pf, &pf->funcs[one]) : NULL, p->pid);
	dcfg_dot_title(out, pf, thread, o, n == 1 ? "the blocks of one routine, counts from the DCFG" :
	    "the blocks of the chosen routines, counts from the DCFG");
	dcfg_dot_legend(out, pf->total, "executions x instructions", cfg_legend);
	for (fi = 0; fi < pf->n_funcs && !dcfg_output_failed(out); fi++)
		if (s.chosen[fi] && out_function(&s, fi, n > 1) < 0) {
			dcfg_error_set(err, o->dcfg_path, "out of memory");
			goto out;
		}
	out_stub_nodes(&s);
	out_block_edges(&s, 1);
	out_stub_edges(&s);
	dcfg_out_str(out, "}\n");
	rc = 0;
out:
	free(s.chosen);
	free(s.pos);
	free(s.stubs);
	free(s.nodes);
	return rc;
}
