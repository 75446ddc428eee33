/*
 * A recorded process as the recorder builds it from the spool (build.c)
 * and writes it (write_dcfg.c): images, dynamic blocks and edges with
 * their counts. Symbols, source lines, routines and loops are not here:
 * the writer works them out from the images' files and from the edges.
 */
#ifndef DCFG_RECORD_GRAPH_H
#define DCFG_RECORD_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/dcfg.h>

/* Node ids of the special nodes (spec 2.6); blocks are numbered after them. */
enum { DCFG_REC_START = 1, DCFG_REC_END = 2, DCFG_REC_UNKNOWN = 3, DCFG_REC_FIRST_BLOCK = 4 };

enum dcfg_rec_arch { DCFG_REC_X86_64, DCFG_REC_AARCH64 };

struct dcfg_rec_image {
	uint32_t id;               /* IMAGE_ID: 1, 2, ... the program first */
	uint64_t load, size;
	char *path;                /* NULL: anonymous memory, no FILE_NAME_ID */
};

struct dcfg_rec_block {
	uint32_t node;             /* NODE_ID */
	uint32_t image;            /* index into images */
	uint64_t addr;             /* absolute address of the first instruction */
	uint32_t size, n_instrs, last_offset;
	uint32_t first_insn;       /* its instructions' lengths: insn_lengths[first_insn ...] */
	uint64_t count;            /* executions, all threads */
};

struct dcfg_rec_edge {
	uint32_t id;               /* EDGE_ID */
	uint32_t source, target;   /* node ids, special ones included */
	enum dcfg_edge_kind kind;
	uint64_t *count_per_thread;   /* n_threads counts */
};

struct dcfg_rec_graph {
	uint64_t pid;
	enum dcfg_rec_arch arch;
	uint32_t n_threads;
	uint64_t *instrs_per_thread;
	struct dcfg_rec_image *images;  size_t n_images;
	struct dcfg_rec_block *blocks;  size_t n_blocks;   /* by address; node = DCFG_REC_FIRST_BLOCK + index */
	struct dcfg_rec_edge *edges;    size_t n_edges;
	uint8_t *insn_lengths;          size_t n_insn_lengths;   /* n_instrs a block, in block order */
};

void dcfg_rec_graph_free(struct dcfg_rec_graph *g);

#endif
