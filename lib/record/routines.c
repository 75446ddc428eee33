/*
 * Routines and loops of a recorded image (spec 2.14, 2.15).
 *
 * A block belongs to the routine of the symbol that holds its address;
 * blocks that no symbol holds are grouped by maximal runs (in address
 * order, between symbolled blocks). A group becomes one routine or more:
 * its entry is the block at the symbol's address when that ran, else the
 * lowest block no other block of the group leads to (else the lowest);
 * the routine is what its entry reaches through intra-routine edges
 * (branches, fall-throughs, REP and the bypass edges, never calls,
 * returns or context changes) inside the group, and what it does not
 * reach starts a routine of its own, so every block is in exactly one
 * routine and reachable from its entry. Each routine's dominators and
 * natural loops are found in loops.c. Every walk is iterative, over
 * arrays sized by the image's blocks.
 */
#include "routines.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "routine_work.h"

static int
csr(const struct dcfg_rec_graph *g, uint32_t **first, uint32_t **edge, int by_target)
{
	size_t i, n = g->n_blocks;

	*first = calloc(n + 2, sizeof **first);
	*edge = malloc((g->n_edges + 1) * sizeof **edge);
	if (*first == NULL || *edge == NULL)
		return -1;
	for (i = 0; i < g->n_edges; i++) {
		uint32_t node = by_target ? g->edges[i].target : g->edges[i].source;
		if (node >= DCFG_REC_FIRST_BLOCK)
			(*first)[node - DCFG_REC_FIRST_BLOCK + 2]++;
	}
	for (i = 2; i < n + 2; i++)
		(*first)[i] += (*first)[i - 1];
	for (i = 0; i < g->n_edges; i++) {
		uint32_t node = by_target ? g->edges[i].target : g->edges[i].source;
		if (node >= DCFG_REC_FIRST_BLOCK)
			(*edge)[(*first)[node - DCFG_REC_FIRST_BLOCK + 1]++] = (uint32_t)i;
	}
	return 0;
}

struct dcfg_rec_cfg *
dcfg_rec_cfg_new(const struct dcfg_rec_graph *g, struct dcfg_error *err)
{
	struct dcfg_rec_cfg *cfg = calloc(1, sizeof *cfg);
	size_t i;

	for (i = 0; i < g->n_edges; i++)
		if (g->edges[i].source >= DCFG_REC_FIRST_BLOCK + g->n_blocks ||
		    g->edges[i].target >= DCFG_REC_FIRST_BLOCK + g->n_blocks) {
			dcfg_rec_cfg_free(cfg);
			dcfg_error_set(err, "dcfg-record", "writing the DCFG: edge %u names no node",
			    g->edges[i].id);
			return NULL;
		}
	if (cfg == NULL || (cfg->g = g, csr(g, &cfg->out_first, &cfg->out_edge, 0)) < 0 ||
	    csr(g, &cfg->in_first, &cfg->in_edge, 1) < 0 ||
	    (cfg->local = malloc((g->n_blocks + 1) * sizeof *cfg->local)) == NULL) {
		dcfg_rec_cfg_free(cfg);
		dcfg_error_set(err, "dcfg-record", "writing the DCFG: out of memory");
		return NULL;
	}
	for (i = 0; i < g->n_blocks; i++)
		cfg->local[i] = NONE;
	return cfg;
}

void
dcfg_rec_cfg_free(struct dcfg_rec_cfg *cfg)
{
	if (cfg == NULL)
		return;
	free(cfg->out_first);
	free(cfg->out_edge);
	free(cfg->in_first);
	free(cfg->in_edge);
	free(cfg->local);
	free(cfg);
}

static uint64_t
offset_of(const struct work *w, uint32_t local)
{
	const struct dcfg_rec_block *b = &w->g->blocks[w->blocks[local]];

	return b->addr - w->g->images[b->image].load;
}

/*
 * The symbol that holds OFFSET: the last that starts at or before it and
 * reaches past it (a size-0 symbol reaches to the next symbol's start),
 * looking back past a few nested ones. NONE when none holds it.
 */
static size_t
holder(const struct dcfg_rec_elfinfo *info, uint64_t offset)
{
	size_t lo = 0, hi = info->n_symbols, k, tries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (info->symbols[mid].offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo, tries = 0; k-- > 0 && tries < 16; tries++) {
		const struct dcfg_rec_symbol *s = &info->symbols[k];
		uint64_t end = s->offset + s->size;
		if (s->size == 0)   /* to the next symbol; an alias there holds the rest */
			end = k + 1 < info->n_symbols ? info->symbols[k + 1].offset : UINT64_MAX;
		if (offset < end)
			return k;
	}
	return NONE;
}

static int
by_group(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->unsymbolled != y->unsymbolled)
		return x->unsymbolled < y->unsymbolled ? -1 : 1;
	return (x->local > y->local) - (x->local < y->local);
}

static void
group_members(struct work *w, const struct dcfg_rec_elfinfo *info)
{
	size_t i;
	uint64_t run = 0;
	int in_run = 0;

	for (i = 0; i < w->n; i++) {
		uint64_t off = offset_of(w, (uint32_t)i);
		size_t s = holder(info, off);
		if (s != NONE) {
			w->members[i] = (struct member){ info->symbols[s].offset, 0, (uint32_t)i };
			in_run = 0;
		} else {
			if (!in_run)
				run = off, in_run = 1;
			w->members[i] = (struct member){ run, 1, (uint32_t)i };
		}
	}
	qsort(w->members, w->n, sizeof *w->members, by_group);
}

/* The routine R from ENTRY: what it reaches inside group [FIRST, LAST) of members, not yet taken. */
static void
take_routine(struct work *w, uint32_t entry, uint32_t r, size_t first, size_t last)
{
	size_t head = 0, k;

	w->token++;
	for (k = first; k < last; k++)
		w->stamp[w->members[k].local] = w->token;   /* the group */
	w->n_nodes = 0;
	w->nodes[w->n_nodes++] = entry;
	w->routine[entry] = r;
	while (head < w->n_nodes) {
		uint32_t x = w->nodes[head++];
		FOR_INTRA(w, x, 0, NONE, y, {
			if (w->stamp[y] == w->token) {
				w->routine[y] = r;
				w->nodes[w->n_nodes++] = y;
			}
		});
	}
}

static void
out_node(struct work *w, uint32_t local)
{
	dcfg_out_u64(w->out, w->g->blocks[w->blocks[local]].node);
}

/* [ a, b, ... ] of node ids */
static void
out_nodes(struct work *w, const uint32_t *v, size_t n)
{
	size_t i;

	dcfg_out_str(w->out, "[");
	for (i = 0; i < n; i++) {
		dcfg_out_str(w->out, i ? ", " : " ");
		out_node(w, v[i]);
	}
	dcfg_out_str(w->out, n ? " ]" : "]");
}

static void
out_line(struct work *w, const char *more, const char *text)
{
	dcfg_out_str(w->out, "\n");
	dcfg_out_str(w->out, w->indent);
	dcfg_out_str(w->out, more);
	dcfg_out_str(w->out, text);
}

static void
write_loops(struct work *w)
{
	size_t i;

	out_line(w, "    ", "[ [ \"LOOP_HEAD_NODE_ID\", \"LOOP_BACK_EDGE_SOURCE_NODE_IDS\", "
	    "\"LOOP_NODE_IDS\", \"PARENT_LOOP_HEAD_NODE_ID\" ]");
	for (i = 0; i < w->n_loops; i++) {
		const struct loop *lp = &w->loops[i];
		dcfg_out_str(w->out, ",");
		out_line(w, "      ", "[ ");
		out_node(w, lp->head);
		dcfg_out_str(w->out, ", ");
		out_nodes(w, w->sources + lp->first_source, lp->n_sources);
		dcfg_out_str(w->out, ", ");
		out_nodes(w, w->loop_nodes + lp->first, lp->n);
		if (lp->parent != NONE) {
			dcfg_out_str(w->out, ", ");
			out_node(w, w->loops[lp->parent].head);
		}
		dcfg_out_str(w->out, " ]");
	}
	out_line(w, "    ", "]");
}

/* Routine R, taken: its dominators, exits and loops, written as a row. */
static int
write_routine(struct work *w, uint32_t r)
{
	uint32_t i, n_exits = 0;

	rec_dominators(w, r);
	qsort(w->nodes + 1, w->n_nodes - 1, sizeof *w->nodes, by_u32);
	if (rec_find_loops(w, r) < 0)
		return -1;
	for (i = 0; i < w->n_nodes; i++) {
		uint32_t x = w->nodes[i], blk = w->blocks[x], e;
		for (e = w->cfg->out_first[blk]; e < w->cfg->out_first[blk + 1]; e++) {
			uint32_t y = local_of(w, w->g->edges[w->cfg->out_edge[e]].target);
			if (y == NONE || w->routine[y] != r) {
				w->exits[n_exits++] = x;
				break;
			}
		}
	}
	n_exits = (uint32_t)sort_unique(w->exits, n_exits);
	dcfg_out_str(w->out, ",");
	out_line(w, "  ", "[ ");
	out_node(w, w->nodes[0]);
	dcfg_out_str(w->out, ",");
	out_line(w, "    ", "");
	out_nodes(w, w->exits, n_exits);
	dcfg_out_str(w->out, ",");
	out_line(w, "    ", "[ [ \"NODE_ID\", \"IDOM_NODE_ID\" ]");
	qsort(w->nodes, w->n_nodes, sizeof *w->nodes, by_u32);
	for (i = 0; i < w->n_nodes; i++) {
		dcfg_out_str(w->out, ",");
		out_line(w, "      ", "[ ");
		out_node(w, w->nodes[i]);
		dcfg_out_str(w->out, ", ");
		out_node(w, w->idom[w->nodes[i]]);
		dcfg_out_str(w->out, " ]");
	}
	out_line(w, "    ", "]");
	if (w->n_loops > 0) {
		dcfg_out_str(w->out, ",");
		write_loops(w);
	}
	out_line(w, "  ", "]");
	return 0;
}

/* Takes and writes the routine from ENTRY, unless a routine already has it. */
static int
routine_from(struct work *w, uint32_t entry, size_t first, size_t last)
{
	if (w->routine[entry] != NONE)
		return 0;
	take_routine(w, entry, w->n_routines, first, last);
	return write_routine(w, w->n_routines++);
}

/*
 * The routines of group [FIRST, LAST) of members: from the block at the
 * symbol's address, then from the blocks no other block of the group leads
 * to, then from what is left, each in address order.
 */
static int
write_group(struct work *w, size_t first, size_t last)
{
	size_t k;

	w->token++;
	for (k = first; k < last; k++)
		w->stamp[w->members[k].local] = w->token;
	for (k = first; k < last; k++) {
		uint32_t x = w->members[k].local, fed = 0;
		FOR_INTRA(w, x, 1, NONE, p, {
			fed |= p != x && w->stamp[p] == w->token;
		});
		w->child_next[x] = fed;   /* scratch until the group's routines are taken */
	}
	if (!w->members[first].unsymbolled)
		for (k = first; k < last; k++)
			if (offset_of(w, w->members[k].local) == w->members[k].key &&
			    routine_from(w, w->members[k].local, first, last) < 0)
				return -1;
	for (k = first; k < last; k++)
		if (!w->child_next[w->members[k].local] &&
		    routine_from(w, w->members[k].local, first, last) < 0)
			return -1;
	for (k = first; k < last; k++)
		if (routine_from(w, w->members[k].local, first, last) < 0)
			return -1;
	return 0;
}

static void
free_work(struct work *w)
{
	uint32_t *arrays[] = { w->routine, w->nodes, w->rpo_num, w->rpo, w->idom, w->pre, w->post,
	    w->stack, w->stack_pos, w->child_first, w->child_next, w->stamp, w->exits,
	    w->loop_nodes, w->sources };
	size_t i;

	for (i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		free(arrays[i]);
	free(w->members);
	free(w->loops);
}

int
dcfg_rec_write_routines(struct dcfg_output *out, struct dcfg_rec_cfg *cfg,
    const struct dcfg_rec_graph *g, const uint32_t *blocks, size_t n,
    const struct dcfg_rec_elfinfo *info, const char *indent, struct dcfg_error *err)
{
	struct work w = { .cfg = cfg, .g = g, .blocks = blocks, .n = n, .out = out, .indent = indent };
	uint32_t **arrays[] = { &w.routine, &w.nodes, &w.rpo_num, &w.rpo, &w.idom, &w.pre, &w.post,
	    &w.stack, &w.stack_pos, &w.child_first, &w.child_next, &w.stamp, &w.exits };
	size_t i, first;
	int rc = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		if ((*arrays[i] = calloc(n, sizeof (uint32_t))) == NULL)
			rc = -1;
	if (rc < 0 || (w.members = malloc(n * sizeof *w.members)) == NULL) {
		free_work(&w);
		return dcfg_error_set(err, "dcfg-record", "writing the DCFG: out of memory");
	}
	for (i = 0; i < n; i++) {
		cfg->local[blocks[i]] = (uint32_t)i;
		w.routine[i] = NONE;
	}
	group_members(&w, info);
	dcfg_out_str(out, ",\n");
	dcfg_out_str(out, indent);
	dcfg_out_str(out, "\"ROUTINES\" : [ [ \"ENTRY_NODE_ID\", \"EXIT_NODE_IDS\", \"NODES\", \"LOOPS\" ]");
	for (first = 0; first < n && rc == 0; first = i) {
		for (i = first + 1; i < n && w.members[i].key == w.members[first].key &&
		    w.members[i].unsymbolled == w.members[first].unsymbolled; i++)
			;
		rc = write_group(&w, first, i);
	}
	out_line(&w, "", "]");
	for (i = 0; i < n; i++)
		cfg->local[blocks[i]] = NONE;
	free_work(&w);
	if (rc < 0)
		return dcfg_error_set(err, "dcfg-record", "writing the DCFG: out of memory");
	return 0;
}
