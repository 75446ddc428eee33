/*
 * Between routines.c and loops.c: the work on one image's routines. The
 * image's blocks are numbered 0, 1, ... (locals) in address order; each
 * routine is taken (routines.c), then its dominators and loops found
 * (loops.c), then written (routines.c).
 */
#ifndef DCFG_RECORD_ROUTINE_WORK_H
#define DCFG_RECORD_ROUTINE_WORK_H

#include <stdint.h>
#include <stdlib.h>

#include "common/output.h"
#include "graph.h"

#define NONE UINT32_MAX

struct dcfg_rec_cfg {
	const struct dcfg_rec_graph *g;
	uint32_t *out_first, *out_edge;   /* block B's outgoing edges: out_edge[out_first[B] ..] */
	uint32_t *in_first, *in_edge;     /* and incoming */
	uint32_t *local;                  /* per block: its index in the image being written */
};

/* One of the image's blocks, with its group. */
struct member {
	uint64_t key;                     /* the symbol's offset, or the run's first block's */
	uint32_t unsymbolled;             /* 0 for a symbol's group */
	uint32_t local;                   /* index into the image's blocks */
};

struct loop {
	uint32_t head;                    /* local */
	size_t first, n;                  /* its nodes: loop_nodes[first .. first + n), by local */
	size_t first_source, n_sources;   /* back-edge sources, in sources[] */
	uint32_t parent;                  /* index into loops, or NONE */
};

struct work {
	struct dcfg_rec_cfg *cfg;
	const struct dcfg_rec_graph *g;
	const uint32_t *blocks;
	size_t n;
	struct member *members;
	uint32_t *routine;                /* per local: the routine it is in, NONE before */
	uint32_t *nodes, n_nodes;         /* the routine being built: its locals, entry first */
	uint32_t *rpo_num, *rpo, *idom, *pre, *post;   /* per local */
	uint32_t *stack, *stack_pos, *child_first, *child_next;
	uint32_t *stamp, token;
	uint32_t *loop_nodes, *sources, *exits;
	size_t n_loop_nodes, n_sources, loop_nodes_cap, sources_cap;
	struct loop *loops;
	size_t n_loops, loops_cap;
	uint32_t n_routines;
	int first_row;
	const char *indent;
	struct dcfg_output *out;
};

static inline int
intra(enum dcfg_edge_kind kind)
{
	return dcfg_edge_kind_is_branch(kind) || kind == DCFG_EDGE_REP || dcfg_edge_kind_is_bypass(kind);
}

/* The local index of NODE if it is a block of this image, else NONE. */
static inline uint32_t
local_of(const struct work *w, uint32_t node)
{
	return node >= DCFG_REC_FIRST_BLOCK ? w->cfg->local[node - DCFG_REC_FIRST_BLOCK] : NONE;
}

static inline int
by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Sorts V[0 .. N) and drops repeats; the new length. */
static inline size_t
sort_unique(uint32_t *v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof *v, by_u32);
	for (i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* Runs the code for each intra-routine edge out of (or into, IN) LOCAL whose other end is in routine R. */
#define FOR_INTRA(w, local, in, r, other, ...) do { \
	uint32_t blk_ = (w)->blocks[local], e_; \
	const uint32_t *first_ = (in) ? (w)->cfg->in_first : (w)->cfg->out_first; \
	const uint32_t *edge_ = (in) ? (w)->cfg->in_edge : (w)->cfg->out_edge; \
	for (e_ = first_[blk_]; e_ < first_[blk_ + 1]; e_++) { \
		const struct dcfg_rec_edge *ed_ = &(w)->g->edges[edge_[e_]]; \
		uint32_t other = local_of(w, (in) ? ed_->source : ed_->target); \
		if (other == NONE || !intra(ed_->kind) || (w)->routine[other] != (r)) \
			continue; \
		__VA_ARGS__ \
	} \
} while (0)

/*
 * Routine R, taken into W->nodes (its entry first): its immediate
 * dominators (W->idom) and the pre- and post-order numbers of its
 * dominator tree (W->pre, W->post).
 */
void rec_dominators(struct work *w, uint32_t r);

/*
 * The natural loops of routine R, after rec_dominators(), into W->loops
 * (and W->loop_nodes, W->sources), each with its parent. 0, or -1 when out
 * of memory.
 */
int rec_find_loops(struct work *w, uint32_t r);

#endif
