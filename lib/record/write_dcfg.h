/*
 * Writing a recorded graph as a DCFG (format 1.00, spec section 2), laid
 * out as Intel's writer lays it out: addresses as "0x..." strings, '/'
 * escaped as "\/", optional tables left out when empty. Symbols and source
 * lines come from each image's file (elfinfo.h), routines and loops from
 * the symbols and the edges (routines.h).
 */
#ifndef DCFG_RECORD_WRITE_DCFG_H
#define DCFG_RECORD_WRITE_DCFG_H

#include <dcfg/error.h>

#include "common/output.h"
#include "graph.h"

/*
 * Writes G as a DCFG to OUT (plain JSON; the caller compresses). An image
 * file that cannot be read as ELF only goes without symbols and source
 * lines. 0, or -1 with ERR set: G inconsistent (a node id out of order,
 * a block of no image, an edge kind with no name) or out of memory.
 */
int dcfg_rec_write_dcfg(const struct dcfg_rec_graph *g, struct dcfg_output *out,
    struct dcfg_error *err);

#endif
