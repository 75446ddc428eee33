/*
 * The counting core's state and rows, from the bottom up: what a counter
 * keeps of a process (struct dcfg_count_table), the rows each kind makes
 * of it (count_rows.c here, count_source.c for loops, lines and files),
 * and the sums that refuse to wrap. Above them: the kinds' descriptors
 * (bykind.c), which name each kind's functions, then the table that sorts,
 * keeps and writes the rows (count_table.c), then the counter
 * (counter.c). None of these reaches back (scripts/layers.sh).
 */
#ifndef DCFG_COUNT_ROWS_H
#define DCFG_COUNT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/count.h>   /* DCFG_COUNT_NO_LINE */
#include "dcfg/lines.h"
#include "dcfg/names.h"
#include "common/table.h"
#include "common/tally.h"

struct dcfg_count_options;

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

/* R's counts added to INTO's, each on its own: what rows of one key come to (join, --merge). */
static inline void
dcfg_count_row_add(int *overflow, struct dcfg_count_row *into, const struct dcfg_count_row *r)
{
	into->exec = dcfg_count_add(overflow, into->exec, r->exec);
	into->iter = dcfg_count_add(overflow, into->iter, r->iter);
	into->instr = dcfg_count_add(overflow, into->instr, r->instr);
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
int dcfg_count_image_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_type_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_thread_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
/* The cells between the key and the counts of a routine (its descriptor's BETWEEN): its name. */
void dcfg_count_out_routine(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_table *w, const struct dcfg_names *names);

/* The thread table's rows: by thread id, ascending, as people look a thread up. */
int dcfg_count_thread_cmp(const void *a, const void *b);

#endif
