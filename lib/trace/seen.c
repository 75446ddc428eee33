#include <stdlib.h>
#include <string.h>

#include "seen.h"
#include "vec.h"

struct dcfg_seen_entry *
dcfg_seen_get(struct dcfg_seen *m, uint64_t id, int *found)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->entries[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < m->n && m->entries[lo].id == id;
	if (*found)
		return &m->entries[lo];
	if (dcfg_reserve((void **)&m->entries, &m->cap, m->n + 1, sizeof *m->entries) < 0)
		return NULL;
	memmove(&m->entries[lo + 1], &m->entries[lo], (m->n - lo) * sizeof *m->entries);
	m->n++;
	memset(&m->entries[lo], 0, sizeof m->entries[lo]);
	m->entries[lo].id = id;
	return &m->entries[lo];
}

void
dcfg_seen_clear(struct dcfg_seen *m)
{
	m->n = 0;
}

void
dcfg_seen_free(struct dcfg_seen *m)
{
	free(m->entries);
	m->entries = NULL;
	m->n = m->cap = 0;
}
