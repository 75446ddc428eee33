/*
 * One chunk of an edge stream to its EDGE_ID_SEQUENCE text (spec 3.7),
 * runs (dcfg-stream(5) version 2) written as "(M*...)" repeats, never
 * expanded: time and memory follow the lines of the chunk and of its
 * periods, not the counts.
 *
 * The edges of a run's copies are, in bits: the first copy coded after
 * the edge before the run, each later one after the period's last edge.
 * The coder's state after a copy (the edge it codes from, the ids of a
 * NEXT_EDGE_IDS group still to pass, the bits waiting for their Base64
 * character) takes few values, so it repeats within a few copies; from
 * there the bits are periodic, and whole characters from the first
 * character boundary on. That stretch, rotated to start on the boundary,
 * is the repeat's body; the copies before it, and the bits after the
 * last whole body, are written out.
 */
#ifndef DCFG_CHUNKENC_H
#define DCFG_CHUNKENC_H

#include <stddef.h>
#include <stdint.h>

#include "reptext.h"
#include "transitions.h"

/*
 * A run in a chunk: its period is edges [begin, end) (not empty), and the
 * runs nested in it are those after it in the list, up to index after.
 * Runs are listed in the order they open.
 */
struct dcfg_run_span {
	size_t begin, end;
	uint64_t count;
	size_t after;
};

struct dcfg_chunk_lines {
	const uint32_t *edges;     /* each line once, in order */
	size_t n;
	const struct dcfg_run_span *runs;
	size_t n_runs;
};

struct dcfg_chunkenc;

struct dcfg_chunkenc *dcfg_chunkenc_new(void);
void dcfg_chunkenc_free(struct dcfg_chunkenc *ce);

/*
 * Counts the chunk's transitions into T, each as often as it is taken:
 * inside runs times their counts, into a period's first edge from the
 * line before the run once and from the period's last edge COUNT - 1
 * times. -1: out of memory.
 */
int dcfg_chunk_count(const struct dcfg_chunk_lines *c, struct dcfg_transitions *t);

/*
 * The chunk's EDGE_ID_SEQUENCE, codes from T (built from counts that
 * include this chunk's), valid until the next call or the free. NULL:
 * out of memory, or a transition T does not have.
 */
const struct dcfg_text *dcfg_chunk_encode(struct dcfg_chunkenc *ce,
    const struct dcfg_chunk_lines *c, const struct dcfg_transitions *t);

#endif
