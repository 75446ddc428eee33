/*
 * The tables of dcfg-count: one process's edge executions aggregated by
 * edge, block, routine, loop, image, edge type, thread, line or file, sorted by
 * instructions and printed with their shares. Everything is derived from
 * the executions of the edges that ran, and costs only those (and, per
 * loop table, the loops around them), never the size of the process.
 */
#ifndef DCFG_COUNT_TABLE_H
#define DCFG_COUNT_TABLE_H

#include <stdint.h>

#include "count.h"
#include "dcfg/lines.h"
#include "dcfg/names.h"
#include "common/tally.h"

/* A thread's row of the thread table. */
struct dcfg_count_thread {
	uint64_t tid, edges, instrs;
};

struct dcfg_count_table {
	const struct dcfg *d;
	const struct dcfg_count_options *o;
	struct dcfg_tally exec;    /* per edge of the DCFG: the caller counts into it */
	struct dcfg_tally block;   /* per block: executions */
	struct dcfg_tally group;   /* per routine, image, loop or edge type */
	/* for loop tables, built once: the loops each block belongs to, and per loop */
	uint32_t *member_first;
	struct dcfg_loop_member *members;
	uint32_t *loop_depth;      /* 1 for an outer loop */
	uint64_t *loop_static;     /* the NUM_INSTRS of its blocks */
	uint8_t *loop_inner;       /* no other loop's head is among its nodes */
	/* for line tables, built once */
	struct dcfg_line_ids line_ids;
	/* the threads of the process printed, for thread tables */
	const struct dcfg_count_thread *threads; size_t n_threads;
	struct dcfg_count_row *rows; size_t cap_rows;
	char *shown; size_t cap_shown;   /* the rows' names, escaped as the table writes them */
	struct dcfg_names *names;  /* per process, when a table of it has names */
};

/* 0, or -1 when out of memory. */
int dcfg_count_table_init(struct dcfg_count_table *t, const struct dcfg *d,
    const struct dcfg_count_options *o);
void dcfg_count_table_free(struct dcfg_count_table *t);

/*
 * Prints process P's table from T->exec (indexed as d->edges) and THREADS,
 * then clears T->exec. *OVERFLOW is set when a count of the table went past
 * 2^64 - 1 (nothing is printed then). 0, or -1 (out of memory, or the
 * overflow).
 */
int dcfg_count_table_print(struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_thread *threads, size_t n_threads, struct dcfg_output *out,
    int *overflow);

/*
 * The first line of every output of dcfg-count: what a merge of tables
 * (dcfg-count --merge) must find equal in all of them, and what it refuses.
 *   # dcfg-count 1 by=KIND dcfg=CRC:BYTES [top=N] [from=dcfg]
 *   # dcfg-count 1 bbv=INTERVAL dcfg=CRC:BYTES
 * CRC and BYTES are the CRC-32 (8 lowercase hexadecimal digits) and size
 * of the DCFG's data, decompressed, as gzip(1) records them.
 */
void dcfg_count_out_header(struct dcfg_output *out, uint32_t crc, uint64_t bytes,
    const struct dcfg_count_options *o, int from_dcfg);
/* Rows by instructions, the most first, then by name, then by key. */
int dcfg_count_row_cmp(const void *a, const void *b);
/* A row's first column (as KEY says), and the share of PART in TOTAL (two decimals, half up). */
void dcfg_count_out_key(struct dcfg_output *out, enum dcfg_count_key key,
    const struct dcfg_count_row *r);
void dcfg_count_out_share(struct dcfg_output *out, uint64_t part, uint64_t total);

/* ---- between count_table.c, the rows of each kind (count_rows.c, count_source.c) and bykind.c ---- */

struct dcfg_count_row {
	uint64_t key;              /* an id, a line; DCFG_COUNT_NO_LINE: code on no line */
	const char *name;          /* non-NULL: the row is keyed by NAME, then KEY */
	const struct dcfg_loop *loop;
	uint64_t exec, iter, instr;
};

#define DCFG_COUNT_NO_LINE UINT64_MAX

/* A loop a block belongs to: as one of its nodes, or as its head. */
struct dcfg_loop_member {
	uint32_t loop;             /* in d->loops */
	uint32_t is_node, is_head;
};

/* Sums and products of counts, saturating and flagged: a wrapped count would be a lie. */
static inline uint64_t
dcfg_count_add(int *overflow, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r)) {
		*overflow = 1;
		return UINT64_MAX;
	}
	return r;
}

static inline uint64_t
dcfg_count_mul(int *overflow, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r)) {
		*overflow = 1;
		return UINT64_MAX;
	}
	return r;
}

/* The NUM_INSTRS of edge E's source block (0 for a special node): what a traversal costs. */
uint64_t dcfg_count_source_instrs(const struct dcfg *d, const struct dcfg_process *p,
    const struct dcfg_edge *e);
/* Appends R to T's rows (*N of them). -1: out of memory. */
int dcfg_count_add_row(struct dcfg_count_table *t, size_t *n, struct dcfg_count_row r);
/* The rows of each kind (its descriptor's ROWS, bykind.h). */
int dcfg_count_edge_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_block_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_routine_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_loop_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_image_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_type_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_thread_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_line_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_file_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
/* The columns between the key and the counts (their descriptor's BETWEEN): a routine's name; a loop's routine .. static. */
void dcfg_count_out_routine(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_output *out, const struct dcfg_names *names);
void dcfg_count_out_loop(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_output *out, const struct dcfg_names *names);

#endif
