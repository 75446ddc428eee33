/*
 * The runs of a version 2 stream (dcfg-stream(5), Runs), for a consumer
 * that adds up a run by whole copies instead of expanding it: the
 * outermost open run is kept as an array of items (its lines and inner
 * runs) until it ends, then walked on an explicit stack. Each run knows
 * how far a copy of its period moves the position and where its first and
 * last marked block starts lie, so the consumer (a struct of callbacks
 * plus a context, struct dcfg_runwalk_ops) can add many copies at once and
 * have only the copies it must see walked line by line. dcfg-count --bbv
 * and dcfg-profile use it. Nothing here allocates per line once the array
 * has grown, and nothing prints.
 */
#ifndef DCFG_RUNWALK_H
#define DCFG_RUNWALK_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/stream.h>
#include <dcfg/trace.h>     /* DCFG_RUN_DEPTH_MAX */

/* A line's BLOCK when it enters none; an item's BLOCK when it is a run. */
#define DCFG_RUNWALK_NONE UINT32_MAX
#define DCFG_RUNWALK_RUN (UINT32_MAX - 1)

/* Return codes (besides 0). */
#define DCFG_RUNWALK_ECALLBACK (-1)   /* a callback failed, with its own error */
#define DCFG_RUNWALK_ENOMEM (-2)      /* out of memory, or a run of 2^32 - 2 items */
#define DCFG_RUNWALK_EDEEP (-3)       /* runs nested deeper than DCFG_RUN_DEPTH_MAX */

/*
 * A line of a kept run (BLOCK the consumer's block or DCFG_RUNWALK_NONE)
 * or a run (BLOCK DCFG_RUNWALK_RUN). A run's S is how far a copy of its
 * period moves the position, and FIRST and LAST where, from the copy's
 * start, its first and last marked block starts lie (FIRST > LAST: none);
 * all three saturate at UINT64_MAX, and BIG says S did. BLOCKS: a copy
 * enters some block.
 */
struct dcfg_runwalk_item {
	uint64_t n;          /* a run: its COUNT; a line: the consumer's AUX */
	uint64_t s;          /* a line: its source's NUM_INSTRS; a run: as above */
	uint64_t weight;     /* a line: its weight; a run: the weight of its period's own lines */
	uint64_t first, last;
	uint32_t block;
	uint32_t end;        /* a run: the index after the last item of its period */
	int big, blocks;
};

struct dcfg_runwalk;

/*
 * What the consumer does with a run's copies, each called with the
 * context CTX. Every callback returns -1 on failure (its own error set),
 * which the walk returns as DCFG_RUNWALK_ECALLBACK.
 */
struct dcfg_runwalk_ops {
	/*
	 * The LEFT copies of run R, at the position, when they start no
	 * block: 1 when they were handled (the position moved past them), 0
	 * when they must be added as any others, -1.
	 */
	int (*bare)(void *ctx, const struct dcfg_runwalk_item *r, uint64_t left);
	/* How many of the LEFT copies of run R can be added at once; 0: walk the next one. */
	uint64_t (*whole)(void *ctx, const struct dcfg_runwalk_item *r, uint64_t left);
	/*
	 * K whole copies of the run at index RUN of RW->items (its period is
	 * items RUN + 1 to its END), position included. 0 or -1.
	 */
	int (*add)(void *ctx, const struct dcfg_runwalk *rw, uint32_t run, uint64_t k);
	/* One execution of line IT of a walked copy. 0 or -1. */
	int (*step)(void *ctx, const struct dcfg_runwalk_item *it);
};

struct dcfg_runwalk {
	const struct dcfg_runwalk_ops *ops;
	void *ctx;
	/*
	 * Whether an inner run of COUNT 0 still marks its outer run where its
	 * copies would lie (dcfg-count --bbv's choice; dcfg-profile's is not).
	 */
	int mark_empty;
	/* the outermost open run and the runs in it, kept until it ends */
	struct dcfg_runwalk_item *items;
	size_t n_items, cap_items;
	uint32_t open_runs[DCFG_RUN_DEPTH_MAX];
	unsigned depth;
};

/* An empty walker over OPS and CTX. It allocates nothing until a run comes. */
void dcfg_runwalk_init(struct dcfg_runwalk *rw, const struct dcfg_runwalk_ops *ops, void *ctx,
    int mark_empty);
void dcfg_runwalk_free(struct dcfg_runwalk *rw);
/* Forgets the runs open (a new thread section). */
void dcfg_runwalk_reset(struct dcfg_runwalk *rw);

/* Whether a run is open: data lines go to dcfg_runwalk_line, not to the consumer. */
static inline int
dcfg_runwalk_open(const struct dcfg_runwalk *rw)
{
	return rw->depth > 0;
}

/*
 * A data line inside the open run: its source has SRC instructions, it
 * enters BLOCK (or DCFG_RUNWALK_NONE), AUX is kept for the consumer
 * (item N), WEIGHT is the line's (stream.h), and MARK says its block start
 * counts in the run's FIRST and LAST. A line that moves the position by
 * nothing and enters no block is not kept. 0 or DCFG_RUNWALK_ENOMEM.
 */
int dcfg_runwalk_line(struct dcfg_runwalk *rw, uint64_t src, uint32_t block, uint64_t aux,
    uint64_t weight, int mark);
/*
 * A "# run" or "# end run" record (other kinds, and an end with no run
 * open, are ignored). The end of the outermost run walks it through the
 * callbacks. 0, DCFG_RUNWALK_ECALLBACK, DCFG_RUNWALK_ENOMEM or
 * DCFG_RUNWALK_EDEEP.
 */
int dcfg_runwalk_record(struct dcfg_runwalk *rw, const struct dcfg_stream_record *r);

#endif
