/*
 * What sequence.c (expanding the string, decoding edge by edge) and
 * period.c (runs) share about the decoder's insides. Not for other
 * modules: they use sequence.h.
 */
#ifndef DCFG_SEQUENCE_INTERNAL_H
#define DCFG_SEQUENCE_INTERNAL_H

#include "sequence.h"

/*
 * A repeat frame's watch for its period (Brent's cycle finding: compare
 * each copy's starting state with a checkpoint moved to the current copy
 * at every power of two), and what it knows of its copies.
 */
struct dcfg_probe {
	uint64_t copy;              /* the checkpoint: its copy, */
	uint64_t tok, edges;        /* the tokens and the edges decoded before it, */
	uint32_t state, skip;       /* and its state: current edge, bits from the copy's start to the next code */
	uint64_t power, lam;        /* copies to compare before the checkpoint moves; compared so far */
	uint64_t last_copy, last_bit;   /* the last copy whose start was reached, and its first bit */
	uint64_t bits;              /* bits in a copy (modulo 2^64), 0 until two consecutive copies are seen */
	uint8_t watching;           /* the checkpoint is set and its tokens are kept */
	uint8_t done;               /* a run was made, or none can be: watch no more */
	uint8_t seen;               /* last_copy is set */
};

/* Reading one string, or the passes of one repeat in it. */
struct dcfg_xframe {
	const char *s;
	const struct dcfg_seqitem *items;  /* the string's items */
	uint32_t pos, end;                 /* read s[pos .. end) */
	uint32_t item;                     /* the next item, at or after pos */
	uint32_t body, body_item;          /* a repeat's first character and item */
	uint64_t count;                    /* a repeat's passes */
	uint64_t left;                     /* a repeat's passes still to make after this one */
	uint64_t id;                       /* a repeat's instance, to know its marks */
	int repeat;
	struct dcfg_probe probe;
};

void dcfg_decoder_refill(struct dcfg_decoder *dec);
/*
 * The same, but reads past the string's next item (into a repeat, the
 * next copy of one, out of one) only while the buffer holds fewer than
 * WANT bits: copies begin as late as they can.
 */
void dcfg_decoder_refill_to(struct dcfg_decoder *dec, unsigned want);
/* The next group: 0, -1 with the error set, or with runs 2 on a zero-bit cycle (period.c). */
int dcfg_decoder_next_group(struct dcfg_decoder *dec);

/* The repeat frame at DEPTH has begun a copy at the current bit. */
void dcfg_period_mark(struct dcfg_decoder *dec, size_t depth);
/* Frame F, watching, leaves the stack. */
void dcfg_period_unwatch(struct dcfg_decoder *dec, struct dcfg_xframe *f);

#endif
