/*
 * The TRANSITION_TABLE dcfg-encode writes for a process (spec 3.5): the
 * transitions a stream takes, counted, then Huffman codes of at most 32
 * bits per current edge and, for hot transitions into chains of single
 * successors, NEXT_EDGE_IDS groups of up to DCFG_MAX_GROUP ids.
 */
#ifndef DCFG_TRANSITIONS_H
#define DCFG_TRANSITIONS_H

#include <stddef.h>
#include <stdint.h>

#include "common/output.h"

#define DCFG_MAX_GROUP 16    /* ids merged into one NEXT_EDGE_IDS group */

struct dcfg_trans {           /* an observed transition cur -> next */
	uint64_t key;             /* cur << 32 | next */
	uint64_t count;           /* saturates: only the code lengths depend on it */
	uint32_t code;            /* left-aligned */
	uint32_t group, group_len; /* its NEXT_EDGE_IDS, in the pool */
	uint8_t len;
};

struct dcfg_transitions {
	struct dcfg_trans *trans;  size_t n_trans, cap_trans;
	uint32_t *slots;           size_t n_slots;   /* hash: trans index + 1; 0 empty */
	uint32_t *pool;            size_t n_pool, cap_pool;
	/*
	 * A cache, per current edge id below n_last: 1 + the transition last
	 * found from it (0 none). A loop's edges mostly take the transition
	 * they took before: one load and a compare instead of a hash probe.
	 */
	uint32_t *last;            size_t n_last;
};

void dcfg_transitions_free(struct dcfg_transitions *t);
/* A transition not seen before, N times (dcfg_transitions_add's slow path). */
int dcfg_transitions_insert(struct dcfg_transitions *t, uint32_t cur, uint32_t next, uint64_t n);
/* Codes and groups from the counts; no adding after it. -1: out of memory. */
int dcfg_transitions_build(struct dcfg_transitions *t);
/* The table as JSON, header row first. */
void dcfg_transitions_write(struct dcfg_output *out, const struct dcfg_transitions *t);

static inline uint64_t
dcfg_transitions_mix(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	return k ^ (k >> 33);
}

/* The transition CUR -> NEXT, or NULL. Inline: the encoder calls it once an edge. */
static inline const struct dcfg_trans *
dcfg_transitions_find(const struct dcfg_transitions *t, uint32_t cur, uint32_t next)
{
	uint64_t key = (uint64_t)cur << 32 | next;
	size_t mask = t->n_slots - 1, i;
	uint32_t s;

	if (cur < t->n_last && (s = t->last[cur]) != 0 && t->trans[s - 1].key == key)
		return &t->trans[s - 1];
	if (t->n_slots == 0)
		return NULL;
	for (i = dcfg_transitions_mix(key) & mask; (s = t->slots[i]) != 0; i = (i + 1) & mask)
		if (t->trans[s - 1].key == key) {
			if (cur < t->n_last)
				t->last[cur] = s;
			return &t->trans[s - 1];
		}
	return NULL;
}

/* Counts N more transitions CUR -> NEXT. -1: out of memory. Inline: once an edge too. */
static inline int
dcfg_transitions_add(struct dcfg_transitions *t, uint32_t cur, uint32_t next, uint64_t n)
{
	struct dcfg_trans *f = (struct dcfg_trans *)dcfg_transitions_find(t, cur, next);

	if (f == NULL)
		return dcfg_transitions_insert(t, cur, next, n);
	f->count = f->count > UINT64_MAX - n ? UINT64_MAX : f->count + n;
	return 0;
}

#endif
