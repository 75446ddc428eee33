/*
 * dcfg-convert --to dot: Graphviz text for the call graph of a process, or
 * for one routine's blocks with its loops as nested clusters. The exact
 * text is described in dcfg-convert(1); every count comes from the profile
 * (lib/profile), so the numbers agree with the Callgrind output.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "json.h"

/* ---- text ---- */

/* Length of the well-formed UTF-8 sequence at S (RFC 3629), 0 if none. */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* The second byte's range excludes overlong forms, surrogates and > U+10FFFF. */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)    /* also stops at the terminating NUL */
			return 0;
	return n;
}

/* S inside a DOT string: quotes, backslashes and entities kept literal. */
static void
out_escaped(struct dcfg_output *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	while (*s) {
		if (*s == '"' || *s == '\\') {
			dcfg_out_char(out, '\\');
			dcfg_out_char(out, (char)*s++);
		} else if (*s == '&') {
			dcfg_out_str(out, "&amp;");
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			dcfg_out_char(out, '?');
			s++;
		} else if (*s < 0x80) {
			dcfg_out_char(out, (char)*s++);
		} else if ((n = utf8_len(s)) > 0) {
			dcfg_out_bytes(out, s, n);
			s += n;
		} else {
			dcfg_out_char(out, '?');
			s++;
		}
	}
}

static unsigned
bit_length(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

/* 1..8 from COUNT relative to the largest count MAX, without floating point. */
static unsigned
pen_width(uint64_t count, uint64_t max)
{
	return count == 0 || max == 0 ? 1 : 1 + 7 * bit_length(count) / bit_length(max);
}

static void
out_edge_end(struct dcfg_output *out, uint64_t count, uint64_t max)
{
	dcfg_out_str(out, "\", penwidth=");
	dcfg_out_u64(out, pen_width(count, max));
	dcfg_out_str(out, "];\n");
}

static void
out_header(struct dcfg_output *out, const char *name, uint64_t pid)
{
	dcfg_out_str(out, "digraph \"");
	if (name)
		out_escaped(out, name);
	else
		dcfg_out_u64(out, pid);
	dcfg_out_str(out, "\" {\nnode [shape=box];\n");
}

/* ---- the call graph ---- */

struct call {
	uint32_t from, to;         /* functions */
	uint64_t count;
};

static int
by_pair(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

static int
call_graph(const struct dcfg_convert *c, const struct dcfg_profile *pf, struct dcfg_error *err)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	struct dcfg_output *out = c->out;
	uint64_t min = c->o->min_count, max = 0;
	size_t nf = pf->n_funcs, ncalls = 0, i, k, n;
	uint64_t *self = calloc(nf + 1, sizeof *self), *incl = calloc(nf + 1, sizeof *incl);
	unsigned char *written = calloc(nf + 1, 1);
	struct call *calls = malloc(((size_t)p->edges.count + 1) * sizeof *calls);
	int rc = -1;

	if (self == NULL || incl == NULL || written == NULL || calls == NULL) {
		dcfg_error_set(err, c->o->dcfg_path, "out of memory");
		goto out;
	}
	for (i = 0; i < nf; i++) {
		const struct dcfg_profile_func *f = &pf->funcs[i];
		uint64_t any = 0;
		for (k = 0; k < f->count; k++) {
			uint32_t b = pf->blocks[f->first + k];
			/* Cannot overflow: the view checked the sum over all blocks. */
			self[i] += pf->exec[b] * dcfg_profile_block(pf, b)->num_instrs;
			any |= pf->exec[b];
		}
		incl[i] = self[i];
		written[i] = any != 0 && pf->exec[f->entry] >= min;
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		uint32_t sb, tb;
		if (pf->role[i] != DCFG_ROLE_CALL || pf->count[i] == 0 ||
		    (sb = dcfg_profile_block_of(pf, e->source)) == DCFG_NONE ||
		    (tb = dcfg_profile_block_of(pf, e->target)) == DCFG_NONE)
			continue;
		calls[ncalls++] = (struct call){ pf->block_func[sb], pf->block_func[tb], pf->count[i] };
		if (pf->block_func[sb] != pf->block_func[tb] &&
		    __builtin_add_overflow(incl[pf->block_func[sb]], pf->incl[i],
		    &incl[pf->block_func[sb]])) {
			dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 ": the inclusive "
			    "instructions of %s do not fit in 64 bits", p->pid,
			    dcfg_profile_name(pf, &pf->funcs[pf->block_func[sb]]));
			goto out;
		}
	}
	qsort(calls, ncalls, sizeof *calls, by_pair);
	/* Merge each (caller, callee) pair into its first entry. */
	for (i = 0, n = 0; i < ncalls; i = k) {
		struct call sum = calls[i];
		for (k = i + 1; k < ncalls && calls[k].from == sum.from && calls[k].to == sum.to; k++)
			if (__builtin_add_overflow(sum.count, calls[k].count, &sum.count)) {
				dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 ": the calls "
				    "from %s to %s do not fit in 64 bits", p->pid,
				    dcfg_profile_name(pf, &pf->funcs[sum.from]),
				    dcfg_profile_name(pf, &pf->funcs[sum.to]));
				goto out;
			}
		if (written[sum.from] && written[sum.to] && sum.count >= min) {
			calls[n++] = sum;
			if (sum.count > max)
				max = sum.count;
		}
	}

	out_header(out, NULL, p->pid);
	for (i = 0; i < nf && !dcfg_output_failed(out); i++) {
		const struct dcfg_profile_func *f = &pf->funcs[i];
		if (!written[i])
			continue;
		dcfg_out_char(out, 'f');
		dcfg_out_u64(out, dcfg_profile_block(pf, f->entry)->node_id);
		dcfg_out_str(out, " [label=\"");
		out_escaped(out, dcfg_profile_name(pf, f));
		dcfg_out_str(out, "\\nself: ");
		dcfg_out_u64(out, self[i]);
		dcfg_out_str(out, "\\ninclusive: ");
		dcfg_out_u64(out, incl[i]);
		dcfg_out_str(out, "\\ninvocations: ");
		dcfg_out_u64(out, pf->exec[f->entry]);
		dcfg_out_str(out, "\"];\n");
	}
	for (i = 0; i < n && !dcfg_output_failed(out); i++) {
		dcfg_out_char(out, 'f');
		dcfg_out_u64(out, dcfg_profile_block(pf, pf->funcs[calls[i].from].entry)->node_id);
		dcfg_out_str(out, " -> f");
		dcfg_out_u64(out, dcfg_profile_block(pf, pf->funcs[calls[i].to].entry)->node_id);
		dcfg_out_str(out, " [label=\"");
		dcfg_out_u64(out, calls[i].count);
		out_edge_end(out, calls[i].count, max);
	}
	dcfg_out_str(out, "}\n");
	rc = 0;
out:
	free(self);
	free(incl);
	free(written);
	free(calls);
	return rc;
}

/* ---- one routine ---- */

#define TOP UINT32_MAX        /* the top level, as a "loop" */

struct cfg {
	const struct dcfg_profile *pf;
	const struct dcfg_profile_func *f;
	struct dcfg_output *out;
	uint64_t min;
	uint32_t n;               /* the function's blocks */
	uint32_t *pos;            /* per process block: its position in the function, or DCFG_NONE */
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
	free(g->pos);
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

	return b == DCFG_NONE ? DCFG_NONE : g->pos[b];
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
	size_t nrl = 0, nb = (size_t)pf->p->blocks.count + 1, i, k;
	uint32_t l, at, *key;

	if (g->f->routine != DCFG_NONE)
		rl = dcfg_routine_loops(d, &d->routines[g->f->routine], &nrl);
	if (nrl > UINT32_MAX - 2)
		nrl = UINT32_MAX - 2;
	g->pos = malloc(nb * sizeof *g->pos);
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
	if (!g->pos || !g->loops || !g->head || !g->parent || !g->depth || !g->full ||
	    !g->stack || !g->next || !g->child_first || !g->children || !g->inner ||
	    !g->loop_at || !g->own_first || !g->own)
		return -1;
	for (i = 0; i + 1 < nb; i++)
		g->pos[i] = DCFG_NONE;
	for (at = 0; at < g->n; at++) {
		g->pos[pf->blocks[g->f->first + at]] = at;
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
		out_escaped(g->out, dcfg_string(pf->d, sym->name));
		dcfg_out_char(g->out, '+');
		dcfg_out_hex(g->out, off);
	} else {
		dcfg_out_hex(g->out, bl->addr);
	}
	dcfg_out_str(g->out, "\\ninstrs: ");
	dcfg_out_u64(g->out, bl->num_instrs);
	dcfg_out_str(g->out, "\\nexecs: ");
	dcfg_out_u64(g->out, pf->exec[b]);
	dcfg_out_str(g->out, "\"];\n");
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
		node_id = dcfg_profile_block(g->pf, g->pf->blocks[g->f->first + g->head[l]])->node_id;
		dcfg_out_str(g->out, "subgraph \"cluster_loop_");
		dcfg_out_u64(g->out, node_id);
		dcfg_out_str(g->out, "\" {\nlabel=\"loop ");
		dcfg_out_u64(g->out, node_id);
		dcfg_out_str(g->out, "\";\n");
		out_own_blocks(g, l);
		g->stack[top] = l;
		g->next[top++] = g->child_first[l];
	}
}

/* Calls for each CFG edge of the function that is written, in order. */
static int
cfg_edge(const struct cfg *g, uint32_t at, uint32_t k, uint32_t *target)
{
	const struct dcfg_profile *pf = g->pf;
	uint32_t e = pf->out_edges[k], t;

	if (pf->role[e] != DCFG_ROLE_NONE || pf->count[e] < g->min ||
	    (t = dcfg_profile_block_of(pf, pf->d->edges[pf->p->edges.first + e].target)) == DCFG_NONE ||
	    g->pos[t] == DCFG_NONE || !block_written(g, g->pos[t]) || !block_written(g, at))
		return 0;
	*target = t;
	return 1;
}

static void
out_cfg_edges(const struct cfg *g)
{
	const struct dcfg_profile *pf = g->pf;
	const struct dcfg *d = pf->d;
	uint64_t max = 0;
	uint32_t at, k, b, t, e, ti;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (at = 0; at < g->n && !dcfg_output_failed(g->out); at++) {
			b = pf->blocks[g->f->first + at];
			for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
				const struct dcfg_edge *edge;
				if (!cfg_edge(g, at, k, &t))
					continue;
				e = pf->out_edges[k];
				if (pass == 0) {
					if (pf->count[e] > max)
						max = pf->count[e];
					continue;
				}
				edge = &d->edges[pf->p->edges.first + e];
				dcfg_out_char(g->out, 'n');
				dcfg_out_u64(g->out, dcfg_profile_block(pf, b)->node_id);
				dcfg_out_str(g->out, " -> n");
				dcfg_out_u64(g->out, dcfg_profile_block(pf, t)->node_id);
				dcfg_out_str(g->out, " [label=\"");
				ti = dcfg_idmap_get(&d->edge_type_by_id, edge->type_id);
				out_escaped(g->out, ti == DCFG_NONE ? dcfg_edge_kind_name(DCFG_EDGE_UNDEFINED) :
				    dcfg_string(d, d->edge_types[ti].name));
				dcfg_out_str(g->out, "\\n");
				dcfg_out_u64(g->out, pf->count[e]);
				out_edge_end(g->out, pf->count[e], max);
			}
		}
}

/* The function --routine names: entry node id first, then Callgrind name. */
static const struct dcfg_profile_func *
find_routine(const struct dcfg_profile *pf, const char *arg)
{
	uint64_t id;
	const char *why;
	size_t i;

	if (dcfg_parse_c_integer(arg, strlen(arg), &id, &why) == 0 && id <= UINT32_MAX)
		for (i = 0; i < pf->n_funcs; i++)
			if (dcfg_profile_block(pf, pf->funcs[i].entry)->node_id == id)
				return &pf->funcs[i];
	for (i = 0; i < pf->n_funcs; i++)
		if (strcmp(dcfg_profile_name(pf, &pf->funcs[i]), arg) == 0)
			return &pf->funcs[i];
	return NULL;
}

static int
routine_graph(const struct dcfg_convert *c, const struct dcfg_profile *pf, struct dcfg_error *err)
{
	struct cfg g = { .pf = pf, .out = c->out, .min = c->o->min_count };
	int rc = -1;

	if ((g.f = find_routine(pf, c->o->routine)) == NULL)
		return dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 " has no routine %s",
		    pf->p->pid, c->o->routine);
	g.n = g.f->count;
	if (build_cfg(&g) < 0) {
		dcfg_error_set(err, c->o->dcfg_path, "out of memory");
		goto out;
	}
	out_header(c->out, dcfg_profile_name(pf, g.f), 0);
	out_clusters(&g);
	out_cfg_edges(&g);
	dcfg_out_str(c->out, "}\n");
	rc = 0;
out:
	cfg_free(&g);
	return rc;
}

int
dcfg_convert_dot(const struct dcfg_convert *c, struct dcfg_error *err)
{
	const struct dcfg_process *p;
	struct dcfg_profile pf;
	size_t n;
	int rc;

	if ((p = dcfg_convert_processes(c, 0, &n, err)) == NULL)
		return -1;
	if (dcfg_profile_init(&pf, c->d, p, c->o->dcfg_path, err) < 0)
		return -1;
	rc = dcfg_profile_view(&pf, DCFG_ALL_THREADS, NULL, c->o->dcfg_path, err);
	if (rc == 0)
		rc = c->o->routine ? routine_graph(c, &pf, err) : call_graph(c, &pf, err);
	dcfg_profile_free(&pf);
	return rc;
}
