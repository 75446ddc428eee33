/*
 * dcfg-convert --to csi in two halves that share one routine's graph: its
 * paths and their Ball-Larus numbering (csi_paths.c), and the writer
 * (csi.c), which sizes the arrays and writes the numbered graph.
 *
 * Each routine is worked on alone, in arrays sized by its blocks and edges
 * and reused from one routine to the next. Local node indices are in id
 * order (EXIT, the synthetic entry and the extra blocks included), and
 * every edge list is kept sorted by (source, target, edge id), which is
 * also the output order.
 */
#ifndef DCFG_CSI_H
#define DCFG_CSI_H

#include <stddef.h>
#include <stdint.h>

#include "common/output.h"
#include "profile.h"

/* A block's line list repeats a line per instruction: more than this many is refused. */
#define DCFG_CSI_BLOCK_INSTRS_MAX (UINT64_C(1) << 24)

#define CSI_SYNTHETIC UINT64_MAX   /* the edge id of an edge the DCFG does not have */

enum {
	CSI_EXIT_NODE = 1 << 0,    /* listed in EXIT_NODE_IDS */
	CSI_HAS_OUT   = 1 << 1     /* has an intra edge out */
};

struct csi_node {
	uint64_t id;
	uint64_t paths;            /* NumPaths */
	uint32_t block;            /* process-relative; DCFG_NONE for a virtual EXIT or ENTRY, extras */
	uint8_t flags;             /* CSI_EXIT_NODE, CSI_HAS_OUT */
	uint8_t state;             /* depth-first search: 0 new, 1 on the stack, 2 done */
};

struct csi_edge {
	uint64_t eid;              /* DCFG edge id, or CSI_SYNTHETIC */
	uint64_t val;
	uint32_t src, dst;         /* local node indices */
	uint8_t back;
};

struct csi_pair {
	uint32_t u, h;
};

/* The dummy edge ENTRY->h of the back edge k, u~>h. */
struct csi_dummy {
	uint32_t h, u, k;
};

struct csi_frame {
	uint32_t v, pos;
};

struct dcfg_convert_options;

struct csi {
	const struct dcfg_profile *pf;
	struct dcfg_output *out;
	const struct dcfg_convert_options *o;   /* its warning: a routine left out */
	uint32_t *loc;             /* per process block: its local index, or DCFG_NONE */
	struct csi_node *nodes;    size_t cap_nodes;
	struct csi_edge *edges;    size_t cap_edges;
	struct csi_edge *edges2;   size_t cap_edges2;
	uint32_t *first;           size_t cap_first;
	struct csi_dummy *dummies; size_t cap_dummies;
	struct csi_pair *pairs;    size_t cap_pairs;
	struct csi_frame *stack;   size_t cap_stack;

	/* The routine being worked on. */
	uint32_t n_nodes, n_edges, n_dummies, entry, exit;
};

/*
 * Routine FI's graph, numbered, in S's arrays, which the caller has sized
 * for it; s->loc holds its blocks' local indices until the caller clears
 * them. 0; 1: more than 2^64-1 acyclic paths; -1: out of memory; -2: a
 * cycle in the DAG (a bug).
 */
int dcfg_csi_paths(struct csi *s, uint32_t fi);

#endif
