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

#include "dict.h"
#include "ttable.h"

struct dcfg_xframe;

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

#endif
