/*
 * Dominators and natural loops of a routine (spec 2.15). Immediate
 * dominators follow Cooper, Harvey and Kennedy's iterative algorithm;
 * loops are natural loops of back edges (a target that dominates its
 * source), one per head, each with the innermost loop that holds its head
 * as its parent. Every walk is iterative.
 */
#include "routine_work.h"

#include "common/vec.h"

/* Reverse postorder from the entry (an explicit stack), then Cooper-Harvey-Kennedy. */
static void
dominators(struct work *w, uint32_t r)
{
	uint32_t n_rpo = w->n_nodes, depth = 0, i, entry = w->nodes[0];
	int changed = 1;

	w->token++;
	w->stack[depth] = entry, w->stack_pos[depth++] = 0, w->stamp[entry] = w->token;
	while (depth > 0) {
		uint32_t x = w->stack[depth - 1], blk = w->blocks[x], next = NONE;
		while (w->stack_pos[depth - 1] + w->cfg->out_first[blk] < w->cfg->out_first[blk + 1]) {
			const struct dcfg_rec_edge *e = &w->g->edges[w->cfg->out_edge[w->cfg->out_first[blk] +
			    w->stack_pos[depth - 1]++]];
			uint32_t y = local_of(w, e->target);
			if (y != NONE && intra(e->kind) && w->routine[y] == r && w->stamp[y] != w->token) {
				next = y;
				break;
			}
		}
		if (next == NONE) {
			w->rpo[--n_rpo] = x;
			depth--;
			continue;
		}
		w->stamp[next] = w->token;
		w->stack[depth] = next, w->stack_pos[depth++] = 0;
	}
	for (i = 0; i < w->n_nodes; i++) {
		w->rpo_num[w->rpo[i]] = i;
		w->idom[w->rpo[i]] = NONE;
	}
	w->idom[entry] = entry;
	while (changed) {
		changed = 0;
		for (i = 1; i < w->n_nodes; i++) {
			uint32_t x = w->rpo[i], best = NONE;
			FOR_INTRA(w, x, 1, r, p, {
				uint32_t a = p, b = best;
				if (w->idom[p] == NONE)
					continue;
				while (b != NONE && a != b) {
					while (w->rpo_num[a] > w->rpo_num[b])
						a = w->idom[a];
					while (w->rpo_num[b] > w->rpo_num[a])
						b = w->idom[b];
				}
				best = a;
			});
			if (best != w->idom[x]) {
				w->idom[x] = best;
				changed = 1;
			}
		}
	}
}

/* Pre- and post-order numbers of the dominator tree: A dominates B iff B's interval is in A's. */
static void
dominator_tree(struct work *w)
{
	uint32_t i, clock = 0, depth = 0;

	for (i = 0; i < w->n_nodes; i++)
		w->child_first[w->nodes[i]] = NONE;
	for (i = w->n_nodes; i-- > 1;) {
		uint32_t x = w->rpo[i];
		w->child_next[x] = w->child_first[w->idom[x]];
		w->child_first[w->idom[x]] = x;
	}
	w->stack[depth++] = w->nodes[0];
	w->pre[w->nodes[0]] = clock++;
	while (depth > 0) {
		uint32_t x = w->stack[depth - 1], c = w->child_first[x];
		if (c == NONE) {
			w->post[x] = clock++;
			depth--;
			continue;
		}
		w->child_first[x] = w->child_next[c];   /* consumed: the tree is not needed again */
		w->pre[c] = clock++;
		w->stack[depth++] = c;
	}
}

static int
by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int
dominates(const struct work *w, uint32_t a, uint32_t b)
{
	return w->pre[a] <= w->pre[b] && w->post[b] <= w->post[a];
}

/* The natural loop of head H: H and what reaches its back-edge sources without passing H. */
static int
natural_loop(struct work *w, uint32_t r, uint32_t h, size_t first_source, size_t n_sources)
{
	size_t head, k;
	struct loop *lp;

	if (dcfg_reserve((void **)&w->loops, &w->loops_cap, w->n_loops + 1, sizeof *w->loops) < 0 ||
	    dcfg_reserve((void **)&w->loop_nodes, &w->loop_nodes_cap, w->n_loop_nodes + w->n_nodes,
	    sizeof *w->loop_nodes) < 0)
		return -1;
	lp = &w->loops[w->n_loops++];
	*lp = (struct loop){ h, w->n_loop_nodes, 0, first_source, n_sources, NONE };
	w->token++;
	w->stamp[h] = w->token;
	w->loop_nodes[w->n_loop_nodes++] = h;
	for (k = 0; k < n_sources; k++)
		if (w->stamp[w->sources[first_source + k]] != w->token) {
			w->stamp[w->sources[first_source + k]] = w->token;
			w->loop_nodes[w->n_loop_nodes++] = w->sources[first_source + k];
		}
	for (head = lp->first + 1; head < w->n_loop_nodes; head++) {
		uint32_t x = w->loop_nodes[head];
		FOR_INTRA(w, x, 1, r, p, {
			if (w->stamp[p] != w->token) {
				w->stamp[p] = w->token;
				w->loop_nodes[w->n_loop_nodes++] = p;
			}
		});
	}
	lp->n = w->n_loop_nodes - lp->first;
	qsort(w->loop_nodes + lp->first, lp->n, sizeof *w->loop_nodes, by_u32);
	return 0;
}

/*
 * Each loop's parent: the smallest other loop that holds its head.
 * Natural loops of different heads nest or are apart, and a loop nested in
 * another is smaller (it lacks the outer head), so taking the loops from
 * the largest down, the last one taken that holds a head is the innermost:
 * O(L log L) for the sort and the total size of the loops (nodes times
 * depth) for the rest, where comparing every pair is O(L^2).
 */
static int
set_parents(struct work *w)
{
	uint64_t *order = malloc((w->n_loops + 1) * sizeof *order);
	uint32_t *innermost = w->child_first;   /* per local; the dominator tree is consumed */
	size_t i, k;

	if (order == NULL)
		return -1;
	for (i = 0; i < w->n_nodes; i++)
		innermost[w->nodes[i]] = NONE;
	for (i = 0; i < w->n_loops; i++)   /* by size, largest first; then by index */
		order[i] = (uint64_t)(w->n_nodes - w->loops[i].n) << 32 | i;
	qsort(order, w->n_loops, sizeof *order, by_u64);
	for (i = 0; i < w->n_loops; i++) {
		uint32_t l = (uint32_t)order[i];
		struct loop *lp = &w->loops[l];
		lp->parent = innermost[lp->head];
		for (k = 0; k < lp->n; k++)
			innermost[w->loop_nodes[lp->first + k]] = l;
	}
	free(order);
	return 0;
}

/* Back edges (an intra-routine edge to a node that dominates its source), merged per head. */
static int
find_loops(struct work *w, uint32_t r)
{
	uint32_t i;

	w->n_loops = w->n_loop_nodes = w->n_sources = 0;
	for (i = 0; i < w->n_nodes; i++) {
		uint32_t h = w->nodes[i];
		size_t first = w->n_sources, n;
		int failed = 0;
		FOR_INTRA(w, h, 1, r, p, {
			if (!dominates(w, h, p))
				continue;
			if (dcfg_reserve((void **)&w->sources, &w->sources_cap, w->n_sources + 1,
			    sizeof *w->sources) < 0) {
				failed = 1;
				break;
			}
			w->sources[w->n_sources++] = p;
		});
		if (failed)
			return -1;
		if ((n = w->n_sources - first) == 0)
			continue;
		w->n_sources = first + sort_unique(w->sources + first, n);
		if (natural_loop(w, r, h, first, w->n_sources - first) < 0)
			return -1;
	}
	return set_parents(w);
}

void
rec_dominators(struct work *w, uint32_t r)
{
	dominators(w, r);
	dominator_tree(w);
}

int
rec_find_loops(struct work *w, uint32_t r)
{
	return find_loops(w, r);
}
