/*
 * An instruction window [from, to) over a chunk decoded with runs
 * (sequence.h): edges outside runs are taken one by one; a run is kept
 * until it ends (the decoder bounds it), then its copies wholly before
 * the window are skipped, those wholly inside are taken at once, and
 * only a copy the window's edge cuts is walked, nested runs alike, on an
 * explicit stack.
 *
 * window.c also holds the public pull form of the same rules
 * (<dcfg/trace.h>, dcfg_chunk_window_new(3)), which walks every edge so
 * that a caller reads the window a batch at a time.
 */
#ifndef DCFG_WINDOW_H
#define DCFG_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "trace/sequence.h"

struct dcfg_window_level;

struct dcfg_window {
	uint64_t from, to;
	uint64_t icount;                 /* instructions before the next edge */
	uint64_t first, edges, instrs;   /* inside so far: the first's icount, edges, their instructions */
	int past;                        /* an edge at or past `to` was reached */
	uint64_t index;                  /* the next edge's index in the chunk, copies counted */
	/* The instructions of EDGE's source block; -1 when it is not in the DCFG. */
	int (*edge_instrs)(void *ctx, uint32_t edge, uint64_t *instrs);
	/* Edges inside, in order (NULL: nothing is written). */
	void (*write)(void *ctx, const uint32_t *ids, size_t n);
	/* "# run COUNT", or "# end run" for COUNT 0 (NULL: runs are written out). */
	void (*write_run)(void *ctx, uint64_t count);
	void *ctx;
	uint32_t bad_edge;               /* after -1: the edge not in the DCFG */

	uint64_t *tok;                   /* the run kept: edges, and RUN count ... END */
	size_t n_tok, cap_tok;
	uint64_t *per_instrs, *per_edges;    /* at a RUN token: one copy's instructions and edges, */
	uint64_t *per_last;              /* and its last edge's instructions, */
	unsigned char *unmeasured;       /* or 1: they pass 64 bits, or hold an edge not in the DCFG */
	size_t *match;                   /* at a RUN token: its END */
	size_t cap_per;
	unsigned open;
};

void dcfg_window_init(struct dcfg_window *w, uint64_t from, uint64_t to, uint64_t icount);
void dcfg_window_free(struct dcfg_window *w);

/*
 * N edges of the chunk, then EV (what the decoder said after them). 0; -1
 * with bad_edge set, -2 out of memory, -3 more instructions than 64 bits,
 * -4 more edges than 64 bits before the window's end.
 */
int dcfg_window_take(struct dcfg_window *w, const uint32_t *ids, size_t n,
    const struct dcfg_run_event *ev);

#endif
