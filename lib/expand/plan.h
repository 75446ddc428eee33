/*
 * dcfg-expand --plan: the options of dcfg-expand that cut a DCFG-trace
 * into at most N shards, one line each, so that running every line
 * yields every edge of the selection exactly once, the shards balanced by
 * EDGE_COUNT. Only the chunk table is read (trace.h, as --list reads it):
 * no sequence is decoded.
 *
 * A line is one of (words separated by single spaces, numbers decimal):
 *   -p A [-p B ...] [-t T ...]          whole processes (-t: the -t given,
 *                                       the same threads in each)
 *   -p A -t T [-t U ...]                whole threads of one process
 *   -p A -t T [--from-icount X] [--to-icount Y] [--dcfg DCFG]
 *                                       a window of one thread
 * A thread without edges joins a line of its process, a process without
 * edges a whole-process line; a process without (selected) threads may
 * join a line of another process as one more -p, since no -t of that line
 * selects anything in it. dcfg-expand(1), SHARDS, says where cuts fall
 * and how the shards are balanced.
 *
 * Memory: 32 bytes per selected chunk (PRECEDING_INSTR_COUNT,
 * INSTR_COUNT, EDGE_COUNT and its thread; the same slot holds its segment
 * later) and a few numbers per process, thread and line; never the edges.
 */
#ifndef DCFG_PLAN_H
#define DCFG_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include <dcfg/error.h>
#include "common/output.h"

struct dcfg_plan_options {
	uint64_t lines;                         /* N: at most this many lines; at least 1 */
	const uint64_t *pids; size_t n_pids;    /* the selection (dcfg-expand's -p, -t); none: all */
	const uint64_t *tids; size_t n_tids;
	/*
	 * 0: cut threads only where no chunk straddles (whole-chunk windows,
	 * no DCFG needed). Otherwise cut at multiples of ALIGN, anywhere, and
	 * write "--dcfg DCFG_PATH" on every line with a window.
	 */
	uint64_t align;
	const char *dcfg_path;                  /* with align: as the user gave it */
	const struct dcfg *dcfg;                /* NULL, or the DCFG: every selected process must be in it */
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
};

/* The plan's context: the options and the index of the selected chunks. */
struct dcfg_plan;

/* A plan for OPT (kept, not copied); NULL when out of memory. */
struct dcfg_plan *dcfg_plan_new(const struct dcfg_plan_options *opt);

/*
 * Reads the chunk table of TRACE ("-" or NULL: standard input) into the
 * index; once per plan. 0; -1 with ERR set: the file cannot be read, is
 * no DCFG-trace, or its data is wrong (also a selected process missing
 * from the DCFG, PRECEDING_INSTR_COUNT + INSTR_COUNT past 2^64-1, the
 * EDGE_COUNT of the selection adding up past 2^64-1, out of memory).
 */
int dcfg_plan_read(struct dcfg_plan *p, const char *trace, struct dcfg_error *err);

/*
 * Plans the shards of what was read and writes one line per shard to
 * OUT. 0 (see dcfg_output_close for write errors); -1 with ERR set when
 * out of memory (ERR's file is TRACE).
 */
int dcfg_plan_write(struct dcfg_plan *p, struct dcfg_output *out, const char *trace,
    struct dcfg_error *err);

void dcfg_plan_free(struct dcfg_plan *p);

/* All of the above: 0, or -1 with ERR set. */
int dcfg_plan(const char *trace, const struct dcfg_plan_options *opt,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
