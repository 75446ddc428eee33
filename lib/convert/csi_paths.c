/*
 * A routine's graph for dcfg-convert --to csi, and the Ball-Larus
 * numbering of its acyclic paths, so that every ENTRY-to-EXIT path gets a
 * distinct sum. Searches use explicit stacks: the depth of a graph is the
 * input's.
 *
 * Ball-Larus needs an ENTRY that nothing enters (a back edge into it would
 * need the dummy edge ENTRY->ENTRY, a cycle), and a dummy edge ENTRY->h of
 * its own for every back edge, even for several into one head: a routine
 * whose entry block has edges into it gets a synthetic ENTRY block in front.
 */
#include "csi.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/* Control flow inside a routine: branches, fall-through and bypasses. */
static int
intra_kind(enum dcfg_edge_kind k)
{
	return dcfg_edge_kind_is_branch(k) || dcfg_edge_kind_is_bypass(k);
}

static int
by_id(const void *a, const void *b)
{
	const struct csi_node *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

static int
by_ends(const void *a, const void *b)
{
	const struct csi_edge *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return x->eid < y->eid ? -1 : x->eid > y->eid;
}

static int
by_head(const void *a, const void *b)
{
	const struct csi_dummy *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->u < y->u ? -1 : x->u > y->u;
}

static int
by_pair(const void *a, const void *b)
{
	const struct csi_pair *x = a, *y = b;

	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	return x->h < y->h ? -1 : x->h > y->h;
}

/* The edges of each node: first[v]..first[v+1] in s->edges (sorted by source). */
static void
index_edges(struct csi *s)
{
	uint32_t v, k = 0;

	for (v = 0; v < s->n_nodes; v++) {
		s->first[v] = k;
		while (k < s->n_edges && s->edges[k].src == v)
			k++;
	}
	s->first[s->n_nodes] = k;
}

static uint32_t
local_of(const struct csi *s, uint32_t node_id)
{
	uint32_t b = dcfg_profile_block_of(s->pf, node_id);

	return b == DCFG_NONE ? DCFG_NONE : s->loc[b];
}

/*
 * The routine's blocks in id order, and its EXIT: the one exit node when
 * it qualifies, else a virtual block with the first id free after the
 * entry's, put in its place in id order.
 */
static void
collect_nodes(struct csi *s, uint32_t fi)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg *d = pf->d;
	const struct dcfg_profile_func *f = &pf->funcs[fi];
	const struct dcfg_routine *r = &d->routines[f->routine];
	uint32_t n = f->count, u, k, t, i, n_exits = 0, last_exit = DCFG_NONE, j;
	uint64_t cand;

	for (u = 0; u < n; u++) {
		uint32_t b = pf->blocks[f->first + u];
		s->nodes[u] = (struct csi_node){ .id = dcfg_profile_block(pf, b)->node_id, .block = b };
	}
	if (n > 1)
		qsort(s->nodes, n, sizeof *s->nodes, by_id);
	for (u = 0; u < n; u++)
		s->loc[s->nodes[u].block] = u;
	s->n_nodes = n;
	s->entry = s->loc[f->entry];

	for (u = 0; u < n; u++) {
		uint32_t b = s->nodes[u].block;
		for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
			const struct dcfg_edge *e = &d->edges[pf->p->edges.first + pf->out_edges[k]];
			if (intra_kind(e->kind) && (t = dcfg_profile_block_of(pf, e->target)) != DCFG_NONE &&
			    s->loc[t] != DCFG_NONE) {
				s->nodes[u].flags |= CSI_HAS_OUT;
				break;
			}
		}
	}
	for (i = 0; i < r->exits.count; i++) {
		u = local_of(s, d->node_ids[r->exits.first + i]);
		if (u != DCFG_NONE && !(s->nodes[u].flags & CSI_EXIT_NODE)) {
			s->nodes[u].flags |= CSI_EXIT_NODE;
			n_exits++;
			last_exit = u;
		}
	}
	if (n_exits == 1 && last_exit != s->entry && !(s->nodes[last_exit].flags & CSI_HAS_OUT)) {
		s->exit = last_exit;
		return;
	}
	/* The smallest id above the entry's that no block has (ids are sorted). */
	cand = s->nodes[s->entry].id + 1;
	for (j = s->entry + 1; j < n && s->nodes[j].id <= cand; j++)
		if (s->nodes[j].id == cand)
			cand++;
	memmove(&s->nodes[j + 1], &s->nodes[j], (n - j) * sizeof *s->nodes);
	s->nodes[j] = (struct csi_node){ .id = cand, .block = DCFG_NONE };
	for (u = j + 1; u <= n; u++)
		s->loc[s->nodes[u].block] = u;
	s->n_nodes = n + 1;
	s->exit = j;
}

/* The intra edges, and the edges to EXIT; sorted, indexed. */
static void
collect_edges(struct csi *s)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg *d = pf->d;
	uint32_t u, k, t, m = 0;
	int virtual_exit = s->nodes[s->exit].block == DCFG_NONE;

	for (u = 0; u < s->n_nodes; u++) {
		uint32_t b = s->nodes[u].block;
		if (b == DCFG_NONE)
			continue;
		for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
			const struct dcfg_edge *e = &d->edges[pf->p->edges.first + pf->out_edges[k]];
			if (!intra_kind(e->kind) || (t = dcfg_profile_block_of(pf, e->target)) == DCFG_NONE ||
			    s->loc[t] == DCFG_NONE)
				continue;
			s->edges[m++] = (struct csi_edge){ .eid = e->id, .src = u, .dst = s->loc[t] };
		}
	}
	for (u = 0; u < s->n_nodes; u++) {
		if (u == s->exit)
			continue;
		if ((virtual_exit && (s->nodes[u].flags & CSI_EXIT_NODE)) ||
		    !(s->nodes[u].flags & CSI_HAS_OUT))
			s->edges[m++] = (struct csi_edge){ .eid = CSI_SYNTHETIC, .src = u, .dst = s->exit };
	}
	/*
	 * An entry block with edges into it (a loop headed there, a jump back
	 * to it) is put behind a synthetic ENTRY, the id above the largest
	 * (which sorts it, and its one edge, last).
	 */
	for (k = 0; k < m && s->edges[k].dst != s->entry; k++)
		;
	if (k < m) {
		u = s->n_nodes++;
		s->nodes[u] = (struct csi_node){ .id = s->nodes[u - 1].id + 1, .block = DCFG_NONE };
		s->edges[m++] = (struct csi_edge){ .eid = CSI_SYNTHETIC, .src = u, .dst = s->entry };
		s->entry = u;
	}
	s->n_edges = m;
	if (m > 1)
		qsort(s->edges, m, sizeof *s->edges, by_ends);
	index_edges(s);
}

/*
 * The back edges the routine's LOOPS declare: a merge of sorted (source,
 * head) pairs. A head that is the EXIT block closes no cycle (EXIT has no
 * edge out): its edges stay forward, so every path still ends in a -1 block.
 */
static int
loop_back_edges(struct csi *s, uint32_t fi)
{
	const struct dcfg *d = s->pf->d;
	const struct dcfg_routine *r = &d->routines[s->pf->funcs[fi].routine];
	const struct dcfg_loop *loops;
	size_t n_loops, l, n = 0, i, j;
	uint32_t h, u, k, end;

	loops = dcfg_routine_loops(d, r, &n_loops);
	for (l = 0; l < n_loops; l++) {
		const struct dcfg_loop *lp = &loops[l];
		if ((h = local_of(s, lp->head_node_id)) == DCFG_NONE || h == s->exit)
			continue;
		for (j = 0; j < lp->back_edge_sources.count; j++) {
			u = local_of(s, d->node_ids[lp->back_edge_sources.first + j]);
			if (u == DCFG_NONE)
				continue;
			if (dcfg_reserve((void **)&s->pairs, &s->cap_pairs, n + 1, sizeof *s->pairs) < 0)
				return -1;
			s->pairs[n++] = (struct csi_pair){ u, h };
		}
	}
	if (n > 1)
		qsort(s->pairs, n, sizeof *s->pairs, by_pair);
	for (i = 0; i < n; ) {
		u = s->pairs[i].u;
		k = s->first[u];
		end = s->first[u + 1];
		for (; i < n && s->pairs[i].u == u; i++) {
			h = s->pairs[i].h;
			if (i > 0 && s->pairs[i - 1].u == u && s->pairs[i - 1].h == h)
				continue;   /* listed twice: marked already */
			while (k < end && s->edges[k].dst < h)
				k++;
			for (j = k; j < end && s->edges[j].dst == h; j++)
				s->edges[j].back = 1;
		}
	}
	return 0;
}

/*
 * Every edge that still closes a cycle: the retreating edges of a
 * depth-first search from the entry, then from each node not yet seen.
 */
static void
retreating_edges(struct csi *s)
{
	struct csi_node *nd = s->nodes;
	uint32_t i, root, sp, v, k, w;

	for (i = 0; i < s->n_nodes; i++)
		nd[i].state = 0;
	for (i = 0; i <= s->n_nodes; i++) {
		root = i == 0 ? s->entry : i - 1;
		if (nd[root].state)
			continue;
		sp = 0;
		nd[root].state = 1;
		s->stack[sp++] = (struct csi_frame){ root, s->first[root] };
		while (sp) {
			struct csi_frame *fr = &s->stack[sp - 1];
			v = fr->v;
			if (fr->pos == s->first[v + 1]) {
				nd[v].state = 2;
				sp--;
				continue;
			}
			k = fr->pos++;
			if (s->edges[k].back)
				continue;
			w = s->edges[k].dst;
			if (nd[w].state == 1) {
				s->edges[k].back = 1;
			} else if (nd[w].state == 0) {
				nd[w].state = 1;
				s->stack[sp++] = (struct csi_frame){ w, s->first[w] };
			}
		}
	}
}

/*
 * Extra blocks: a back edge, or an edge to EXIT, out of a node with other
 * edges goes through a new node of its own. The new nodes take the ids
 * after the largest, in the order their edges come; the edge list stays
 * sorted (the new nodes sort last).
 */
static void
split_edges(struct csi *s)
{
	uint32_t u, k, m = 0, t = 0, n_split = 0, x = s->n_nodes;
	uint64_t next_id = s->nodes[s->n_nodes - 1].id + 1;
	struct csi_edge *tmp;
	size_t cap;

#define SPLIT(k, deg) ((deg) > 1 && (s->edges[k].back || s->edges[k].dst == s->exit))
	for (u = 0; u < s->n_nodes; u++)
		for (k = s->first[u]; k < s->first[u + 1]; k++)
			n_split += SPLIT(k, s->first[u + 1] - s->first[u]);
	if (n_split == 0)
		return;
	for (u = 0; u < s->n_nodes; u++) {
		uint32_t deg = s->first[u + 1] - s->first[u];
		for (k = s->first[u]; k < s->first[u + 1]; k++)
			if (!SPLIT(k, deg))
				s->edges2[m++] = s->edges[k];
		for (k = s->first[u]; k < s->first[u + 1]; k++) {
			if (!SPLIT(k, deg))
				continue;
			s->nodes[x] = (struct csi_node){ .id = next_id++, .block = DCFG_NONE };
			s->edges2[m++] = (struct csi_edge){ .eid = CSI_SYNTHETIC, .src = u, .dst = x };
			s->edges2[s->n_edges + t++] = (struct csi_edge){ .eid = s->edges[k].eid, .src = x,
			    .dst = s->edges[k].dst, .back = s->edges[k].back };
			x++;
		}
	}
#undef SPLIT
	tmp = s->edges;
	s->edges = s->edges2;
	s->edges2 = tmp;
	cap = s->cap_edges;
	s->cap_edges = s->cap_edges2;
	s->cap_edges2 = cap;
	s->n_edges += n_split;
	s->n_nodes = x;
	index_edges(s);
}

/*
 * The dummy edges ENTRY->h, one per back edge, by head id then source id
 * (after the splits every back edge has a source of its own).
 */
static void
collect_dummies(struct csi *s)
{
	uint32_t k, n = 0;

	for (k = 0; k < s->n_edges; k++)
		if (s->edges[k].back)
			s->dummies[n++] = (struct csi_dummy){ s->edges[k].dst, s->edges[k].src, k };
	if (n > 1)
		qsort(s->dummies, n, sizeof *s->dummies, by_head);
	s->n_dummies = n;
}

/* A node whose one edge out is a back edge: its DAG edge is the dummy one to EXIT. */
static int
back_source(const struct csi *s, uint32_t v)
{
	return s->first[v + 1] - s->first[v] == 1 && s->edges[s->first[v]].back;
}

/* The DAG's successors of V, in Ball-Larus order. */
static uint32_t
n_succ(const struct csi *s, uint32_t v)
{
	uint32_t n = back_source(s, v) ? 1 : s->first[v + 1] - s->first[v];

	return v == s->entry ? n + s->n_dummies : n;
}

static uint32_t
succ(const struct csi *s, uint32_t v, uint32_t i)
{
	uint32_t n;

	if (back_source(s, v)) {
		if (i == 0)
			return s->exit;
		return s->dummies[i - 1].h;
	}
	n = s->first[v + 1] - s->first[v];
	return i < n ? s->edges[s->first[v] + i].dst : s->dummies[i - n].h;
}

/*
 * NumPaths(V) from its successors', and the Val of each of its DAG edges;
 * a back edge is written with the Val of its dummy edge from the entry.
 * 1: overflow.
 */
static int
number(struct csi *s, uint32_t v)
{
	struct csi_node *nd = s->nodes;
	uint64_t sum = 0;
	uint32_t k, i;
	int over = 0;

	if (v == s->exit) {
		nd[v].paths = 1;
		return 0;
	}
	if (back_source(s, v)) {
		sum = nd[s->exit].paths;
	} else {
		for (k = s->first[v]; k < s->first[v + 1]; k++) {
			s->edges[k].val = sum;
			over |= __builtin_add_overflow(sum, nd[s->edges[k].dst].paths, &sum);
		}
	}
	if (v == s->entry)
		for (i = 0; i < s->n_dummies; i++) {
			s->edges[s->dummies[i].k].val = sum;
			over |= __builtin_add_overflow(sum, nd[s->dummies[i].h].paths, &sum);
		}
	nd[v].paths = sum;
	return over;
}

/* Ball-Larus on the DAG, in reverse topological order. 0; 1: too many paths; -1: a cycle. */
static int
ball_larus(struct csi *s)
{
	struct csi_node *nd = s->nodes;
	uint32_t i, sp, v, w;
	int over = 0;

	for (i = 0; i < s->n_nodes; i++)
		nd[i].state = 0;
	for (i = 0; i < s->n_nodes; i++) {
		if (nd[i].state)
			continue;
		sp = 0;
		nd[i].state = 1;
		s->stack[sp++] = (struct csi_frame){ i, 0 };
		while (sp) {
			struct csi_frame *fr = &s->stack[sp - 1];
			v = fr->v;
			if (fr->pos == n_succ(s, v)) {
				over |= number(s, v);
				nd[v].state = 2;
				sp--;
				continue;
			}
			w = succ(s, v, fr->pos++);
			if (nd[w].state == 1)
				return -1;
			if (nd[w].state == 0) {
				nd[w].state = 1;
				s->stack[sp++] = (struct csi_frame){ w, 0 };
			}
		}
	}
	return over;
}

int
dcfg_csi_paths(struct csi *s, uint32_t fi)
{
	int rc;

	collect_nodes(s, fi);
	collect_edges(s);
	if (loop_back_edges(s, fi) < 0)
		return -1;
	retreating_edges(s);
	split_edges(s);
	collect_dummies(s);
	rc = ball_larus(s);
	return rc < 0 ? -2 : rc;
}
