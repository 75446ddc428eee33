/*
 * What a profile is of: its thread, and with --dcfg the DCFG and process,
 * checked against what the profile's first line names; and the executions
 * of marker PCs in every thread of that process, which say whether a count
 * that all threads add to (SDE's :global, gem5's) is the thread's own.
 */
#include "regions_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/output.h"
#include "dcfg/model.h"

static int
process_of(struct dcfg_rg_source *s, const struct dcfg_rg_profile *p,
    const struct dcfg_regions_options *o, struct dcfg_error *err)
{
	const struct dcfg *d = s->d;

	if (p->has_head) {
		if (p->head_crc != d->crc32 || p->head_bytes != d->bytes)
			return dcfg_error_at(err, p->path, 1, 1, "a profile of DCFG %08x:%llu, but %s is "
			    "%08x:%llu (dcfg-count(1) shows a DCFG's CRC:BYTES)", (unsigned)p->head_crc,
			    (unsigned long long)p->head_bytes, s->dcfg_path, (unsigned)d->crc32,
			    (unsigned long long)d->bytes);
		if (o->has_pid && o->pid != p->head_pid)
			return dcfg_error_at(err, p->path, 1, 1, "a profile of process %llu, not %llu (-p)",
			    (unsigned long long)p->head_pid, (unsigned long long)o->pid);
		s->process = dcfg_find_process(d, p->head_pid);
		if (s->process == NULL)
			return dcfg_error_at(err, p->path, 1, 1, "a profile of process %llu, which %s "
			    "does not have", (unsigned long long)p->head_pid, s->dcfg_path);
		return 0;
	}
	/* another writer's profile names no process: -p does, or the DCFG has one */
	if (o->has_pid) {
		if ((s->process = dcfg_find_process(d, o->pid)) == NULL)
			return dcfg_error_set(err, s->dcfg_path, "no process %llu (-p)",
			    (unsigned long long)o->pid);
		return 0;
	}
	if (d->n_processes != 1)
		return dcfg_error_set(err, s->dcfg_path, "%zu processes, and %s names none of them: "
		    "-p PID says which it is of", d->n_processes, p->path);
	s->process = &d->processes[0];
	return 0;
}

int
dcfg_rg_source_of(struct dcfg_rg_source *s, const struct dcfg_rg_profile *p,
    const struct dcfg_regions_options *o, const char *dcfg_path, struct dcfg_error *err)
{
	memset(s, 0, sizeof *s);
	if (p->has_tid && o->has_thread && p->tid != o->thread)
		return dcfg_error_set(err, p->path, "its P: line says thread %llu, not %llu",
		    (unsigned long long)p->tid, (unsigned long long)o->thread);
	if (!p->has_tid && !o->has_thread)
		return dcfg_error_set(err, p->path, "no P: line gives the thread (--thread TID does)");
	s->tid = p->has_tid ? p->tid : o->thread;
	if (o->dcfg == NULL)
		return 0;
	s->d = o->dcfg;
	s->dcfg_path = dcfg_path ? dcfg_path : "the DCFG";
	if (process_of(s, p, o, err) < 0)
		return -1;
	if (s->tid >= s->process->threads)
		return dcfg_error_set(err, p->path, "a profile of thread %llu, but process %llu of %s "
		    "has %lu threads (0 to %lu)", (unsigned long long)s->tid,
		    (unsigned long long)s->process->pid, s->dcfg_path, (unsigned long)s->process->threads,
		    (unsigned long)s->process->threads - 1);
	return 0;
}

/* N, or 1 for an allocation of nothing (malloc(0) may give NULL) */
static size_t
at_least_one(size_t n)
{
	return n ? n : 1;
}

struct pc_at {
	uint64_t pc;
	size_t i;
};

static int
by_pc(const void *a, const void *b)
{
	const struct pc_at *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The first of the N sorted values at or above V. */
static size_t
lower_bound(const uint64_t *sorted, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Each block holding some PC: its node id, and which PCs (pairs of PC index, node index). */
struct holders {
	uint64_t *nodes;             /* sorted node ids, distinct */
	size_t n_nodes;
	size_t *pc_of, *node_of;     /* the pairs */
	size_t n_pairs;
};

static int
find_holders(const struct dcfg *d, const struct dcfg_process *proc, const uint64_t *sorted,
    const size_t *order, size_t n, struct holders *h)
{
	size_t i, j, k, cap = 0;

	for (i = 0; i < proc->blocks.count; i++) {
		const struct dcfg_block *b = &d->blocks[proc->blocks.first + i];
		for (j = lower_bound(sorted, n, b->addr); j < n && sorted[j] - b->addr < b->size; j++) {
			if (h->n_pairs == cap) {
				size_t *po, *no;
				cap = cap ? 2 * cap : 16;
				po = realloc(h->pc_of, cap * sizeof *po);
				if (po != NULL)
					h->pc_of = po;
				no = realloc(h->node_of, cap * sizeof *no);
				if (no != NULL)
					h->node_of = no;
				if (po == NULL || no == NULL)
					return -1;
			}
			h->pc_of[h->n_pairs] = order[j];
			h->node_of[h->n_pairs++] = b->node_id;   /* an index once the nodes are sorted */
		}
	}
	if ((h->nodes = malloc((h->n_pairs ? h->n_pairs : 1) * sizeof *h->nodes)) == NULL)
		return -1;
	for (i = 0; i < h->n_pairs; i++)
		h->nodes[i] = h->node_of[i];
	qsort(h->nodes, h->n_pairs, sizeof *h->nodes, dcfg_rg_by_u64);
	for (i = k = 0; i < h->n_pairs; i++)
		if (k == 0 || h->nodes[k - 1] != h->nodes[i])
			h->nodes[k++] = h->nodes[i];
	h->n_nodes = k;
	for (i = 0; i < h->n_pairs; i++)
		h->node_of[i] = lower_bound(h->nodes, k, h->node_of[i]);
	return 0;
}

/* Adds each edge's COUNT_PER_THREAD into ENTRIES[node index * threads + t] of the node it enters. */
static void
sum_entries(const struct dcfg *d, const struct dcfg_process *proc, const struct holders *h,
    uint64_t *entries)
{
	size_t i, t, threads = proc->threads;

	for (i = 0; i < proc->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[proc->edges.first + i];
		size_t k = lower_bound(h->nodes, h->n_nodes, e->target);
		if (k == h->n_nodes || h->nodes[k] != e->target)
			continue;
		for (t = 0; t < e->counts.count && t < threads; t++) {
			uint64_t c = d->counts[e->counts.first + t];
			uint64_t *at = &entries[k * threads + t];
			*at = *at > UINT64_MAX - c ? UINT64_MAX : *at + c;
		}
	}
}

int
dcfg_rg_pc_executions(const struct dcfg_rg_source *s, const uint64_t *pcs, size_t n,
    uint64_t **exec, unsigned char **found, struct dcfg_error *err)
{
	size_t threads = s->process->threads, i, t, *order = NULL;
	uint64_t *sorted = NULL, *entries = NULL;
	struct pc_at *pairs = NULL;
	struct holders h = { 0 };
	int rc = -1;

	*exec = calloc(at_least_one(n * threads), sizeof **exec);
	*found = calloc(n ? n : 1, 1);
	sorted = malloc((n ? n : 1) * sizeof *sorted);
	order = malloc((n ? n : 1) * sizeof *order);
	pairs = malloc((n ? n : 1) * sizeof *pairs);
	if (*exec == NULL || *found == NULL || sorted == NULL || order == NULL || pairs == NULL)
		goto done;
	/* the PCs sorted, ORDER giving each one's place in PCS */
	for (i = 0; i < n; i++)
		pairs[i] = (struct pc_at){ pcs[i], i };
	qsort(pairs, n, sizeof *pairs, by_pc);
	for (i = 0; i < n; i++) {
		sorted[i] = pairs[i].pc;
		order[i] = pairs[i].i;
	}
	if (find_holders(s->d, s->process, sorted, order, n, &h) < 0 ||
	    (entries = calloc(at_least_one(h.n_nodes * threads), sizeof *entries)) == NULL)
		goto done;
	sum_entries(s->d, s->process, &h, entries);
	for (i = 0; i < h.n_pairs; i++) {
		uint64_t *to = &(*exec)[h.pc_of[i] * threads];
		const uint64_t *from = &entries[h.node_of[i] * threads];
		(*found)[h.pc_of[i]] = 1;
		for (t = 0; t < threads; t++)
			to[t] = to[t] > UINT64_MAX - from[t] ? UINT64_MAX : to[t] + from[t];
	}
	rc = 0;
done:
	free(pairs);
	free(sorted);
	free(order);
	free(entries);
	free(h.nodes);
	free(h.pc_of);
	free(h.node_of);
	if (rc < 0) {
		free(*exec);
		free(*found);
		*exec = NULL;
		*found = NULL;
		dcfg_error_set(err, s->dcfg_path, "out of memory");
	}
	return rc;
}

static const char *
times(uint64_t n)
{
	return n == 1 ? "time" : "times";
}

/* The marker M (of the profile at PATH) ran in thread T of S's process EXEC times: why that is wrong. */
static int
other_thread(const struct dcfg_rg_source *s, const struct dcfg_rg_marker *m, const char *path,
    uint64_t t, uint64_t exec, const char *why, struct dcfg_error *err)
{
	char image[256];

	dcfg_escape(image, sizeof image, m->image);
	return dcfg_error_at(err, path, m->line, 1, "the marker's PC 0x%llx (%s+0x%llx) ran %llu "
	    "%s in thread %llu of process %llu too, by %s: %s, not thread %llu's alone",
	    (unsigned long long)m->pc, image, (unsigned long long)(m->in_image ? m->offset : 0),
	    (unsigned long long)exec, times(exec), (unsigned long long)t,
	    (unsigned long long)s->process->pid, s->dcfg_path, why, (unsigned long long)s->tid);
}

int
dcfg_rg_only_thread(const struct dcfg_rg_source *s, const struct dcfg_rg_marker *const *m,
    size_t n, const char *path, const char *why, struct dcfg_error *err)
{
	uint64_t *pcs = NULL, *exec = NULL;
	unsigned char *found = NULL;
	size_t i, t, threads;
	int rc = -1;

	if (s->d == NULL)
		return dcfg_error_set(err, path, "%s: only the profile's DCFG (--dcfg) can show that no "
		    "other thread runs the markers' PCs", why);
	threads = s->process->threads;
	if ((pcs = calloc(at_least_one(n), sizeof *pcs)) == NULL)
		return dcfg_error_set(err, path, "out of memory");
	for (i = 0; i < n; i++)
		pcs[i] = m[i]->pc;
	if (dcfg_rg_pc_executions(s, pcs, n, &exec, &found, err) < 0)
		goto done;
	for (i = 0; i < n; i++) {
		const uint64_t *e = &exec[i * threads];
		if (!found[i]) {
			dcfg_error_at(err, path, m[i]->line, 1, "the marker's PC 0x%llx is in no block of "
			    "process %llu of %s: a profile of another DCFG?", (unsigned long long)m[i]->pc,
			    (unsigned long long)s->process->pid, s->dcfg_path);
			goto done;
		}
		if (e[s->tid] < m[i]->count) {
			dcfg_error_at(err, path, m[i]->line, 1, "the marker's count is %llu, but its PC ran "
			    "%llu %s in thread %llu by %s: a profile of another DCFG?",
			    (unsigned long long)m[i]->count, (unsigned long long)e[s->tid],
			    times(e[s->tid]), (unsigned long long)s->tid, s->dcfg_path);
			goto done;
		}
		for (t = 0; t < threads; t++)
			if (t != s->tid && e[t] > 0) {
				other_thread(s, m[i], path, t, e[t], why, err);
				goto done;
			}
	}
	rc = 0;
done:
	free(pcs);
	free(exec);
	free(found);
	return rc;
}
