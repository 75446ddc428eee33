/*
 * dcfg-count --merge: what must hold before anything is added up. The
 * tables are all of one kind (or vectors of one interval) and one DCFG;
 * what they say they cover (provenance.h) is disjoint, and a plan's shards
 * are all there, once each, of one trace; rows of one key come from one
 * row a file and agree on what is not a count; a thread's vectors cut
 * between files are placed on the trace's instructions without overlap. A
 * stale shard left from another plan, a shard given twice, a missing one:
 * each is an error, never a different sum.
 */
#include "count_merge_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int
dcfg_merge_check_header(struct merge *m, const struct merge_header *h)
{
	char why[512];
	const char *first = m->paths[0];

	if (h->top)
		return dcfg_merge_fail(m, "a table cut by --top: rows are missing, so it cannot be merged "
		    "(give --top to --merge instead)");
	if (h->from_dcfg)
		return dcfg_merge_fail(m, "a table of the DCFG's own counts (--from-dcfg), not of a shard of a trace");
	if (m->o->check_dcfg && (h->crc32 != m->o->crc32 || h->bytes != m->o->bytes))
		return dcfg_merge_fail(m, "made with another DCFG than --dcfg's");
	if (m->file == 0) {
		m->h = *h;
		if (h->bbv)
			return 0;
		m->row_columns = dcfg_count_kind_columns(dcfg_count_kind(h->by));
		if (m->row_columns > DCFG_COUNT_COLUMNS_MAX)   /* a kind added with more columns than bykind.h says */
			return dcfg_merge_fail(m, "a kind of table with more columns than --merge reads");
		return 0;
	}
	if (h->bbv != m->h.bbv) {
		snprintf(why, sizeof why, "%s, not %s as in %s", h->bbv ? "vectors" : "a table",
		    m->h.bbv ? "vectors" : "a table", first);
		return dcfg_merge_fail(m, why);
	}
	if (h->bbv && h->interval != m->h.interval) {
		snprintf(why, sizeof why, "vectors of interval %llu, not %llu as in %s",
		    (unsigned long long)h->interval, (unsigned long long)m->h.interval, first);
		return dcfg_merge_fail(m, why);
	}
	if (!h->bbv && h->by != m->h.by) {
		snprintf(why, sizeof why, "a table by %s, not by %s as in %s",
		    dcfg_count_kind(h->by)->name, dcfg_count_kind(m->h.by)->name, first);
		return dcfg_merge_fail(m, why);
	}
	if (h->crc32 != m->h.crc32 || h->bytes != m->h.bytes) {
		snprintf(why, sizeof why, "made with another DCFG than %s", first);
		return dcfg_merge_fail(m, why);
	}
	return 0;
}

/* ---- what the tables cover ---- */

int
dcfg_merge_check_selected(struct merge *m, uint64_t pid, int has_tid, uint64_t tid)
{
	const struct merge_file *f = &m->files[m->file];
	char why[256];
	size_t i;

	if (f->n_sel == 0)
		return 0;
	for (i = f->first_sel; i < f->first_sel + f->n_sel; i++)
		if (dcfg_recorded_selection_has_process(&m->sels[i].s, pid) &&
		    (!has_tid || dcfg_recorded_selection_has_thread(&m->sels[i].s, tid)))
			return 0;
	if (has_tid)
		snprintf(why, sizeof why, "thread %llu of process %llu is not in the table's "
		    "\"# selection\": the table was edited or joined after dcfg-count wrote it",
		    (unsigned long long)tid, (unsigned long long)pid);
	else
		snprintf(why, sizeof why, "process %llu is not in the table's \"# selection\": the "
		    "table was edited or joined after dcfg-count wrote it", (unsigned long long)pid);
	return dcfg_merge_fail(m, why);
}

/* An error at selection S, about it and another file's. */
static int
fail_at(struct merge *m, const struct merge_selection *s, const char *why)
{
	m->file = s->file;
	m->line = s->line;
	return dcfg_merge_fail(m, why);
}

/* Every file records a selection, or none does; all are of one trace, or none says which. */
static int
check_files(struct merge *m, size_t n)
{
	const struct merge_file *a = &m->files[0];
	char why[512];
	size_t i;

	for (i = 1; i < n; i++) {
		const struct merge_file *b = &m->files[i];
		if ((a->n_sel > 0) != (b->n_sel > 0)) {
			snprintf(why, sizeof why, "a table that records %s, merged with %s, which records "
			    "%s: tables of shards (dcfg-expand --shard) and of other streams do not mix",
			    b->n_sel ? "its selection" : "no selection", m->paths[0],
			    a->n_sel ? "its selection" : "none");
			return dcfg_error_set(m->err, m->paths[i], "%s", why);
		}
		if (a->traced != b->traced)
			return dcfg_error_set(m->err, m->paths[i], "a table %s \"# trace\" line, merged with "
			    "%s, which %s", b->traced ? "with a" : "without a", m->paths[0],
			    a->traced ? "has one" : "has none");
		if (a->traced && (a->crc != b->crc || a->bytes != b->bytes))
			return dcfg_error_set(m->err, m->paths[i], "a table of another trace (%08x:%llu) "
			    "than %s (%08x:%llu)", (unsigned)b->crc, (unsigned long long)b->bytes,
			    m->paths[0], (unsigned)a->crc, (unsigned long long)a->bytes);
	}
	for (i = 0; i < m->n_sels; i++)
		if (m->sels[i].s.shards && !m->files[m->sels[i].file].traced)
			return fail_at(m, &m->sels[i], "a shard's table without its \"# trace\" line: it, "
			    "or the stream it counted, was cut short");
	return 0;
}

/* The shards are of one plan, and each is there once. */
static int
check_plan(struct merge *m)
{
	const struct merge_selection *a = &m->sels[0];
	size_t i, j;
	char why[1024], this[384], that[384];

	for (i = 1; i < m->n_sels; i++) {
		const struct merge_selection *b = &m->sels[i];
		if (dcfg_recorded_selection_same_plan(&b->s, &a->s))
			continue;
		if (b->s.shards == 0)
			snprintf(why, sizeof why, "a selection of no shard, merged with %s, shard %llu "
			    "of %llu of a plan", m->paths[a->file], (unsigned long long)a->s.shard,
			    (unsigned long long)a->s.shards);
		else if (a->s.shards == 0)
			snprintf(why, sizeof why, "shard %llu of %llu of a plan, merged with %s, a "
			    "selection of no shard", (unsigned long long)b->s.shard,
			    (unsigned long long)b->s.shards, m->paths[a->file]);
		else {
			dcfg_recorded_selection_plan_name(&b->s, this, sizeof this);
			dcfg_recorded_selection_plan_name(&a->s, that, sizeof that);
			snprintf(why, sizeof why, "%s, but %s is %s: shards of two plans (one left "
			    "from an earlier plan?)", this, m->paths[a->file], that);
		}
		return fail_at(m, b, why);
	}
	for (i = 0; a->s.shards && i < m->n_sels; i++)
		for (j = 0; j < i; j++)
			if (m->sels[j].s.shard == m->sels[i].s.shard) {
				snprintf(why, sizeof why, "shard %llu of %llu again: %s is that shard too",
				    (unsigned long long)m->sels[i].s.shard,
				    (unsigned long long)m->sels[i].s.shards, m->paths[m->sels[j].file]);
				return fail_at(m, &m->sels[i], why);
			}
	return 0;
}

/* Every shard of the plan is there: they are distinct, so N of them are all. */
static int
check_missing(struct merge *m)
{
	const struct merge_selection *a = &m->sels[0];
	uint8_t *seen;
	size_t i, at, listed = 0;
	uint64_t k, missing;
	char why[512];

	if (a->s.shards == 0 || a->s.shards == m->n_sels)
		return 0;
	missing = a->s.shards - m->n_sels;
	if ((seen = calloc(m->n_sels + 1, 1)) == NULL)
		return dcfg_merge_oom(m);
	for (i = 0; i < m->n_sels; i++)   /* a shard above n_sels marks nothing: one below is missing */
		if (m->sels[i].s.shard <= m->n_sels)
			seen[m->sels[i].s.shard] = 1;
	at = (size_t)snprintf(why, sizeof why, "shard%s ", missing > 1 ? "s" : "");
	for (k = 1; k <= a->s.shards && listed < 32; k++) {
		int here = 0;
		if (k <= m->n_sels)
			here = seen[k];
		else
			for (i = 0; i < m->n_sels && !here; i++)
				here = m->sels[i].s.shard == k;
		if (!here)
			at += (size_t)snprintf(why + at, sizeof why - at, "%s%llu", listed++ ? ", " : "",
			    (unsigned long long)k);
	}
	free(seen);
	if (listed < missing)
		at += (size_t)snprintf(why + at, sizeof why - at, ", ...");
	snprintf(why + at, sizeof why - at, " of %llu missing", (unsigned long long)a->s.shards);
	return fail_at(m, a, why);
}

/* All of the plan's shards, disjoint: a thread they cut is cut without a gap. */
static int
check_tiles(struct merge *m)
{
	const struct dcfg_recorded_selection **s = malloc(m->n_sels * sizeof *s);
	char why[512];
	size_t i, at;
	int rc;

	if (s == NULL)
		return dcfg_merge_oom(m);
	for (i = 0; i < m->n_sels; i++)
		s[i] = &m->sels[i].s;
	rc = dcfg_recorded_selections_tile(s, m->n_sels, &at, why, sizeof why);
	free(s);
	return rc < 0 ? fail_at(m, &m->sels[at], why) : 0;
}

int
dcfg_merge_check_provenance(struct merge *m, size_t n)
{
	size_t i, j;
	char why[512];
	int rc;

	if (n == 0 || (rc = check_files(m, n)) < 0)
		return n == 0 ? 0 : rc;
	if (m->n_sels == 0)
		return 0;
	if ((rc = check_plan(m)) < 0)
		return rc;
	for (i = 0; i < m->n_sels; i++)
		for (j = i + 1; j < m->n_sels; j++) {
			const struct merge_selection *a = &m->sels[i], *b = &m->sels[j];
			if (dcfg_recorded_selection_overlap(&a->s, &b->s)) {
				snprintf(why, sizeof why, "its selection overlaps that of %s line %lu: edges "
				    "of both would count twice", m->paths[a->file], a->line);
				return fail_at(m, b, why);
			}
		}
	if ((rc = check_missing(m)) < 0 || m->sels[0].s.shards == 0)
		return rc;
	return check_tiles(m);
}


/* ---- rows ---- */

static int
same_text(const char *x, const char *y)
{
	return x == NULL ? y == NULL : y != NULL && strcmp(x, y) == 0;
}

int
dcfg_merge_check_row(struct merge *m, const struct merge_process *p, const struct merge_row *first,
    const struct merge_row *prev, const struct merge_row *r)
{
	char why[600];

	m->file = r->file;
	m->line = r->line;
	if (r->file == prev->file) {
		snprintf(why, sizeof why, "a second row of the same key in process %llu "
		    "(the first at line %lu): rows that read alike cannot be merged",
		    (unsigned long long)p->pid, prev->line);
		return dcfg_merge_fail(m, why);
	}
	if (!same_text(first->extra_p, r->extra_p)) {
		snprintf(why, sizeof why, "a row whose columns other than counts differ "
		    "from those of the same key in %s line %lu", m->paths[first->file], first->line);
		return dcfg_merge_fail(m, why);
	}
	return 0;
}

/* ---- vectors ---- */

static int
by_from(const void *a, const void *b, void *ctx)
{
	const struct merge_piece *pcs = ctx, *x = &pcs[*(const size_t *)a], *y = &pcs[*(const size_t *)b];

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (x->file > y->file) - (x->file < y->file);
}

/* An insertion sort: a thread has a piece per shard, few, and qsort takes no context. */
static void
sort_pieces(size_t *idx, size_t n, struct merge_piece *pcs)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && by_from(&idx[j - 1], &idx[j], pcs) > 0; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
}

int
dcfg_merge_check_pieces(struct merge *m, const struct merge_process *p, struct merge_thread *t)
{
	size_t i, n;
	size_t blank = 0;
	char why[600];

	/*
	 * A section with no vector and no "# instructions" line is what
	 * dcfg-count --bbv writes for a shard whose window held no edge and no
	 * chunk marker of the thread (dcfg-expand --plan --align makes one
	 * where a chunk's INSTR_COUNT is more than its edges' instructions): it
	 * adds nothing to any interval, so it is dropped here, and the thread
	 * is what its other pieces say. It is not given an "# instructions"
	 * line by dcfg-count instead: there is no position it could name
	 * without moving the merged line's TO past where one run's last edge
	 * leaves it, so merged would differ from one run. Dropping it is safe
	 * beside placed pieces only: expanded without --chunks, a blank piece
	 * may hold edges that start no block but move the position, which a
	 * placed piece does not depend on and an unplaced one does. So a piece
	 * with vectors and no "# instructions" line is still refused beside
	 * any other piece, blank or not.
	 */
	if (t->n_pieces > 1) {
		for (i = 0, n = 0; i < t->n_pieces; i++) {
			const struct merge_piece *pc = &m->pieces[t->pieces[i]];
			if (pc->anchored || pc->n > 0)
				t->pieces[n++] = t->pieces[i];
		}
		blank = t->n_pieces - n;
		t->n_pieces = n;
	}
	for (i = 0; i < t->n_pieces; i++)
		if ((t->n_pieces > 1 || blank > 0) && !m->pieces[t->pieces[i]].anchored) {
			const struct merge_piece *pc = &m->pieces[t->pieces[i]];
			m->file = pc->file;
			m->line = pc->line;
			snprintf(why, sizeof why, "thread %llu of process %llu is in several files, and "
			    "here its vectors are not placed on the trace's instruction counts "
			    "(no \"# instructions\" line): expand the shards with dcfg-expand --chunks",
			    (unsigned long long)t->tid, (unsigned long long)p->pid);
			return dcfg_merge_fail(m, why);
		}
	sort_pieces(t->pieces, t->n_pieces, m->pieces);
	for (i = 1; i < t->n_pieces; i++) {
		const struct merge_piece *a = &m->pieces[t->pieces[i - 1]], *b = &m->pieces[t->pieces[i]];
		if (a->to > b->from) {
			m->file = b->file;
			m->line = b->line;
			snprintf(why, sizeof why, "thread %llu of process %llu: instructions %llu to %llu "
			    "here overlap %llu to %llu in %s: shards that overlap would count twice",
			    (unsigned long long)t->tid, (unsigned long long)p->pid,
			    (unsigned long long)b->from, (unsigned long long)b->to,
			    (unsigned long long)a->from, (unsigned long long)a->to, m->paths[a->file]);
			return dcfg_merge_fail(m, why);
		}
	}
	return 0;
}
