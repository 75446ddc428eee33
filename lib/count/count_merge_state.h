/*
 * What dcfg-count --merge has read, shared by its parts, from the bottom
 * up: this state; the checks (count_merge_check.c); what the tables say
 * they cover (count_merge_provenance.c); vectors (count_merge_bbv.c); a
 * table's lines (count_merge_lines.c), which CSV and JSON are read as
 * (count_merge_read.c); and the merge itself, which adds up
 * (count_merge.c). Each reaches only those before it.
 */
#ifndef DCFG_COUNT_MERGE_STATE_H
#define DCFG_COUNT_MERGE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>
#include "bykind.h"
#include "count_merge_options.h"
#include "count_table.h"
#include "stream/provenance.h"

#define MERGE_NONE SIZE_MAX   /* no string, no piece */

/* What the first line of a table says (count_table.h). */
struct merge_header {
	int bbv;
	enum dcfg_count_by by;
	uint64_t interval, top;
	uint32_t crc32;
	uint64_t bytes;
	int from_dcfg;
};

/*
 * A row as read, in the counting core's own row (count_table.h), and where
 * it came from. Its name and the columns between the key and the counts
 * are offsets in the pool while it still moves; the merge then points the
 * row at them.
 */
struct merge_row {
	struct dcfg_count_row r;   /* first: sorted as the core sorts its rows */
	size_t name;               /* in the pool, or MERGE_NONE: the key is a number */
	size_t extra;              /* the columns between the key and the counts, or MERGE_NONE */
	const char *extra_p;
	uint32_t file;
	unsigned long line;
};

/* A vector as read: interval K, and its text after the "T". */
struct merge_vector {
	uint64_t k;
	size_t text, len;
};

/* The vectors of one "# thread" section of one file. */
struct merge_piece {
	uint32_t file;
	unsigned long line;
	int anchored;              /* "# instructions FROM TO" seen: placed on the trace's counts */
	uint64_t from, to;
	size_t first, n;           /* its vectors */
};

struct merge_thread {
	uint64_t tid;
	size_t *pieces; size_t n_pieces, cap_pieces;
};

struct merge_process {
	uint64_t pid;
	uint64_t total;            /* the instructions of the process in all the tables */
	int total_overflow;
	struct merge_row *rows; size_t n_rows, cap_rows;
	struct merge_thread *threads; size_t n_threads, cap_threads;
};

/* What a file says it covers: its "# selection" lines and its "# trace" line. */
struct merge_file {
	size_t first_sel, n_sel;   /* in m->sels */
	int traced;
	uint32_t crc;
	uint64_t bytes;
};

struct merge_selection {
	struct dcfg_recorded_selection s;
	size_t text;               /* its line's words, in the pool */
	uint32_t file;
	unsigned long line;
};

/* Pairs of selections are compared: a bound on them keeps a merge's time bounded. */
#define MERGE_SELECTIONS_MAX 1024

struct merge {
	const struct dcfg_count_merge_options *o;
	char *const *paths;
	struct dcfg_error *err;
	struct merge_header h;
	int row_columns;           /* of a row of the tables' kind (h.by), counted once */
	char *pool; size_t n_pool, cap_pool;
	struct merge_process *procs; size_t n_procs, cap_procs;
	struct merge_piece *pieces; size_t n_pieces, cap_pieces;
	struct merge_vector *vectors; size_t n_vectors, cap_vectors;
	struct merge_file *files;  /* one per path */
	struct merge_selection *sels; size_t n_sels, cap_sels;
	/* reading: the file and line, and where its lines go */
	uint32_t file;
	unsigned long line;
	size_t proc;               /* MERGE_NONE before the first "# process" */
	int total_next;            /* a table's "# total_instructions" line comes next */
	int columns;               /* a table's column line comes next */
	size_t piece;              /* the open thread section, or MERGE_NONE */
	uint64_t next_k;           /* the interval of its next vector */
	int closed;                /* its "# instructions" line is read */
	int ended;                 /* the file's "# trace" line is read: nothing may follow */
};

/* An error at the file and line being read. -1. */
int dcfg_merge_fail(struct merge *m, const char *why);
int dcfg_merge_oom(struct merge *m);
/* S (LEN bytes) kept, NUL-terminated: its offset in M->pool, or MERGE_NONE. */
size_t dcfg_merge_keep(struct merge *m, const char *s, size_t len);
/* Frees what M holds. */
void dcfg_merge_free(struct merge *m);

#endif
