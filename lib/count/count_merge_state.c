#include "count_merge_state.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int
dcfg_merge_fail(struct merge *m, const char *why)
{
	return dcfg_error_at(m->err, m->paths[m->file], m->line, 1, "%s", why);
}

int
dcfg_merge_oom(struct merge *m)
{
	return dcfg_error_set(m->err, m->paths[m->file], "out of memory");
}

size_t
dcfg_merge_keep(struct merge *m, const char *s, size_t len)
{
	size_t at = m->n_pool;

	if (dcfg_reserve((void **)&m->pool, &m->cap_pool, m->n_pool + len + 1, 1) < 0)
		return MERGE_NONE;
	memcpy(m->pool + at, s, len);
	m->pool[at + len] = '\0';
	m->n_pool += len + 1;
	return at;
}

void
dcfg_merge_free(struct merge *m)
{
	size_t i, j;

	for (i = 0; i < m->n_procs; i++) {
		free(m->procs[i].rows);
		for (j = 0; j < m->procs[i].n_threads; j++)
			free(m->procs[i].threads[j].pieces);
		free(m->procs[i].threads);
	}
	free(m->procs);
	free(m->pieces);
	free(m->vectors);
	free(m->pool);
	for (i = 0; i < m->n_sels; i++)
		dcfg_recorded_selection_free(&m->sels[i].s);
	free(m->sels);
	free(m->files);
}
