/*
 * Internal: the whole of the DCFG model that <dcfg/dcfg.h> keeps opaque,
 * and the lookup indices behind its lookups. The library, the commands and
 * the test tools read the tables here directly; a user of the installed
 * library goes through the accessors, so this layout may change freely.
 * Never installed.
 */
#ifndef DCFG_MODEL_H
#define DCFG_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/dcfg.h>
#include "common/idmap.h"

/* A sorted (address, index) pair for address lookups. */
struct dcfg_addr_index {
	uint64_t addr, end;            /* [addr, end) */
	uint32_t index;
};

/* How many records before an address the lookups search for one that nests around it. */
#define DCFG_ADDR_NESTING 64

/* The first of N sorted records that starts after ADDR (N when none). */
size_t dcfg_addr_index_after(const struct dcfg_addr_index *ix, size_t n, uint64_t addr);

/* A process's lookup indices, built after the pass; d->process_index[i] is processes[i]'s. */
struct dcfg_process_index {
	struct dcfg_idmap edge_by_id, block_by_node;
	struct dcfg_addr_index *blocks_by_addr, *symbols_by_addr, *source_by_addr;
	size_t n_blocks_by_addr, n_symbols_by_addr, n_source_by_addr;
};

struct dcfg {
	uint64_t major_version, minor_version;
	int has_version;
	unsigned keep;
	/* the CRC-32 and size of the file's data, decompressed: which DCFG this is */
	uint32_t crc32;
	uint64_t bytes;

	struct dcfg_file_name *file_names;       size_t n_file_names;
	struct dcfg_edge_type *edge_types;       size_t n_edge_types;
	struct dcfg_special_node *special_nodes; size_t n_special_nodes;
	struct dcfg_process *processes;          size_t n_processes;
	struct dcfg_process_index *process_index;   /* one per process */
	struct dcfg_image *images;               size_t n_images;
	struct dcfg_symbol *symbols;             size_t n_symbols;
	struct dcfg_source_line *source_lines;   size_t n_source_lines;
	struct dcfg_block *blocks;               size_t n_blocks;
	struct dcfg_routine *routines;           size_t n_routines;
	struct dcfg_routine_node *routine_nodes; size_t n_routine_nodes;
	struct dcfg_loop *loops;                 size_t n_loops;
	struct dcfg_edge *edges;                 size_t n_edges;
	uint32_t *node_ids;                      size_t n_node_ids;
	uint64_t *counts;                        size_t n_counts;
	char *strings;                           size_t n_strings;

	struct dcfg_idmap file_name_by_id, edge_type_by_id, special_by_id;
};

/* The lookup indices of P, a process of D. */
static inline const struct dcfg_process_index *
dcfg_process_index(const struct dcfg *d, const struct dcfg_process *p)
{
	return &d->process_index[p - d->processes];
}

/* Whether NODE is among R's node ids: a linear look, for lists without an index. */
static inline int
dcfg_range_has_node(const struct dcfg *d, struct dcfg_range r, uint32_t node)
{
	uint32_t i;

	for (i = 0; i < r.count; i++)
		if (d->node_ids[r.first + i] == node)
			return 1;
	return 0;
}

#endif
