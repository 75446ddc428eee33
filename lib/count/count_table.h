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

/* A process's table, kept until the document is written (count_table.c says why). */
struct dcfg_count_kept {
	const struct dcfg_process *p;
	uint64_t total;            /* the process's instructions: what every share is of */
	size_t first, n;           /* its rows in kept_rows */
};

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
	/* the tables kept, their rows, and the rows' names (offsets in kept_names, or SIZE_MAX) */
	struct dcfg_count_kept *kept; size_t n_kept, cap_kept;
	struct dcfg_count_row *kept_rows; size_t n_kept_rows, cap_kept_rows;
	size_t *kept_name_at; size_t cap_kept_name_at;
	char *kept_names; size_t n_kept_names, cap_kept_names;
	struct dcfg_names *names;  /* per process, when a table of it has names */
};

/* 0, or -1 when out of memory. */
int dcfg_count_table_init(struct dcfg_count_table *t, const struct dcfg *d,
    const struct dcfg_count_options *o);
void dcfg_count_table_free(struct dcfg_count_table *t);

/*
 * Makes process P's table from T->exec (indexed as d->edges) and THREADS,
 * and keeps it to be written; T->exec stays as it is. *OVERFLOW is set when a
 * count of the table went past 2^64 - 1 (nothing is kept then). 0, or -1
 * (out of memory, or the overflow).
 */
int dcfg_count_table_keep(struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_thread *threads, size_t n_threads, int *overflow);
/* Writes the tables kept, a section each, and forgets them. */
void dcfg_count_table_write(struct dcfg_count_table *t, struct dcfg_table *w);
/* Writes row J of kept table K (its cells and its end). */
void dcfg_count_table_write_row(struct dcfg_count_table *t, struct dcfg_table *w,
    const struct dcfg_count_kept *k, size_t j);

/*
 * The first line of every output of dcfg-count: what a merge of tables
 * (dcfg-count --merge) must find equal in all of them, and what it refuses.
 *   # dcfg-count 1 by=KIND dcfg=CRC:BYTES [top=N] [from=dcfg]
 *   # dcfg-count 1 bbv=INTERVAL dcfg=CRC:BYTES
 * CRC and BYTES are the CRC-32 (8 lowercase hexadecimal digits) and size
 * of the DCFG's data, decompressed, as gzip(1) records them. The tables'
 * is the table writer's head (dcfg_count_table_meta); the vectors' this.
 */
void dcfg_count_out_header(struct dcfg_output *out, uint32_t crc, uint64_t bytes,
    const struct dcfg_count_options *o, int from_dcfg);
/* The head fields of a table's document (after dcfg_table_open(W, .., "dcfg-count", 1)). */
void dcfg_count_table_meta(struct dcfg_table *w, uint32_t crc, uint64_t bytes, enum dcfg_count_by by,
    uint64_t top, int from_dcfg);
/* CRC:BYTES into BUF (at least 30 bytes). */
void dcfg_count_crc_bytes(char *buf, size_t size, uint32_t crc, uint64_t bytes);
/* A process's section: its fields (process, total_instructions) and the kind's columns. */
void dcfg_count_section(struct dcfg_table *w, const struct dcfg_count_kind *kind, uint64_t pid,
    uint64_t total);
/* Rows by instructions, the most first, then by name, then by key. */
int dcfg_count_row_cmp(const void *a, const void *b);
/* The thread table's rows: by thread id, ascending, as people look a thread up. */
int dcfg_count_thread_cmp(const void *a, const void *b);
/* A row's first cell (as KEY says), and its counts and share of TOTAL (the row ends). */
void dcfg_count_write_key(struct dcfg_table *w, enum dcfg_count_key key,
    const struct dcfg_count_row *r);
void dcfg_count_write_counts(struct dcfg_table *w, const struct dcfg_count_kind *kind,
    const struct dcfg_count_row *r, uint64_t total);

/* ---- between count_table.c, the rows of each kind (count_rows.c, count_source.c) and bykind.c ---- */

struct dcfg_count_row {
	uint64_t key;              /* an id, a line; DCFG_COUNT_NO_LINE: code on no line */
	const char *name;          /* non-NULL: the row is keyed by NAME, then KEY */
	const struct dcfg_loop *loop;
	uint64_t exec, iter, instr;
};

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
/* The cells between the key and the counts (their descriptor's BETWEEN): a routine's name; a loop's routine .. static. */
void dcfg_count_out_routine(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_table *w, const struct dcfg_names *names);
void dcfg_count_out_loop(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_table *w, const struct dcfg_names *names);

#endif
