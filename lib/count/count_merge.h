/*
 * dcfg-count --merge: the tables (or basic-block vectors) that dcfg-count
 * wrote for disjoint shards of one trace, put back together into exactly
 * what one run over the whole trace writes. Every count of a table is a sum
 * over edges, so rows of the same key add up and the shares are worked out
 * again; vectors are placed by the instruction counts they say they cover.
 */
#ifndef DCFG_COUNT_MERGE_H
#define DCFG_COUNT_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>
#include "common/output.h"
#include "common/table.h"
#include "count_merge_options.h"

/*
 * Merges the N tables at PATHS into OUT. 0 done; 1 stopped because OUT
 * failed; -1 with ERR set, nothing written: a file that is not a table of
 * dcfg-count, tables of other kinds, intervals or DCFGs, a table cut by
 * --top or made from the DCFG's own counts, two rows of one key in one
 * table, rows of one key that differ in what is not a count, a sum past
 * 2^64 - 1, vectors of one thread that overlap or are not placed on
 * instruction counts, or out of memory.
 */
int dcfg_count_merge(char *const *paths, size_t n, const struct dcfg_count_merge_options *o,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
