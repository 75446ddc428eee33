/*
 * The DCFG-trace reader (spec section 3), in one streaming pass. Memory is
 * the string dictionary, the transition table and the longest single
 * EDGE_ID_SEQUENCE string, and 40 bytes for each process id and for each
 * thread id of the current process (a process is listed once, and a
 * thread's chunks are in order across its rows); it does not grow with
 * chunks or edges.
 *
 * The consumer is called for each process, thread and chunk, in file
 * order, and pulls a chunk's edges only if it wants them: a chunk it does
 * not decode costs nothing (the spec's fast-forward).
 */
#ifndef DCFG_TRACE_H
#define DCFG_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

/* Only what these headers declare is exported from libdcfg.so (Makefile: -fvisibility=hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* How deep runs may nest in a decoded chunk and in a stream, and how many lines a period may hold (dcfg-stream(5)). */
#define DCFG_RUN_DEPTH_MAX 64
#define DCFG_RUN_PERIOD_MAX 65536

/* What follows the edges of dcfg_chunk_next_runs(). */
enum dcfg_run_kind {
	DCFG_RUN_NONE,     /* nothing follows the edges */
	DCFG_RUN_BEGIN,    /* a run follows: the next edges, up to its end, run COUNT times */
	DCFG_RUN_END       /* the innermost run ends */
};

struct dcfg_run_event {
	enum dcfg_run_kind kind;
	uint64_t count;    /* of a DCFG_RUN_BEGIN: at least 1 */
};

/* Answers of the consumer's callbacks. */
#define DCFG_TRACE_OK     0
#define DCFG_TRACE_SKIP   1    /* from process and thread: leave its data unread */
#define DCFG_TRACE_STOP   2    /* stop reading, without an error */
#define DCFG_TRACE_ERROR (-1)  /* after dcfg_trace_fail() or dcfg_chunk_fail(), or a failed dcfg_chunk_next() */

struct dcfg_chunk_info {
	uint64_t pid, tid;
	unsigned long index;               /* 0-based, within its thread */
	uint64_t preceding_instr_count, instr_count, edge_count;
	uint32_t first_edge_id;
	size_t sequence_length;            /* characters, as stored */
};

struct dcfg_trace;
struct dcfg_chunk;

/* The consumer's callbacks: each may be NULL (process, thread, chunk: taken as DCFG_TRACE_OK). */
struct dcfg_trace_handler {
	void (*start)(void *ctx);          /* the input is open: reading begins */
	int (*process)(void *ctx, struct dcfg_trace *t, uint64_t pid);
	int (*thread)(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid);
	int (*chunk)(void *ctx, struct dcfg_chunk *c);
	void (*progress)(void *ctx, uint64_t bytes);
	/*
	 * A chunk that starts before its thread's chunk before it ends
	 * (PRECEDING_INSTR_COUNT below PREVIOUS_END), against spec 3.7's
	 * execution order, told when its PRECEDING_INSTR_COUNT is read (of C
	 * only pid, tid, index and preceding_instr_count are known yet).
	 * Answered as chunk is; on OK, chunk is called for it as for any
	 * other. NULL: an error at that PRECEDING_INSTR_COUNT.
	 */
	int (*backward)(void *ctx, struct dcfg_chunk *c, uint64_t previous_end);
	/* Keys or columns out of the order the spec mandates (still readable). May be NULL. */
	void (*order)(void *ctx, const char *what);
	/*
	 * After the whole file is read: the CRC-32 and size of its data,
	 * decompressed, what tells traces apart (as dcfg_identity() tells
	 * DCFGs apart). May be NULL.
	 */
	void (*sum)(void *ctx, uint32_t crc, uint64_t bytes);
};

/*
 * Reads PATH ("-" or NULL: standard input). 0; 1 when stopped; -1 with
 * ERR set when the file is unreadable (syntax, types); -2 with ERR set
 * when it is readable but its data is wrong (a bad transition table or
 * dictionary, a chunk that does not decode, a consumer's error).
 */
int dcfg_trace_read(const char *path, const struct dcfg_trace_handler *h,
    void *ctx, struct dcfg_error *err);

/* An error at the current place (the PROCESS_ID or THREAD_ID value). */
int dcfg_trace_fail(struct dcfg_trace *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * MESSAGE as an error placed at process PID's PROCESS_ID in the trace at
 * PATH, read again up to there, as dcfg-expand places a process that its
 * DCFG lacks: -1 with ERR set (or another error of the file's); 0 when it
 * cannot be placed (standard input, no such process).
 */
int dcfg_trace_fail_process(const char *path, uint64_t pid, const char *message,
    struct dcfg_error *err);

const struct dcfg_chunk_info *dcfg_chunk_info(const struct dcfg_chunk *c);

/*
 * Up to MAX more edge ids of the chunk. Returns how many (0 when the chunk
 * is complete), or -1: return DCFG_TRACE_ERROR and the reader reports
 * where and why.
 */
ssize_t dcfg_chunk_next(struct dcfg_chunk *c, uint32_t *ids, size_t max);

/*
 * The same with runs (dcfg-stream(5)): up to MAX more edge ids, then EV says
 * whether a run begins or ends after them; 0 with DCFG_RUN_NONE when the
 * chunk is complete, -1 as above. A chunk is read one way or the other,
 * from its first edge.
 */
ssize_t dcfg_chunk_next_runs(struct dcfg_chunk *c, uint32_t *ids, size_t max,
    struct dcfg_run_event *ev);

/* The edges of the chunk decoded so far, the runs' copies included. */
uint64_t dcfg_chunk_emitted(const struct dcfg_chunk *c);

/* Starts the chunk's decoding again from its first edge. */
void dcfg_chunk_rewind(struct dcfg_chunk *c);

/* An error about edge EDGE_INDEX of the chunk, found by the consumer. */
int dcfg_chunk_fail(struct dcfg_chunk *c, uint64_t edge_index, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * An error about the chunk's row as a whole (its counts, not one edge),
 * found by the consumer: "process P thread T chunk C: ..." at the chunk's
 * EDGE_ID_SEQUENCE, where decoding errors are placed.
 */
int dcfg_chunk_fail_row(struct dcfg_chunk *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Instruction windows (dcfg-expand(1), INSTRUCTION WINDOWS): which chunks
 * the window [FROM, TO) takes, and, read as dcfg_chunk_next() reads, the
 * edges it takes of each (dcfg_chunk_window_new(3)). With a DCFG, every
 * edge is checked to be its process's and a chunk the window's edges cut
 * is cut exactly, by each edge's source's NUM_INSTRS; without, the
 * chunks that overlap the window are taken whole.
 */
enum dcfg_window_place {
	DCFG_WINDOW_SKIP,     /* the chunk is wholly outside: nothing to decode */
	DCFG_WINDOW_WHOLE,    /* every edge of the chunk is taken */
	DCFG_WINDOW_CUT       /* the window's edges cut the chunk (with a DCFG only) */
};

struct dcfg;
struct dcfg_process;
struct dcfg_chunk_window;

/* EXACT: a DCFG cuts the chunk. -1 (the chunk is failed) when its end passes 64 bits. */
int dcfg_chunk_window_place(struct dcfg_chunk *c, uint64_t from, uint64_t to, int exact);

/* FROM 0 and TO UINT64_MAX: no window. D and P may be NULL (no DCFG). NULL: out of memory. */
struct dcfg_chunk_window *dcfg_chunk_window_new(const struct dcfg *d,
    const struct dcfg_process *p, uint64_t from, uint64_t to);
/* Begins chunk C: its place, or -1 (the chunk is failed). */
int dcfg_chunk_window_start(struct dcfg_chunk_window *w, struct dcfg_chunk *c);
/* Up to MAX more edge ids the window takes of the chunk begun: 0 at its end, -1 (failed). */
ssize_t dcfg_chunk_window_next(struct dcfg_chunk_window *w, uint32_t *ids, size_t max);
void dcfg_chunk_window_free(struct dcfg_chunk_window *w);

/*
 * The reader as pull iteration (dcfg_trace_pull_open(3)): dcfg_trace_read
 * runs on a thread of its own, which hands over each process, thread and
 * chunk and waits for its answer; memory is one event.
 */
enum dcfg_trace_event_kind {
	DCFG_EVENT_PROCESS,
	DCFG_EVENT_THREAD,
	DCFG_EVENT_CHUNK
};

struct dcfg_trace_event {
	enum dcfg_trace_event_kind kind;
	uint64_t pid, tid;                 /* tid: of a thread or chunk */
	struct dcfg_trace *trace;          /* of a process or thread: for dcfg_trace_fail() */
	struct dcfg_chunk *chunk;          /* of a chunk */
};

/* dcfg_trace_pull_next(): an event; no event yet (the wait passed). */
#define DCFG_TRACE_PULL_EVENT 3
#define DCFG_TRACE_PULL_WAIT  4

struct dcfg_trace_pull;

/*
 * Starts reading PATH ("-" or NULL: standard input), handing over only the
 * processes whose ids are among the N_PIDS PIDS and the threads among the
 * N_TIDS TIDS (NULL: all), as dcfg-expand -p and -t select them. NULL:
 * out of memory or no thread.
 */
struct dcfg_trace_pull *dcfg_trace_pull_open(const char *path, const uint64_t *pids,
    size_t n_pids, const uint64_t *tids, size_t n_tids);
/*
 * The event to answer, waited for at most WAIT_MS milliseconds (-1: no
 * limit): DCFG_TRACE_PULL_EVENT with EV set (the same until answered),
 * DCFG_TRACE_PULL_WAIT, or, once the reading is over, what
 * dcfg_trace_read() returned (0, 1, or -1 and -2 with ERR set; -2 also
 * when a process or thread selected is not in the trace, dcfg-expand's error).
 */
int dcfg_trace_pull_next(struct dcfg_trace_pull *r, struct dcfg_trace_event *ev,
    int wait_ms, struct dcfg_error *err);
/* Answers the event as a handler would (DCFG_TRACE_OK, _SKIP, _STOP, _ERROR). */
void dcfg_trace_pull_answer(struct dcfg_trace_pull *r, int answer);
/* Stops the reading and frees R; the reader, if still busy after WAIT_MS, ends on its own. */
void dcfg_trace_pull_close(struct dcfg_trace_pull *r, int wait_ms);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
