/*
 * Counting, as dcfg-count(1) counts: a process's edge executions
 * aggregated by edge, block, routine, loop, image, edge type, thread,
 * source line or source file, with the same rows, keys, names, shares,
 * order and overflow refusals as dcfg-count's tables (dcfg_counter(3)).
 *
 * A counter is made from a loaded DCFG, one of its processes and a kind;
 * the caller feeds it edge ids in batches, each with the number of times
 * it ran (a run of dcfg-expand --runs' stream is one call, its count the
 * weight), or the DCFG's own counts; then reads the rows back, through
 * callbacks or one by one. The counter reads no file and writes none.
 *
 * Memory is a few words per edge and per block of the DCFG, made once;
 * adding an edge allocates nothing.
 */
#ifndef DCFG_COUNT_API_H
#define DCFG_COUNT_API_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg.h"
#include "error.h"

/* Only what these headers declare is exported from libdcfg.so (Makefile: -fvisibility=hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The kinds of table (dcfg-count --by KIND), in the order dcfg-count's help lists them. */
enum dcfg_count_by {
	DCFG_BY_EDGE,      /* per edge id */
	DCFG_BY_BLOCK,     /* per basic block (its node id) */
	DCFG_BY_ROUTINE,   /* per routine (its ENTRY_NODE_ID), with its name */
	DCFG_BY_LOOP,      /* per loop (its HEAD_NODE_ID), with its place, depth and size */
	DCFG_BY_IMAGE,     /* per image file name */
	DCFG_BY_TYPE,      /* per edge type name */
	DCFG_BY_THREAD,    /* per thread id */
	DCFG_BY_LINE,      /* per source line: FILE:LINE */
	DCFG_BY_FILE,      /* per source file */
	DCFG_BY_KINDS      /* how many kinds there are */
};
#define DCFG_BY_DEFAULT DCFG_BY_EDGE   /* dcfg-count without --by */

/* The id of a row of code on no source line (by line and by file): its key is "IMAGE:-". */
#define DCFG_COUNT_NO_LINE UINT64_MAX
/* The most cells a row has between its key and its counts (a loop's). */
#define DCFG_COUNT_BETWEEN_MAX 6

/* What the functions below return. */
#define DCFG_COUNT_OK         0
#define DCFG_COUNT_STOP       1     /* a handler's callback asked to stop */
#define DCFG_COUNT_NO_EDGE  (-1)    /* an edge id not among the process's edges */
#define DCFG_COUNT_OVERFLOW (-2)    /* a count of the table went past 2^64 - 1: no rows */
#define DCFG_COUNT_NO_MEMORY (-3)
#define DCFG_COUNT_MISMATCH (-4)    /* merging counters of other DCFGs, processes or kinds */
#define DCFG_COUNT_INVALID  (-5)    /* a process not of the counter's DCFG */

/* ---- the kinds ---- */

/* The name of BY as --by takes it ("edge" ...); NULL when BY is not a kind. */
const char *dcfg_count_by_name(enum dcfg_count_by by);
/* The kind NAME names: 0, or -1 when none does. */
int dcfg_count_by_parse(const char *name, enum dcfg_count_by *by);
/*
 * The name of column I of BY's rows, as dcfg-count's header line gives it
 * ("edge", "executions", ..., "share"); NULL past the last column.
 */
const char *dcfg_count_by_column(enum dcfg_count_by by, size_t i);
/* The tables BY's rows read (DCFG_KEEP_*): what dcfg_load() must keep at least. 0 when BY is not a kind. */
unsigned dcfg_count_by_keep(enum dcfg_count_by by);

/* ---- counting ---- */

/* A counter (opaque): one process's executions, for one kind of table. */
struct dcfg_counter;

/*
 * A counter of process P of D (P one of dcfg_processes(D)) for tables of
 * kind BY. NAME is what errors name as their file (the trace's path, say;
 * NULL: none), kept by pointer. D must outlive the counter, and must have
 * been loaded keeping dcfg_count_by_keep(BY). NULL with ERR set when out
 * of memory, BY is not a kind, P is not D's or D lacks a table.
 */
struct dcfg_counter *dcfg_counter_new(const struct dcfg *d, const struct dcfg_process *p,
    enum dcfg_count_by by, const char *name, struct dcfg_error *err);
void dcfg_counter_free(struct dcfg_counter *c);

/*
 * Forgets every count and thread, and counts process P from now on (NULL:
 * the same one): cheaper than a new counter, which builds the kind's
 * indexes again. DCFG_COUNT_OK, or DCFG_COUNT_INVALID when P is not D's.
 */
int dcfg_counter_restart(struct dcfg_counter *c, const struct dcfg_process *p,
    struct dcfg_error *err);

/*
 * The edges added from now on ran in thread TID (the thread table's rows;
 * the other kinds add up all threads). Edges added before any thread is
 * named are thread 0's, as dcfg-count takes a stream's edges before its
 * first "# thread" line. A thread named once has its row, if with no edge.
 * DCFG_COUNT_OK or DCFG_COUNT_NO_MEMORY.
 */
int dcfg_counter_thread(struct dcfg_counter *c, uint64_t tid, struct dcfg_error *err);

/*
 * N edges, by their EDGE_IDs in the process, each executed WEIGHT more
 * times (0 counts nothing). DCFG_COUNT_OK, or DCFG_COUNT_NO_EDGE with ERR
 * naming the id and its index in IDS: the ids before it are counted. A
 * sum that passes 2^64 - 1 is not an error here: the table made from it
 * is refused (dcfg_counter_begin).
 */
int dcfg_counter_add(struct dcfg_counter *c, const uint32_t *ids, size_t n, uint64_t weight,
    struct dcfg_error *err);
/* The same with a weight per edge: edge IDS[i] executed WEIGHTS[i] more times. */
int dcfg_counter_add_weighted(struct dcfg_counter *c, const uint32_t *ids,
    const uint64_t *weights, size_t n, struct dcfg_error *err);

/*
 * The DCFG's own counts of the process, as dcfg-count --from-dcfg counts:
 * each edge's executions are its COUNT (the sum over threads); thread I of
 * COUNT_PER_THREAD (kept with DCFG_KEEP_EDGE_COUNTS) is thread id I. The
 * tables are then marked as from the DCFG (dcfg_count_table_info).
 * DCFG_COUNT_OK or DCFG_COUNT_NO_MEMORY.
 */
int dcfg_counter_add_dcfg(struct dcfg_counter *c, struct dcfg_error *err);

/*
 * Adds what FROM counted to INTO, thread by thread: the table of INTO is
 * then that of the edges of both, as dcfg-count --merge makes one table of
 * two shards' tables. DCFG_COUNT_OK; DCFG_COUNT_MISMATCH when they count
 * other DCFGs, processes or kinds, or either counted the DCFG's own counts
 * (--merge refuses those tables); DCFG_COUNT_NO_MEMORY. A sum past 2^64 - 1
 * refuses the table, as in dcfg_counter_add().
 */
int dcfg_counter_merge(struct dcfg_counter *into, const struct dcfg_counter *from,
    struct dcfg_error *err);

/* ---- the rows ---- */

/* The table as a whole: dcfg-count's "# process" and "# total_instructions" lines, and its head's fields. */
struct dcfg_count_table_info {
	uint64_t pid;
	enum dcfg_count_by by;
	uint64_t total_instructions;   /* of the process: what every share is of */
	size_t rows;                   /* after TOP */
	int from_dcfg;                 /* counted from the DCFG (dcfg_counter_add_dcfg): "from=dcfg" */
};

/*
 * A row, as dcfg-count writes it in TSV: KEY, then BETWEEN's cells, then
 * the counts and SHARE. Its strings stay valid until the counter is
 * changed, freed, or asked for its rows again.
 */
struct dcfg_counted_row {
	const char *key;       /* the first cell: "412", "libm.so.6", "a.c:12", "prog:-" */
	/*
	 * By edge, block, routine, loop and thread: the edge id, node id,
	 * ENTRY_NODE_ID, HEAD_NODE_ID or thread id. By line: the line. By
	 * line and file: DCFG_COUNT_NO_LINE for code on no line. Else 0.
	 */
	uint64_t id;
	/*
	 * By image, type, line and file: the image's file name, the edge
	 * type's name ("UNDEFINED" for none), the source file's name, or for
	 * code on no line its image's, as the DCFG spells it, not escaped ("-":
	 * none). NULL for the other kinds.
	 */
	const char *name;
	/* By routine its name; by loop its routine, name, source, depth, innermost and static. */
	const char *between[DCFG_COUNT_BETWEEN_MAX];
	size_t n_between;
	uint64_t executions;   /* by loop: the loop's entries */
	uint64_t iterations;   /* by loop; 0 for the other kinds */
	uint64_t instructions;
	const char *share;     /* of total_instructions in percent, two decimals, half up: "50.06" */
};

/*
 * A table's rows through callbacks: TABLE once, then ROW per row (either
 * may be NULL). Each returns DCFG_COUNT_OK to go on, DCFG_COUNT_STOP to
 * stop (the rows' caller then returns DCFG_COUNT_STOP), or a negative
 * number of its own, which is returned as it is (ERR is the callback's to set).
 */
struct dcfg_count_handler {
	int (*table)(void *ctx, const struct dcfg_count_table_info *info);
	int (*row)(void *ctx, const struct dcfg_counted_row *row);
};

/*
 * Makes the table of what C has counted so far, sorted as dcfg-count sorts
 * it (the most instructions first, then by name, then by key; by thread,
 * by thread id), cut to its first TOP rows (0: all), and sets *INFO (may
 * be NULL). The counts stay: more may be added, and the table made again.
 * DCFG_COUNT_OK; DCFG_COUNT_OVERFLOW with ERR "process P: a count does not
 * fit in 64 bits" (dcfg-count's refusal: a thread's totals spoil only the
 * thread table, an edge's or a block's executions the others);
 * DCFG_COUNT_NO_MEMORY (also for a row longer than 256 KiB).
 */
int dcfg_counter_begin(struct dcfg_counter *c, uint64_t top, struct dcfg_count_table_info *info,
    struct dcfg_error *err);
/* The next row of the table dcfg_counter_begin() made, or NULL after the last. */
const struct dcfg_counted_row *dcfg_counter_next(struct dcfg_counter *c);

/* dcfg_counter_begin(), then H's callbacks for the table and each row. */
int dcfg_counter_rows(struct dcfg_counter *c, uint64_t top, const struct dcfg_count_handler *h,
    void *ctx, struct dcfg_error *err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
