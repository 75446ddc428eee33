/*
 * A DCFG-trace transition table (spec 3.5): for each current edge, the
 * codes that select the edges that follow it. Built row by row, checked
 * as a whole, then decoded table-driven: per current edge a lookup indexed
 * by the next k bits, or, for sparse long codes, a binary search over the
 * codes as left-aligned 32-bit intervals. The decoder never looks an id up
 * on its hot path: each group of next edges knows its successor state.
 */
#ifndef DCFG_TTABLE_H
#define DCFG_TTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/idmap.h"

#define DCFG_TTABLE_NONE UINT32_MAX

struct dcfg_tcode {
	uint32_t value;          /* the code's bits, left-aligned in 32 bits */
	uint32_t group;
	uint8_t len;
};

struct dcfg_tgroup {
	uint32_t first, count;   /* next edge ids, in ids[] */
	uint32_t next_state;     /* state of the group's last id, or NONE */
};

/*
 * A lookup slot: the code found by the next k bits, with what decoding
 * needs next (the group's ids and the next state's lookup), so that each
 * edge costs one dependent load.
 */
struct dcfg_tentry {
	uint32_t group;          /* NONE: no code starts with these bits */
	uint32_t first, count;   /* the group's ids, in ids[] */
	uint32_t next_state;
	uint32_t next_lut;       /* states[next_state].lut, or NONE */
	uint8_t next_k;
	uint8_t len;
};

struct dcfg_tstate {
	uint32_t edge_id;
	uint32_t codes, n_codes; /* sorted by value, in codes[] */
	uint32_t lut;            /* first slot in lut[], or NONE for binary search */
	uint8_t k;               /* bits indexing the lookup (the longest code) */
	/*
	 * On a cycle of zero-bit codes (each state's only code is ""): the
	 * edges of one turn from here back to here, saturated at UINT32_MAX;
	 * else 0. From such a state the rest of a chunk reads no bit and
	 * repeats the turn, so the decoder with runs hands it over as a run
	 * (period.c). Such a state has no lookup (lut NONE), so that the
	 * decoder's fast path, which does not look, never passes it by.
	 */
	uint32_t zero_cycle;
};

struct dcfg_ttable {
	struct dcfg_tstate *states;  size_t n_states, cap_states;
	struct dcfg_tcode *codes;    size_t n_codes, cap_codes;
	struct dcfg_tgroup *groups;  size_t n_groups, cap_groups;
	uint32_t *ids;               size_t n_ids, cap_ids;
	struct dcfg_tentry *lut;     size_t n_lut;
	struct dcfg_idmap by_id;     /* edge id -> state */
	uint32_t *row_state;         /* while building: each code's edge id */
	size_t cap_row_state;
};

void dcfg_ttable_init(struct dcfg_ttable *t);
void dcfg_ttable_reset(struct dcfg_ttable *t);   /* empty, keeping memory */
void dcfg_ttable_free(struct dcfg_ttable *t);

/*
 * Adds a row. Returns 0, or -1 with *why set (a code with other
 * characters than '0' and '1', longer than 32 bits, no next ids).
 */
int dcfg_ttable_add(struct dcfg_ttable *t, uint32_t current, const char *code,
    size_t len, const uint32_t *next, size_t n_next, const char **why);

/*
 * Checks the whole table and builds the decoder. Returns 0, or -1 with a
 * message naming the edge and both codes in MSG (same padded value, or a
 * code that is a prefix of another).
 */
int dcfg_ttable_finish(struct dcfg_ttable *t, char *msg, size_t size);

/*
 * The edges of one turn of the zero-bit cycle from STATE (zero_cycle of
 * them) into IDS, which has room for them.
 */
void dcfg_ttable_zero_cycle(const struct dcfg_ttable *t, uint32_t state, uint64_t *ids);

/* The decoding state for an edge id, or NONE when it has no transitions. */
static inline uint32_t
dcfg_ttable_state(const struct dcfg_ttable *t, uint32_t edge_id)
{
	return dcfg_idmap_get(&t->by_id, edge_id);
}

#endif
