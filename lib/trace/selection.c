#include "selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
dcfg_selection_init(struct dcfg_selection *s, const uint64_t *pids, size_t n_pids,
    const uint64_t *tids, size_t n_tids)
{
	memset(s, 0, sizeof *s);
	s->pids = pids;
	s->n_pids = n_pids;
	s->tids = tids;
	s->n_tids = n_tids;
	if ((s->found = calloc(n_pids + n_tids + 1, 1)) == NULL)
		return -1;
	return 0;
}

static void
seen(struct dcfg_selection_seen *w, uint64_t id)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->ids[i] == id)
			return;
	if (w->n < DCFG_SELECTION_SHOWN)
		w->ids[w->n++] = id;
	else
		w->more = 1;
}

/* Marks ID found among the N ids V (FOUND: their flags); 1 when selected. */
static int
select_id(const uint64_t *v, size_t n, unsigned char *found, uint64_t id)
{
	size_t i;
	int hit = n == 0;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			hit = found[i] = 1;
	return hit;
}

int
dcfg_selection_process(struct dcfg_selection *s, uint64_t pid)
{
	seen(&s->processes, pid);
	return select_id(s->pids, s->n_pids, s->found, pid);
}

int
dcfg_selection_thread(struct dcfg_selection *s, uint64_t tid)
{
	seen(&s->threads, tid);
	return select_id(s->tids, s->n_tids, s->found + s->n_pids, tid);
}

static int
by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* "process 7", "processes 7 and 9", "processes 1, 2, 3, ..." or "no process". */
static void
name_ids(char *buf, size_t size, const char *one, const char *many,
    const struct dcfg_selection_seen *w)
{
	uint64_t ids[DCFG_SELECTION_SHOWN];
	size_t i, len;

	if (w->n == 0) {
		snprintf(buf, size, "no %s", one);
		return;
	}
	memcpy(ids, w->ids, w->n * sizeof *ids);
	qsort(ids, w->n, sizeof *ids, by_value);
	len = (size_t)snprintf(buf, size, "%s", w->n == 1 && !w->more ? one : many);
	for (i = 0; i < w->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%llu",
		    i == 0 ? " " : i + 1 == w->n && !w->more ? " and " : ", ",
		    (unsigned long long)ids[i]);
	if (w->more && len < size)
		snprintf(buf + len, size - len, ", ...");
}

int
dcfg_selection_check(const struct dcfg_selection *s, const char *file,
    struct dcfg_error *err)
{
	char held[300], where[300];
	size_t i;

	for (i = 0; i < s->n_pids; i++)
		if (!s->found[i]) {
			name_ids(held, sizeof held, "process", "processes", &s->processes);
			return dcfg_error_set(err, file,
			    "process %llu is not in the trace: it holds %s",
			    (unsigned long long)s->pids[i], held);
		}
	for (i = 0; i < s->n_tids; i++)
		if (!s->found[s->n_pids + i]) {
			name_ids(held, sizeof held, "thread", "threads", &s->threads);
			if (s->n_pids == 0)
				return dcfg_error_set(err, file,
				    "thread %llu is not in the trace: it holds %s",
				    (unsigned long long)s->tids[i], held);
			struct dcfg_selection_seen asked = { .n = 0 };
			for (size_t k = 0; k < s->n_pids; k++)
				seen(&asked, s->pids[k]);
			name_ids(where, sizeof where, "process", "processes", &asked);
			return dcfg_error_set(err, file,
			    "thread %llu is not in %s of the trace: %s %s",
			    (unsigned long long)s->tids[i], where,
			    asked.n == 1 && !asked.more ? "it holds" : "they hold", held);
		}
	return 0;
}

void
dcfg_selection_free(struct dcfg_selection *s)
{
	free(s->found);
	s->found = NULL;
}
