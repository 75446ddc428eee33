/*
 * dcfg-count --bbv: SimPoint basic-block vectors of a thread's block
 * executions, at fixed instruction counts (dcfg-count(1), BASIC-BLOCK
 * VECTORS). A thread section keeps its position: the instruction count
 * before the next data line's edge, from 0 or from a chunk marker. Each
 * block execution starts at the position plus its edge's source
 * instructions and adds its NUM_INSTRS to the interval that count lies in,
 * position / INTERVAL; the vectors are written in increasing interval,
 * with "# interval", "# skip" and "# instructions" lines that say where
 * they lie.
 *
 * A run of a version 2 stream (dcfg-stream(5)) is kept until it ends and
 * then added by whole copies wherever all of a copy's block starts lie in
 * one interval; only a copy whose block starts lie in two is walked line
 * by line, so the time goes with the vectors written, not with the run's
 * count.
 */
#ifndef DCFG_COUNT_BBV_H
#define DCFG_COUNT_BBV_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include "common/output.h"
#include <dcfg/stream.h>
#include "common/tally.h"
#include "stream/runwalk.h"

/* A data line that enters no block (or one of no instructions). */
#define DCFG_BBV_NO_BLOCK UINT32_MAX

struct dcfg_bbv_entry;

struct dcfg_bbv {
	const struct dcfg *d;
	struct dcfg_output *out;
	uint64_t interval;
	struct dcfg_tally tally;   /* per block: its instructions in interval CUR */
	struct dcfg_bbv_entry *sorted;   /* room to sort the tally's blocks */
	size_t cap_sorted;
	/* the thread section */
	int open;                  /* one is open */
	int data;                  /* it has had a data line */
	int anchored;              /* a chunk marker came before its first data line */
	int written;               /* a vector was written; LAST is its interval */
	uint64_t pos;              /* the instruction count before the next edge */
	uint64_t from;             /* anchored: the first chunk marker's PRECEDING */
	uint64_t cur, last;
	uint64_t lo, hi;           /* the instructions of interval CUR, [LO, HI); HI saturates */
	int overflow;              /* a count went past 2^64 - 1: the vectors would lie */
	/* the outermost open run and the runs in it, kept until it ends */
	struct dcfg_runwalk runs;
};

/* 0, or -1 when out of memory. */
int dcfg_bbv_init(struct dcfg_bbv *v, const struct dcfg *d, struct dcfg_output *out,
    uint64_t interval);
void dcfg_bbv_free(struct dcfg_bbv *v);

/*
 * Starts a thread section (after its "# thread" line is written): position
 * 0, unanchored. The caller ends the one before with dcfg_bbv_end.
 */
void dcfg_bbv_start(struct dcfg_bbv *v);
/*
 * A chunk marker of the open section, whose PRECEDING becomes the
 * position. -1 when it goes back (PRECEDING below v->pos, left as it was).
 */
int dcfg_bbv_chunk(struct dcfg_bbv *v, uint64_t preceding);
/*
 * A data line of the open section: its edge's source block has SRC
 * instructions (0 for a special node), and it enters block BLOCK (an index
 * in d->blocks, or DCFG_BBV_NO_BLOCK) of NUM_INSTRS NI, with the line's
 * WEIGHT (stream.h). -1 when out of memory or on an overflow (V->overflow
 * set).
 */
int dcfg_bbv_line(struct dcfg_bbv *v, uint64_t src, uint32_t block, uint64_t ni,
    uint64_t weight);
/* A "# run" or "# end run" record; at the outermost end the run is added. -1 as above. */
int dcfg_bbv_run(struct dcfg_bbv *v, const struct dcfg_stream_record *r);
/*
 * Ends the open section, if any: writes its last vector and, anchored,
 * its "# instructions" line.
 */
void dcfg_bbv_end(struct dcfg_bbv *v);

#endif
