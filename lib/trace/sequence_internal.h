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

/* Why dcfg_decode_groups stopped. */
enum dcfg_decode_stop {
	DCFG_DECODE_FULL,    /* IDS is filled up to LIMIT */
	DCFG_DECODE_MARK,    /* the next code starts at or after the mark AT */
	DCFG_DECODE_SLOW     /* the next code needs dcfg_decoder_next_group (a refill, a search, an error) */
};

/*
 * The hot loop that dcfg_decoder_next and the runs' decoder (period.c)
 * share: edges into IDS[*NP .. LIMIT), a group at a time, each code
 * looked up in the current state's table. The decoder's state is kept in
 * locals while it runs and is stored back into DEC when it returns.
 * With MARKS it also stops before a code when no more than AT bits are
 * left in the buffer. Inlined with MARKS a constant, so that the loop
 * without marks makes no test for them.
 */
static inline __attribute__((always_inline)) enum dcfg_decode_stop
dcfg_decode_groups(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t *np, size_t limit,
    const int marks, int at)
{
	const struct dcfg_ttable *t = dec->table;
	const struct dcfg_tstate *states = t->states;
	const struct dcfg_tentry *lut = t->lut, *e;
	const uint32_t *group = dec->group, *pool = t->ids;
	uint32_t left = dec->group_left, state = dec->state;
	uint32_t base = state != DCFG_TTABLE_NONE ? states[state].lut : DCFG_TTABLE_NONE;
	unsigned k = state != DCFG_TTABLE_NONE ? states[state].k : 0;
	uint64_t acc = dec->acc;
	unsigned nbits = dec->nbits;
	size_t n = *np;
	enum dcfg_decode_stop stop = DCFG_DECODE_FULL;

	while (n < limit) {
		if (left > 0) {
			ids[n++] = *group++;
			left--;
			continue;
		}
		if (marks && (int)nbits <= at) {
			stop = DCFG_DECODE_MARK;
			break;
		}
		if (base == DCFG_TTABLE_NONE || nbits < k ||
		    (e = &lut[base + ((acc >> (nbits - k)) & ((UINT64_C(1) << k) - 1))])->group ==
		    DCFG_TTABLE_NONE) {
			stop = DCFG_DECODE_SLOW;
			break;
		}
		nbits -= e->len;
		group = pool + e->first;
		left = e->count;
		state = e->next_state;
		base = e->next_lut;
		k = e->next_k;
	}
	dec->acc = acc;
	dec->nbits = nbits;
	dec->state = state;
	dec->group = group;
	dec->group_left = left;
	*np = n;
	return stop;
}

/* The repeat frame at DEPTH has begun a copy at the current bit. */
void dcfg_period_mark(struct dcfg_decoder *dec, size_t depth);
/* Frame F, watching, leaves the stack. */
void dcfg_period_unwatch(struct dcfg_decoder *dec, struct dcfg_xframe *f);

#endif
