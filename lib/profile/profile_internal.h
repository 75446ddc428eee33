/*
 * Inside dcfg-profile: the process being profiled, each thread's slicing
 * state, and the runs of a version 2 stream kept until they end.
 *
 * Blocks are numbered within the process (an index in its BASIC_BLOCKS
 * rows). A thread's position is the instruction count before its next
 * edge (dcfg-count(1), BASIC-BLOCK VECTORS); each entry of a block of
 * instructions starts there, and is a boundary when it is eligible and
 * the grid interval of its start, start / SLICE_SIZE, passes that of the
 * eligible entry before it (0 before the first): exactly "the first
 * eligible entry at or after k * SLICE_SIZE" for each grid point k.
 */
#ifndef DCFG_PROFILE_INTERNAL_H
#define DCFG_PROFILE_INTERNAL_H

#include <stdint.h>

#include "profile.h"
#include "common/tally.h"

#define DCFG_PROFILE_NONE UINT32_MAX

struct dcfg_profile_pair {
	uint32_t node;
	uint64_t value;
};

/* What the slices need to know of a block. */
struct dcfg_profile_block {
	uint64_t ni;          /* NUM_INSTRS */
	uint32_t node;
	uint8_t eligible;     /* may end a slice under the rule */
	uint8_t excluded;     /* in an --exclude-image image: not in the vectors */
};

/* A slice closed by a boundary, held until the next one shows it is not the last. */
struct dcfg_profile_slice {
	struct dcfg_profile_pair *v; size_t n, cap;
	uint64_t end;         /* the start of its boundary, or the thread's final position */
	uint64_t unfiltered;
	uint32_t block;       /* the marker that ends it: a block and its count */
	uint64_t count;
};

struct dcfg_profile_thread {
	uint64_t tid;
	struct dcfg_output *out;      /* NULL until its first entry (or the caller's) */
	int own_out;                  /* OUT is a BASE.T.<tid>.bb this thread opened, */
	char *path;                   /* this one */
	int started;                  /* it has had an entry, of FIRST_BLOCK */
	int headed;                   /* its file is open and its head written */
	uint32_t first_block;
	uint64_t pos, last_q;
	uint64_t *counts;             /* per block: entries so far */
	struct dcfg_tally tally;           /* per block: instructions in the open slice, kept blocks */
	uint64_t unfiltered;          /* the open slice's instructions, every block */
	uint32_t last_block;          /* the last entry's */
	int pending;                  /* HELD is a closed slice not yet written */
	struct dcfg_profile_slice held, scratch;
	uint64_t total, total_unfiltered;
};

struct dcfg_profile_item;

struct dcfg_profile {
	const struct dcfg *d;
	const struct dcfg_profile_options *o;
	const struct dcfg_process *p;  /* the process profiled, once chosen */
	const struct dcfg_stage *s;
	const char *name;              /* the stream's, for messages */
	struct dcfg_error *err;
	struct dcfg_profile_block *blocks; size_t n_blocks;
	uint32_t *by_node;             /* the blocks in ascending node id */
	uint64_t *src;                 /* per edge of P: its source's NUM_INSTRS */
	uint32_t *target;              /* per edge of P: the block of instructions it enters, or NONE */
	struct dcfg_profile_thread **threads; size_t n_threads, cap_threads;
	struct dcfg_profile_thread *cur;   /* NULL: lines are skipped */
	int in_process;                /* the stream's current process is P */
	int section_thread;            /* its section has had a "# thread" line */
	int oom;                       /* a thread could not be made */
	int overflow;                  /* a count went past 2^64 - 1 */
	/* the outermost open run and the runs in it, kept until it ends */
	struct dcfg_profile_item *items; size_t n_items, cap_items;
	uint32_t open_runs[DCFG_RUN_DEPTH_MAX];
	unsigned depth;
};

/* ---- profile_slice.c ---- */
/* qsort's order of pairs: by node. */
int dcfg_profile_pair_cmp(const void *a, const void *b);
int dcfg_profile_thread_init(struct dcfg_profile *pr, struct dcfg_profile_thread *t, uint64_t tid);
void dcfg_profile_thread_free(struct dcfg_profile_thread *t);
/*
 * An entry of block B at the thread's position. Here and below, -1 with
 * PR->err set: out of memory, an overflow, or a file not opened.
 */
int dcfg_profile_entry(struct dcfg_profile *pr, struct dcfg_profile_thread *t, uint32_t b);
/* Sets PR->err to "a count does not fit" and returns -1. */
int dcfg_profile_overflow(struct dcfg_profile *pr);
/* TIMES more entries of block B in the open slice, none of them a boundary. */
int dcfg_profile_add(struct dcfg_profile *pr, struct dcfg_profile_thread *t, uint32_t b,
    uint64_t times);
/* The thread's end: its last slices and trailer. 0 written, 1 nothing to write, -1. */
int dcfg_profile_thread_end(struct dcfg_profile *pr, struct dcfg_profile_thread *t);

/* ---- profile_runs.c ---- */
/* A data line of the current thread: its edge moves the position by SRC and enters block B (or NONE). */
int dcfg_profile_line(struct dcfg_profile *pr, uint64_t src, uint32_t b, uint64_t weight);
/* A "# run" or "# end run" record; at the outermost end the run is added. */
int dcfg_profile_run(struct dcfg_profile *pr, const struct dcfg_stream_record *r);
void dcfg_profile_runs_free(struct dcfg_profile *pr);

#endif
