/*
 * dcfg-count --bbv: SimPoint basic-block vectors of a thread's block
 * executions, one each time the executions reach the interval. A run of a
 * version 2 stream (dcfg-stream(5)) is kept until it ends and then added
 * by whole copies wherever no interval closes inside them; only a copy in
 * which an interval closes is walked line by line, so the time goes with
 * the vectors written, not with the run's count.
 */
#ifndef DCFG_COUNT_BBV_H
#define DCFG_COUNT_BBV_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg.h"
#include "output.h"
#include "stream.h"
#include "tally.h"

struct dcfg_bbv_item;

struct dcfg_bbv {
	const struct dcfg *d;
	struct dcfg_output *out;
	uint64_t interval;
	struct dcfg_tally tally;   /* per block: instructions in this interval */
	uint64_t instrs;           /* in this interval, always below INTERVAL between lines */
	int overflow;              /* a count went past 2^64 - 1: the vectors would lie */
	/* the outermost open run and the runs in it, kept until it ends */
	struct dcfg_bbv_item *items; size_t n_items, cap_items;
	uint32_t open[DCFG_RUN_DEPTH_MAX];
	unsigned depth;
};

/* 0, or -1 when out of memory. */
int dcfg_bbv_init(struct dcfg_bbv *v, const struct dcfg *d, struct dcfg_output *out,
    uint64_t interval);
void dcfg_bbv_free(struct dcfg_bbv *v);

/*
 * A data line that enters block BLOCK (an index in d->blocks) of NUM_INSTRS
 * NI, with the line's WEIGHT (stream.h). -1 when out of memory or on an
 * overflow (V->overflow set).
 */
int dcfg_bbv_line(struct dcfg_bbv *v, uint32_t block, uint64_t ni, uint64_t weight);
/* A "# run" or "# end run" record; at the outermost end the run is added. -1 as above. */
int dcfg_bbv_run(struct dcfg_bbv *v, const struct dcfg_stream_record *r);
/* Writes the interval so far, if it holds anything, and starts a new one. -1: out of memory. */
int dcfg_bbv_flush(struct dcfg_bbv *v);

#endif
