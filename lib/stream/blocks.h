/* dcfg-blocks' work: the block each edge enters, located; the block table. */
#ifndef DCFG_BLOCKS_H
#define DCFG_BLOCKS_H

#include "dcfg/model.h"
#include "common/output.h"
#include "stage.h"

/* OFFSETS: only image+offset and symbol, without the edge id, for diffing runs. */
int dcfg_blocks_run(struct dcfg_stage *s, const char *path, int offsets,
    struct dcfg_error *err);
/* -1 when out of memory. */
int dcfg_blocks_list(struct dcfg_output *out, const struct dcfg *d);

/* "symbol+0xOFF" of the symbol covering ADDR, or "-". */
void dcfg_out_symbol(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, uint64_t addr);

#endif
