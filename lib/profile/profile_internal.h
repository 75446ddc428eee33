/*
 * Inside dcfg-profile: the process being profiled, each thread's slicing
 * state, and the runs of a version 2 stream kept until they end.
 *
 * Blocks are numbered within the process (an index in its BASIC_BLOCKS
 * rows). A thread's vectors number them again, from 1, in the order the
 * thread first entered them (PinPoints' dimensions): SimPoint's memory
 * grows with the largest dimension, and a node id may be near 2^32. A
 * part numbers them in the order of their first entries in the shard, and
 * lists each piece's new ones, so that the merge numbers them as one run
 * does. A thread's position is the instruction count before its next
 * edge (dcfg-count(1), BASIC-BLOCK VECTORS); each entry of a block of
 * instructions starts there, and is a boundary when it is eligible and
 * the grid interval of its start, start / SLICE_SIZE, passes that of the
 * eligible entry before it (0 before the first): exactly "the first
 * eligible entry at or after k * SLICE_SIZE" for each grid point k. Under
 * LoopPoint's rule it is one when its start reaches the thread's
 * threshold, the boundary before's start plus SLICE_SIZE (SLICE_SIZE
 * before the first), which the boundary then moves on.
 */
#ifndef DCFG_PINPOINTS_INTERNAL_H
#define DCFG_PINPOINTS_INTERNAL_H

#include <stdint.h>

#include "profile.h"
#include "common/tally.h"
#include "stream/provenance.h"
#include "stream/runwalk.h"

#define DCFG_PINPOINTS_NONE UINT32_MAX
/*
 * The first words of a part's (and a summary's) first line: 3 since parts
 * list each piece's new blocks ("n" lines), from which the merge numbers
 * the dimensions.
 */
#define DCFG_PINPOINTS_PART_MAGIC "# dcfg-profile-part 3 "

/* LoopPoint's rule: each boundary placed by the one before it, not by the grid. */
static inline int
dcfg_pinpoints_chained(const struct dcfg_pinpoints_options *o)
{
	return o->loop_aligned && !o->loop_grid;
}

/* A vector's entry: a block's dimension in the thread, its instructions. */
struct dcfg_pinpoints_pair {
	uint32_t dim;
	uint64_t value;
};

/* What the slices need to know of a block. */
struct dcfg_pinpoints_block {
	uint64_t ni;          /* NUM_INSTRS */
	uint32_t node;
	uint8_t eligible;     /* may end a slice under the rule */
	uint8_t excluded;     /* in an --exclude-image image: not in the vectors */
};

/* A slice closed by a boundary, held until the next one shows it is not the last. */
struct dcfg_pinpoints_slice {
	struct dcfg_pinpoints_pair *v; size_t n, cap;
	uint64_t end;         /* the start of its boundary, or the thread's final position */
	uint64_t unfiltered;
	uint32_t block;       /* the marker that ends it: a block and its count */
	uint64_t count;
};

struct dcfg_pinpoints_thread {
	uint64_t tid;
	struct dcfg_output *out;      /* NULL until its first entry (or the caller's) */
	int own_out;                  /* OUT is a BASE.T.<tid>.bb this thread opened, */
	char *path;                   /* this one */
	int started;                  /* it has had an entry, of FIRST_BLOCK */
	int headed;                   /* its file is open and its head written */
	int seen_eligible;            /* --part: an eligible entry came */
	int anchored;                 /* a chunk marker came */
	int no_start;                 /* --starts gives it no threshold */
	int begun;                    /* a data line or a chunk marker came */
	char piece_kind;              /* --part: how the open piece starts: 'h' head, 'c', 'b' */
	uint32_t piece_block;
	uint64_t piece_start, piece_count;
	uint32_t first_block;
	uint64_t pos, last_q;
	uint64_t threshold;           /* LoopPoint's rule: where an eligible entry ends the slice */
	uint64_t from;                /* where the thread's stream starts (its first chunk marker) */
	struct dcfg_pinpoints_chains *chains;   /* --summary (profile_summary.c) */
	uint64_t replay_at;           /* --merge: where the pieces so far end, each the next's start */
	uint64_t *counts;             /* per block: entries so far */
	uint32_t *dim;                /* per block: its dimension, 0 before its first entry */
	uint32_t *by_dim;             /* the blocks entered, by dimension (dimension - 1) */
	uint32_t n_dims;
	uint32_t dims_listed;         /* --part: the first of BY_DIM that no "n" line lists yet */
	uint64_t *pc_counts;          /* per PC (pc_of): entries of its blocks so far, a marker's count */
	uint8_t *marked;              /* per PC: a marker of the file names it */
	struct dcfg_tally tally;           /* per block: instructions in the open slice, kept blocks */
	uint64_t unfiltered;          /* the open slice's instructions, every block */
	uint32_t last_block;          /* the last entry's */
	int pending;                  /* HELD is a closed slice not yet written */
	uint64_t slices;              /* T lines written */
	struct dcfg_pinpoints_slice held, scratch;
	uint64_t total, total_unfiltered;
};


struct dcfg_pinpoints {
	const struct dcfg *d;
	const struct dcfg_pinpoints_options *o;
	const struct dcfg_process *p;  /* the process profiled, once chosen */
	const struct dcfg_stage *s;
	const char *name;              /* the stream's, for messages */
	const char *c_line;            /* a merge: the parts' "C:" line, else NULL */
	struct dcfg_error *err;
	struct dcfg_pinpoints_block *blocks; size_t n_blocks;
	/*
	 * A simulator counts a PC's executions, not a block's entries: blocks
	 * that start at one address (an image loaded over an unloaded one,
	 * code modified) share one PC, numbered in ascending address order.
	 */
	uint32_t *by_addr;             /* the blocks of instructions in ascending address */
	size_t n_by_addr;
	uint32_t *pc_of;               /* per block: its PC */
	size_t n_pcs;
	uint8_t *warned;               /* per PC: its marker was said to be inside a block */
	uint64_t *src;                 /* per edge of P: its source's NUM_INSTRS */
	uint32_t *target;              /* per edge of P: the block of instructions it enters, or NONE */
	struct dcfg_pinpoints_thread **threads; size_t n_threads, cap_threads;
	struct dcfg_pinpoints_thread *cur;   /* NULL: lines are skipped */
	int in_process;                /* the stream's current process is P */
	int section_thread;            /* its section has had a "# thread" line */
	int oom;                       /* a thread could not be made */
	/* --part: what the stream says it covers (provenance.h) */
	struct dcfg_recorded_selection sel;
	int has_sel, traced;
	int part_begun;                /* the part's head and selection are written */
	/* --part without -p: the processes whose sections are written, each once */
	uint64_t *parted; size_t n_parted, cap_parted;
	uint32_t trace_crc;
	uint64_t trace_bytes;
	int overflow;                  /* a count went past 2^64 - 1 */
	/* --part --starts: the thresholds of the shard's threads, and the trace they are of */
	struct dcfg_pinpoints_starts *starts;
	int starts_traced;
	uint32_t starts_crc;
	uint64_t starts_bytes;
	/* the outermost open run and the runs in it, kept until it ends */
	struct dcfg_runwalk runs;
};

/* ---- profile.c ---- */
/* What each block and edge of P is to the slices. -1 with PR->err set. */
int dcfg_pinpoints_setup_process(struct dcfg_pinpoints *pr, const struct dcfg_process *p);
/* Thread TID's state, made on first sight; NULL when out of memory. */
struct dcfg_pinpoints_thread *dcfg_pinpoints_thread_for(struct dcfg_pinpoints *pr, uint64_t tid);
/* The address of block B's last instruction. */
uint64_t dcfg_pinpoints_last_pc(const struct dcfg_block *b);
/* Every thread's end, and the files renamed into place. 0, 1 (a write failed), -1. */
int dcfg_pinpoints_finish_threads(struct dcfg_pinpoints *pr, struct dcfg_error *err);
/* The process's state (its blocks and threads) freed, for the next process of a part. */
void dcfg_pinpoints_process_free(struct dcfg_pinpoints *pr);
void dcfg_pinpoints_free(struct dcfg_pinpoints *pr);

/* ---- profile_slice.c ---- */
/* The rule's name in the files' first line: "fixed", "loop" or "loop-grid". */
const char *dcfg_pinpoints_rule_name(const struct dcfg_pinpoints_options *o);
/* The "C:" line, from the options. */
void dcfg_pinpoints_write_options(struct dcfg_pinpoints *pr, struct dcfg_output *out);
/* Block B's dimension in thread T, the next one at its first entry. */
uint32_t dcfg_pinpoints_dim(struct dcfg_pinpoints_thread *t, uint32_t b);
int dcfg_pinpoints_thread_init(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint64_t tid);
void dcfg_pinpoints_thread_free(struct dcfg_pinpoints_thread *t);
/*
 * An entry of block B at the thread's position. Here and below, -1 with
 * PR->err set: out of memory, an overflow, or a file not opened.
 */
int dcfg_pinpoints_entry(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b);
/* Sets PR->err to "a count does not fit" and returns -1. */
int dcfg_pinpoints_overflow(struct dcfg_pinpoints *pr);
/* X more instructions of block B in the open slice's vector. */
int dcfg_pinpoints_add_instrs(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b,
    uint64_t x);
/*
 * The open slice ends before an entry of B that starts at START and is
 * B's COUNT-th; an empty one is joined to the next instead.
 */
int dcfg_pinpoints_boundary(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b,
    uint64_t start, uint64_t count);
/* The open slice's vector into SL, by dimension; the tally cleared. */
void dcfg_pinpoints_take_vector(struct dcfg_pinpoints_thread *t, struct dcfg_pinpoints_slice *sl);

/* ---- profile_part.c ---- */
/*
 * --part: the piece of the thread since the last eligible entry that may
 * be a boundary is written ("p" line), and a new one starts at entry B,
 * of KIND 'c' (the shard's first eligible entry: a candidate) or 'b' (a
 * boundary for sure). The thread's position is its start.
 */
void dcfg_pinpoints_piece(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, char kind,
    uint32_t b);
/* --part: the thread's first entry ("f" line), which the merge needs before any slice. */
void dcfg_pinpoints_part_first(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t);
/* --part --starts: the thread's "s" line, the threshold it comes in with. */
void dcfg_pinpoints_part_threshold(struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t);
/* --part: a thread's last piece and its summary lines (--summary: its summary). 0 or -1. */
int dcfg_pinpoints_part_thread_end(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t);
/* --part: the file's head (what the profile is) and the stream's selection, once. */
void dcfg_pinpoints_part_begin(struct dcfg_pinpoints *pr);
/*
 * --part: the process P starts a section of the part ("# process PID"),
 * the section before it (another process's) ended first. -1 with
 * PR->err set.
 */
int dcfg_pinpoints_part_process(struct dcfg_pinpoints *pr, const struct dcfg_process *p);
/* --part: a "# selection" or "# trace" line, or another comment of the stream. */
int dcfg_pinpoints_part_meta(struct dcfg_pinpoints *pr, const struct dcfg_stream_record *r,
    struct dcfg_error *err);
/* --part: the section of the process profiled ends: its threads' last pieces and summaries. 0 or -1. */
int dcfg_pinpoints_part_process_end(struct dcfg_pinpoints *pr);

/* TIMES more entries of block B in the open slice, none of them a boundary. */
int dcfg_pinpoints_add(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b,
    uint64_t times);
/* The thread's end: its last slices and trailer. 0 written, 1 nothing to write, -1. */
int dcfg_pinpoints_thread_end(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t);

/* ---- profile_summary.c ---- */
/* --summary: an eligible entry at the thread's position. */
int dcfg_pinpoints_summary_eligible(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t);
/* --summary: the lowest start at which an eligible entry changes anything (0: any). */
uint64_t dcfg_pinpoints_summary_lowest(const struct dcfg_pinpoints_thread *t);
/*
 * --summary in a run RUN of copies of S instructions, at the start of a
 * copy with LEFT to go: how many can be added at once as a turn of the
 * FIFO (0: walk the next), which summary_turn then makes for K of them.
 */
uint64_t dcfg_pinpoints_summary_whole(struct dcfg_pinpoints_thread *t, const void *run, uint64_t s,
    uint64_t left);
int dcfg_pinpoints_summary_turn(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint64_t k,
    uint64_t s);
/* --summary: the thread's lines (the file's head is a part's, profile_part.c). */
int dcfg_pinpoints_summary_thread_end(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t);
void dcfg_pinpoints_summary_free(struct dcfg_pinpoints_thread *t);

/* ---- profile_starts.c ---- */
struct dcfg_merge_part;
/* Whether a part's first line is that of a --summary. */
int dcfg_pinpoints_is_summary(const char *head);
/* --merge of the N summaries BY_SHARD into the starts file PATH. 0, or -1 with PR->err set. */
int dcfg_pinpoints_merge_summaries(struct dcfg_pinpoints *pr, struct dcfg_merge_part *const *by_shard,
    size_t n, const char *path);
/* --part --starts: the starts of the stream's shard read (PR->p and PR->sel known). */
int dcfg_pinpoints_starts_load(struct dcfg_pinpoints *pr);
/* The incoming threshold of thread TID: 0, or -1 when the starts have none. */
int dcfg_pinpoints_starts_threshold(const struct dcfg_pinpoints *pr, uint64_t tid, uint64_t *threshold);
/* At the end: the starts are of the stream's trace. */
int dcfg_pinpoints_starts_check_trace(struct dcfg_pinpoints *pr);
void dcfg_pinpoints_starts_free(struct dcfg_pinpoints *pr);

/* ---- profile_runs.c ---- */
/* A data line of the current thread: its edge moves the position by SRC and enters block B (or NONE). */
int dcfg_pinpoints_line(struct dcfg_pinpoints *pr, uint64_t src, uint32_t b, uint64_t weight);
/* A "# run" or "# end run" record; at the outermost end the run is added. */
int dcfg_pinpoints_run(struct dcfg_pinpoints *pr, const struct dcfg_stream_record *r);
/* PR's runs, walked by this file's callbacks with PR (a run comes only after this). */
void dcfg_pinpoints_runs_init(struct dcfg_pinpoints *pr);
void dcfg_pinpoints_runs_free(struct dcfg_pinpoints *pr);

#endif
