/*
 * Decoding one chunk of a DCFG-trace (spec 3.7): the EDGE_ID_SEQUENCE
 * string is checked in full and compiled when the chunk starts (dict.h),
 * then expanded lazily (modified Base64, nested "(M*...)" repeats, nested
 * "<key>" dictionary references) with an explicit stack, never
 * materialised and never recursed on; its bits select transitions in the
 * process's table. Only what EDGE_COUNT needs is expanded, so a huge
 * repeat costs nothing unread, and the work is linear in what is read.
 */
#ifndef DCFG_SEQUENCE_H
#define DCFG_SEQUENCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <dcfg/trace.h>

#include "dict.h"
#include "ttable.h"

struct dcfg_xframe;

/*
 * Runs (dcfg_decoder_next_runs): while expanding "(M*body)", the decoder
 * notes its state where each copy of the body begins: its current edge
 * and how far past the copy's first bit the next code starts (a group of
 * NEXT_EDGE_IDS is always finished there). Once a copy begins in the state
 * an earlier copy began in, every copy after it decodes the same edges, up
 * to the last few: those edges (the period) are handed over once, with how
 * many more times they run, and the copies they stand for are skipped by
 * arithmetic. Periods nest as repeats do. A period is kept in memory to be
 * handed over again, so one longer than DCFG_PERIOD_MAX tokens (an edge,
 * a nested run's start or end) is decoded edge by edge, as without runs.
 * A cycle of zero-bit codes reads no bit, so no copy begins on it: once
 * reached, the whole turns left in the chunk are one run (ttable.h).
 */
#define DCFG_PERIOD_MAX 65536


/*
 * A run kept in memory, as the decoder and its consumers keep one: 64-bit
 * tokens, each an edge id (below 2^32), DCFG_TOKEN_RUN followed by the
 * run's count, or DCFG_TOKEN_END.
 */
#define DCFG_TOKEN_RUN (UINT64_C(1) << 32)
#define DCFG_TOKEN_END (UINT64_C(2) << 32)

/* Where a copy of a repeat begins, in the bits read: a place to look at the decoder's state. */
struct dcfg_mark {
	uint64_t bit;        /* bits read before the copy's first */
	uint64_t id;         /* the repeat frame's instance */
	uint64_t copy;       /* 0-based */
	size_t depth;        /* the repeat frame's place in the stack */
};

#define DCFG_MARKS 64

struct dcfg_decoder {
	const struct dcfg_ttable *table;
	struct dcfg_dict *dict;

	struct dcfg_seqstr seq;           /* the chunk's own string, compiled into buf */
	struct dcfg_seqbuf buf;
	struct dcfg_xframe *frames;       size_t n_frames, cap_frames;

	uint64_t acc;                     /* bits not yet used, the last nbits of acc */
	unsigned nbits;
	int ended;                        /* the string has no more bits */
	int nomem;                        /* ... because memory ran out */

	uint32_t first;
	uint64_t total;                   /* EDGE_COUNT */
	uint64_t remaining;               /* edges still to produce */
	uint64_t emitted;                 /* edges produced: the index of the next one */
	uint32_t state;
	const uint32_t *group;            /* the rest of a NEXT_EDGE_IDS group */
	uint32_t group_left;
	int started;

	char error[200];
	uint32_t error_at;                /* a malformed string: the 0-based character, else NONE */

	/* runs (see above) */
	int runs;                         /* look for periods: dcfg_decoder_next_runs */
	uint64_t bits_read;               /* into acc since the chunk began, modulo 2^64 */
	uint64_t next_id;                 /* of repeat frames */
	struct dcfg_mark marks[DCFG_MARKS];   /* copies begun in the bits read, not yet reached */
	unsigned mark_head, n_marks;
	uint64_t *tok;                    /* tokens decoded since the oldest place still watched */
	size_t n_tok, cap_tok;
	uint64_t tok_base;                /* tokens before tok[0], since the chunk began */
	uint64_t out;                     /* the next token to hand over */
	unsigned watching;                /* repeat frames with a place to compare with */
	int zero_done;                    /* a cycle of zero-bit codes was met: no more to look for */
};

void dcfg_decoder_init(struct dcfg_decoder *dec);
void dcfg_decoder_free(struct dcfg_decoder *dec);

/*
 * Starts a chunk: checks and compiles SEQ, which must stay valid while the
 * chunk is decoded; DICT is finished. 0, or -1 with dec->error set, and
 * dec->error_at the character at fault when the string is malformed
 * (DCFG_SEQ_NONE when memory ran out).
 */
int dcfg_decoder_start(struct dcfg_decoder *dec, const struct dcfg_ttable *table,
    struct dcfg_dict *dict, uint32_t first_edge, uint64_t edge_count,
    const char *seq, size_t len);

/*
 * Produces up to MAX more edge ids of the chunk into IDS. Returns how
 * many (0 when the chunk is complete), or -1 with dec->error set; the
 * index of the failing edge is dec->emitted.
 */
ssize_t dcfg_decoder_next(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t max);

/*
 * Set before dcfg_decoder_start: the chunk is read with
 * dcfg_decoder_next_runs, not dcfg_decoder_next.
 */
void dcfg_decoder_set_runs(struct dcfg_decoder *dec, int on);

/*
 * Like dcfg_decoder_next, with runs: up to MAX edge ids into IDS, then EV
 * says whether a run begins or ends after them. Returns how many edges (0
 * with EV->kind DCFG_RUN_NONE when the chunk is complete), or -1 with
 * dec->error set. dec->emitted counts the edges runs stand for, so that
 * the index of a failing edge is the same as without runs.
 */
ssize_t dcfg_decoder_next_runs(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t max,
    struct dcfg_run_event *ev);

#endif
