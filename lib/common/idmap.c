#include "idmap.h"

#include <stdlib.h>
#include <string.h>

static uint32_t
key_at(const void *records, size_t stride, size_t id_offset, size_t i)
{
	uint32_t k;

	memcpy(&k, (const char *)records + i * stride + id_offset, sizeof k);
	return k;
}

int
dcfg_idmap_build(struct dcfg_idmap *m, const void *records, size_t n,
    size_t stride, size_t id_offset)
{
	uint32_t max = 0, k;
	size_t i, size;

	memset(m, 0, sizeof *m);
	for (i = 0; i < n; i++) {
		k = key_at(records, stride, id_offset, i);
		if (k > max)
			max = k;
	}
	/* Dense ids (the usual case: 1..n with some gaps) get a direct table. */
	if (n == 0 || (uint64_t)max < 4 * (uint64_t)n + 1024) {
		if (n == 0)
			return 0;
		size = (size_t)max + 1;
		if ((m->slots = malloc(size * sizeof *m->slots)) == NULL)
			return -1;
		memset(m->slots, 0xff, size * sizeof *m->slots);
		m->size = size;
		for (i = n; i-- > 0;)   /* backwards, so the first of duplicates wins */
			m->slots[key_at(records, stride, id_offset, i)] = (uint32_t)i;
		return 0;
	}
	for (size = 16; size < 2 * n; size *= 2)
		;
	if ((m->slots = malloc(2 * size * sizeof *m->slots)) == NULL)
		return -1;
	memset(m->slots, 0xff, 2 * size * sizeof *m->slots);
	m->size = size;
	m->hashed = 1;
	for (i = 0; i < n; i++) {
		size_t mask = size - 1, h;
		k = key_at(records, stride, id_offset, i);
		for (h = (k * UINT32_C(2654435761)) & mask;
		    m->slots[2 * h + 1] != UINT32_MAX && m->slots[2 * h] != k;
		    h = (h + 1) & mask)
			;
		if (m->slots[2 * h + 1] == UINT32_MAX) {
			m->slots[2 * h] = k;
			m->slots[2 * h + 1] = (uint32_t)i;
		}
	}
	return 0;
}

void
dcfg_idmap_free(struct dcfg_idmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}
