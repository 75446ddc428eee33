#include <stdlib.h>
#include <string.h>

#include "seen.h"

static size_t
slot_of(const struct dcfg_seen *m, uint64_t id)
{
	size_t i = (size_t)((id * 0x9e3779b97f4a7c15u) >> 32) & (m->cap - 1);

	while (m->entries[i].gen == m->gen && m->entries[i].id != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Twice the slots, this generation's entries moved over. -1: out of memory. */
static int
grow(struct dcfg_seen *m)
{
	struct dcfg_seen old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 16;
	if (m->cap < old.cap || (m->entries = calloc(m->cap, sizeof *m->entries)) == NULL) {
		*m = old;
		return -1;
	}
	m->gen = 1;
	for (i = 0; i < old.cap; i++)
		if (old.entries[i].gen == old.gen) {
			struct dcfg_seen_entry *e = &m->entries[slot_of(m, old.entries[i].id)];
			*e = old.entries[i];
			e->gen = 1;
		}
	free(old.entries);
	return 0;
}

struct dcfg_seen_entry *
dcfg_seen_get(struct dcfg_seen *m, uint64_t id, int *found)
{
	struct dcfg_seen_entry *e;

	if (m->cap == 0 && grow(m) < 0)
		return NULL;
	e = &m->entries[slot_of(m, id)];
	*found = e->gen == m->gen;
	if (*found)
		return e;
	if ((m->n + 1) * 2 > m->cap) {
		if (grow(m) < 0)
			return NULL;
		e = &m->entries[slot_of(m, id)];
	}
	memset(e, 0, sizeof *e);
	e->id = id;
	e->gen = m->gen;
	m->n++;
	return e;
}

void
dcfg_seen_clear(struct dcfg_seen *m)
{
	m->n = 0;
	if (m->cap > 0 && ++m->gen == 0) {
		memset(m->entries, 0, m->cap * sizeof *m->entries);
		m->gen = 1;
	}
}

void
dcfg_seen_free(struct dcfg_seen *m)
{
	free(m->entries);
	m->entries = NULL;
	m->n = m->cap = 0;
	m->gen = 0;
}
