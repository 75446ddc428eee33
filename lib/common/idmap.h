/*
 * Maps 32-bit ids to 32-bit indices in constant time: a direct table when
 * the ids are dense enough, open addressing otherwise. The per-edge stages
 * look ids up millions of times a second, so no binary search here.
 */
#ifndef DCFG_IDMAP_H
#define DCFG_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct dcfg_idmap {
	uint32_t *slots;     /* direct: index by id; hashed: (id, index) pairs */
	size_t size;         /* direct: ids < size; hashed: number of pairs, a power of 2 */
	int hashed;
};

/*
 * Builds the map from N ids given as KEY(i) for i in [0, n): ids[i*stride].
 * Returns -1 when out of memory. Of duplicate ids the first is kept.
 */
int dcfg_idmap_build(struct dcfg_idmap *m, const void *records, size_t n,
    size_t stride, size_t id_offset);

/* The index for ID, or UINT32_MAX. */
static inline uint32_t
dcfg_idmap_get(const struct dcfg_idmap *m, uint32_t id)
{
	if (!m->hashed)
		return id < m->size ? m->slots[id] : UINT32_MAX;
	size_t mask = m->size - 1, i = (id * UINT32_C(2654435761)) & mask;
	for (;;) {
		uint32_t k = m->slots[2 * i], v = m->slots[2 * i + 1];
		if (v == UINT32_MAX)
			return UINT32_MAX;
		if (k == id)
			return v;
		i = (i + 1) & mask;
	}
}

void dcfg_idmap_free(struct dcfg_idmap *m);

#endif
