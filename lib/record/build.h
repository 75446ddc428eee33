/*
 * The recorded graph built from a spool: dynamic blocks cut from the
 * translation blocks (blocks.c), then the edges, found by streaming each
 * thread's blocks (walk.c). The same walk, run again, gives the trace
 * its edge ids in order (trace.c).
 */
#ifndef DCFG_RECORD_BUILD_H
#define DCFG_RECORD_BUILD_H

#include <stdint.h>

#include <dcfg/error.h>
#include "graph.h"
#include "isa.h"
#include "spool_read.h"

/* Interrupted places a thread remembers for its context-change returns (signals nest). */
#define REC_CC_DEPTH 64

/* A trace chunk as the counting pass measured it. */
struct rec_chunk {
	uint64_t preceding, instrs, edges;
};

struct rec_build {
	const struct rec_spool *s;
	struct dcfg_rec_graph *g;
	uint64_t chunk_instrs;           /* 0: one chunk a thread */
	/* a translation block is the blocks piece_block[tb_first_piece[tb] ... tb_first_piece[tb + 1]) */
	uint32_t *tb_first_piece;
	uint32_t *piece_block;
	struct rec_insn *insn;           /* per block: its last instruction */
	/* edges: an open-addressing table of 1 + edge index, keyed by (source, target, kind) */
	uint32_t *slots;     size_t n_slots;
	size_t cap_edges;
	uint32_t *last_out;              /* per node id: 1 + the edge last taken from it */
	/*
	 * Per translation block: 1 + the one that last followed it (high half)
	 * and the edge between them (low half), when its kind did not depend
	 * on the thread's interrupted places: the next step the same way
	 * needs neither a classification nor a look-up.
	 */
	uint64_t *tb_next_edge;
	uint32_t *piece_edge;            /* per piece: 1 + the fall-through edge into it, 0 a first piece */
	uint32_t *tb_head, *tb_tail;     /* per translation block: instructions of its pieces but the last, of its last */
	uint64_t *tb_runs;               /* per translation block: the counted thread's executions */
	uint32_t *edge_instrs;   size_t cap_edge_instrs;     /* per edge: its source's instructions */
	uint64_t *thread_counts; size_t n_thread_counts;     /* per edge: the walked thread's counts */
	/* the chunks of every thread, thread by thread */
	struct rec_chunk *chunks;   size_t n_chunks, cap_chunks;
	size_t *thread_chunks;           /* n_threads + 1: thread t has chunks [t, t + 1) */
	/* progress over the thread files, both passes */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	uint64_t bytes_total, bytes_done;
	uint64_t thread_preceding;       /* the walked thread's header: instructions before it */
};

/* Blocks, images and instruction lengths into B->g (pid, arch, threads too). 0, -1 with ERR. */
int rec_blocks_build(struct rec_build *b, const char *program_path, struct dcfg_error *err);

/*
 * Where a walk puts the edge ids (EDGE_ID: index + 1) the thread takes:
 * IDS, room for CAP (at least REC_MAX_TB_INSNS + 1), handed to FLUSH
 * when full and at the end; FLUSH's non-zero stops the walk with it.
 */
struct rec_id_sink {
	uint32_t *ids;
	size_t cap;
	int (*flush)(void *ctx, const uint32_t *ids, size_t n);
	void *ctx;
};

/*
 * Walks THREAD's blocks again after the counting pass, its edge ids in
 * order into OUT (ENTRY first, EXIT last). 0, or -1 with ERR set, or
 * FLUSH's value.
 */
int rec_walk_thread(struct rec_build *b, uint32_t thread, struct rec_id_sink *out,
    struct dcfg_error *err);
/* The edge's index (SOURCE, TARGET, KIND), made when CREATE; -1 when absent or out of memory. */
int64_t rec_find_edge(struct rec_build *b, uint32_t source, uint32_t target,
    enum dcfg_edge_kind kind, int create);

/* The counting pass's state for one thread (counts.c). */
struct rec_counter {
	struct rec_build *b;
	int open;                 /* chunks[b->n_chunks] is being filled */
	int started;              /* running set from the thread file's header */
	uint64_t running;         /* the thread's instructions so far */
	uint64_t limit;           /* a chunk's instructions: b->chunk_instrs, or no limit */
};

/* An edge whose source ran SOURCE_INSTRS into the chunks. 0, -1 out of memory. */
int rec_chunk_edge(struct rec_counter *c, uint32_t source_instrs);

/*
 * The counting walk over THREAD: b->thread_counts per edge (the
 * fall-through edges inside translation blocks added at the end from
 * b->tb_runs), b->g->instrs_per_thread, the chunks. 0, or -1 with ERR.
 */
int rec_count_thread(struct rec_build *b, uint32_t thread, struct rec_counter *c,
    struct dcfg_error *err);

/* The counting pass over every thread: counts, instructions, chunks; then CALL_BYPASS edges. */
int rec_count_all(struct rec_build *b, struct dcfg_error *err);

void rec_build_free(struct rec_build *b);

#endif
