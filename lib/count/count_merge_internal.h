/*
 * What the two halves of dcfg-count --merge share (count_merge.c reads the
 * files and merges tables, count_merge_bbv.c merges vectors): what was
 * read, and the helpers that report where.
 */
#ifndef DCFG_COUNT_MERGE_INTERNAL_H
#define DCFG_COUNT_MERGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "count_merge.h"
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

/* A row as read: its key, the columns that are not counts, and the counts. */
struct merge_row {
	size_t name;               /* in the pool, or MERGE_NONE: the key is a number */
	uint64_t key;
	size_t extra;              /* the columns between the key and the counts, or MERGE_NONE */
	const char *name_p, *extra_p;   /* the same, once the pool has stopped moving */
	uint32_t file;
	unsigned long line;
	uint64_t exec, iter, instr;
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

/*
 * A "# selection" or "# trace" line of the file being read: 0, 1 when
 * LINE is neither, or -1 with the error set.
 */
int dcfg_merge_provenance_line(struct merge *m, const char *line, size_t len);
/*
 * Process PID (and thread TID, when HAS_TID) of the file being read is
 * in one of its "# selection" lines, if it has any: 0, or -1 with the
 * error set, since a table holding another shard's counts would add them
 * twice.
 */
int dcfg_merge_check_selected(struct merge *m, uint64_t pid, int has_tid, uint64_t tid);
/*
 * The files read cover disjoint parts of one trace, and all the shards of
 * its plan: 0, or -1 with the error set (count_merge.h).
 */
int dcfg_merge_check_provenance(struct merge *m, size_t n);
/* The merged table's selection notes, and its trace note. */
void dcfg_merge_write_selection(const struct merge *m, struct dcfg_table *w);
void dcfg_merge_write_trace(const struct merge *m, struct dcfg_table *w);
/* The same as the lines of a file of vectors. */
void dcfg_merge_write_selection_lines(const struct merge *m, struct dcfg_output *out);
void dcfg_merge_write_trace_line(const struct merge *m, struct dcfg_output *out);
void dcfg_merge_free_provenance(struct merge *m);

/*
 * A file's first line, "# dcfg-count 1 ...", read and checked against the
 * first file's; then each line after it; then its end. 0, or -1 with the
 * error set at M->file and M->line.
 */
int dcfg_merge_head(struct merge *m, char *line);
int dcfg_merge_line(struct merge *m, char *line, size_t len);
int dcfg_merge_end(struct merge *m);
/* A table in CSV or JSON, whose first line is FIRST (LEN bytes), read as its TSV lines. */
struct dcfg_textlines;
int dcfg_merge_read_other(struct merge *m, struct dcfg_textlines *t, char *first, size_t len);

/* A line of a file of vectors after its "# process" line. */
int dcfg_merge_bbv_line(struct merge *m, char *line, size_t len);
/* The merged vectors of thread T of P. */
int dcfg_merge_write_thread(struct merge *m, const struct merge_process *p, struct merge_thread *t,
    struct dcfg_output *out);

#endif
