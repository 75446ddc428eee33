/*
 * The kinds of dcfg-count's tables (--by), one descriptor each: its name,
 * its columns, the DCFG tables it reads, the function that makes its rows
 * and how --merge reads them back. Adding a kind is a value below, a row in
 * bykind.c and the function that makes its rows; the option parser, the
 * usage messages, the table writer and --merge read the descriptors.
 *
 * Every kind merges by the same rule: rows of one key (count_merge.h) are
 * added up, each count on its own (executions, iterations, instructions),
 * and must agree on every column between the key and the counts; the rows
 * are sorted again by instructions, the most first, then by name, then by
 * key (dcfg_count_row_cmp), and each row's share is worked out again from
 * the summed instructions over the merged process's total.
 */
#ifndef DCFG_COUNT_BYKIND_H
#define DCFG_COUNT_BYKIND_H

#include <stddef.h>

#include <dcfg/count.h>   /* the kinds (enum dcfg_count_by), dcfg_count_by_parse */
#include "common/table.h"

/* How a row's first column is written, and read back by --merge. */
enum dcfg_count_key {
	DCFG_COUNT_KEY_ID,         /* a number: an edge, a node, a thread */
	DCFG_COUNT_KEY_NAME,       /* a name, escaped: rows of one name are one row */
	DCFG_COUNT_KEY_FILE,       /* a file name, or IMAGE:- for code on no line */
	DCFG_COUNT_KEY_FILE_LINE   /* FILE:LINE, or IMAGE:- for code on no line */
};

/* The most columns a kind has (a loop's), for --merge's reading. */
#define DCFG_COUNT_COLUMNS_MAX 11

struct dcfg_count_table;
struct dcfg_count_row;
struct dcfg_process;
struct dcfg_names;

struct dcfg_count_kind {
	const char *name;          /* as --by and the header's by= take it */
	/* its columns: key, [between,] counts, share */
	const struct dcfg_table_column *cols;
	size_t n_cols;
	unsigned keep;             /* the DCFG's tables its rows read (DCFG_KEEP_*) */
	enum dcfg_count_key key;
	int iterations;            /* an iterations column after the executions */
	/*
	 * What its counts come from, of what the counter keeps: the blocks'
	 * executions (a count of them that overflows spoils the table), or the
	 * threads' totals (and not the edges' executions).
	 */
	int uses_blocks, uses_threads;
	/*
	 * Appends process P's rows to T->rows (*N of them) from T's tallies;
	 * *OF is set when a count overflows. -1: out of memory.
	 */
	int (*rows)(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of);
	/* NULL, or writes the cells between the key and the counts */
	void (*between)(const struct dcfg_count_table *t, const struct dcfg_process *p,
	    const struct dcfg_count_row *r, struct dcfg_table *w, const struct dcfg_names *names);
	/* NULL, or the order of its rows if not by instructions (dcfg_count_row_cmp) */
	int (*cmp)(const void *a, const void *b);
};

/* The descriptor of BY. */
const struct dcfg_count_kind *dcfg_count_kind(enum dcfg_count_by by);
/* The number of columns of a kind's rows. */
int dcfg_count_kind_columns(const struct dcfg_count_kind *k);

#endif
