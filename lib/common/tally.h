/*
 * Counters over a fixed range of indices that remember which ones they
 * touched. Visiting and clearing them costs only the touched ones, so a
 * stream of many short process sections does not pay the size of the DCFG
 * in each.
 */
#ifndef DCFG_TALLY_H
#define DCFG_TALLY_H

#include <stddef.h>
#include <stdint.h>

struct dcfg_tally {
	uint64_t *value;           /* WIDTH values per index, all 0 until touched */
	uint32_t *touched;         /* the touched indices, in the order first touched */
	uint8_t *seen;
	size_t n, width, n_touched;
};

/* N indices of WIDTH values each. 0, or -1 when out of memory (T is then empty). */
int dcfg_tally_init(struct dcfg_tally *t, size_t n, size_t width);
void dcfg_tally_free(struct dcfg_tally *t);

/* The WIDTH values of index I (I < N), which now counts as touched. */
static inline uint64_t *
dcfg_tally_at(struct dcfg_tally *t, uint32_t i)
{
	if (!t->seen[i]) {
		t->seen[i] = 1;
		t->touched[t->n_touched++] = i;
	}
	return &t->value[(size_t)i * t->width];
}

/* Every touched index back to 0 and untouched. */
void dcfg_tally_clear(struct dcfg_tally *t);

#endif
