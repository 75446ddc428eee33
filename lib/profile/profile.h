/*
 * dcfg-profile's work: an edge stream and its DCFG made into PinPoints /
 * LoopPoint profiles, one per thread (dcfg-profile(1)). A thread's block
 * entries are cut into slices at eligible entries (any entry, or with a
 * loop rule an entry of a loop head). On a grid of SLICE_SIZE
 * instructions (the fixed rule and --loop-grid), slice k + 1 starts at
 * the first eligible entry that starts at or after k * SLICE_SIZE, so
 * that a boundary depends on the grid alone; under LoopPoint's rule
 * (--loop-aligned), at the first that starts SLICE_SIZE or more after the
 * boundary before (the thread's start, 0, for the first). Each slice is
 * written as its "T:" vector and the "S:" marker (block address,
 * execution count) that ends it.
 */
#ifndef DCFG_PINPOINTS_H
#define DCFG_PINPOINTS_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include "common/output.h"
#include "stream/stage.h"

struct dcfg_pinpoints_options {
	uint64_t slice_size;                 /* > 0 */
	int loop_aligned;                    /* a loop rule: boundaries only at loop heads, */
	int loop_grid;                       /* on the grid, not LoopPoint's (dcfg_pinpoints_chained) */
	/* image paths or basenames: blocks left out of the vectors, loops kept */
	const char *const *exclude; size_t n_exclude;
	const char *const *loop_images; size_t n_loop_images;
	int has_pid; uint64_t pid;           /* else the stream's only process */
	int has_tid; uint64_t tid;           /* only this thread, to OUT */
	struct dcfg_output *out;             /* with HAS_TID */
	const char *base;                    /* without: BASE.T.<tid>.bb per thread */
	int part;                            /* a shard's part for --merge, all threads to OUT */
	int summary;                         /* with PART: the shard's summary (profile_summary.c) */
	const char *starts;                  /* with PART, LoopPoint's rule: the merged summaries */
	const char *const *inputs; size_t n_inputs;   /* refused as outputs */
	/* a thread that leaves no instructions and so gets no file; may be NULL */
	void (*no_profile)(void *ctx, uint64_t tid, const char *why);
	/* a marker whose simulator count the DCFG cannot give (MSG: why); may be NULL */
	void (*warning)(void *ctx, const char *msg);
	void *ctx;
};

/*
 * Reads the stream of S (S->dcfg set) and writes the profiles. 0; 1 when an
 * output failed; -1 with ERR set (then no file named from BASE is
 * written, and OUT holds what it held).
 */
int dcfg_pinpoints_stream(struct dcfg_stage *s, const char *path,
    const struct dcfg_pinpoints_options *o, struct dcfg_error *err);

/*
 * --merge: the N parts (dcfg-profile --part) of the shards of one plan
 * into the files one run writes (O's BASE, or HAS_TID and OUT). Returns
 * as dcfg_pinpoints_stream.
 */
int dcfg_pinpoints_merge(const struct dcfg *d, const char *const *paths, size_t n,
    const struct dcfg_pinpoints_options *o, struct dcfg_error *err);

#endif
