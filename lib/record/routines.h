/*
 * ROUTINES and LOOPS (spec 2.14, 2.15) of a recorded image, worked out
 * from its symbols and the recorded edges: a block belongs to the routine
 * of the symbol that holds it; dominators and natural loops follow the
 * edges that stay inside a routine.
 */
#ifndef DCFG_RECORD_ROUTINES_H
#define DCFG_RECORD_ROUTINES_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>

#include "common/output.h"
#include "elfinfo.h"
#include "graph.h"

/* Every block's outgoing edges, built once per graph. */
struct dcfg_rec_cfg;

/* NULL with ERR set: out of memory, or an edge naming a node that is no block or special node. */
struct dcfg_rec_cfg *dcfg_rec_cfg_new(const struct dcfg_rec_graph *g, struct dcfg_error *err);
void dcfg_rec_cfg_free(struct dcfg_rec_cfg *cfg);

/*
 * Writes the ROUTINES key and table (after a comma, at INDENT) of the
 * image whose blocks are BLOCKS (N indices into G->blocks, by address),
 * every block in exactly one routine. Writes nothing for N = 0. 0, or -1
 * with ERR set (out of memory).
 */
int dcfg_rec_write_routines(struct dcfg_output *out, struct dcfg_rec_cfg *cfg,
    const struct dcfg_rec_graph *g, const uint32_t *blocks, size_t n,
    const struct dcfg_rec_elfinfo *info, const char *indent, struct dcfg_error *err);

#endif
