/*
 * dcfg-count --merge: what the tables say they cover (provenance.h),
 * checked before anything is added up. Tables of a plan's shards must
 * all be there, once each, of one trace; tables of other streams must
 * not overlap. A stale shard left from another plan, a shard given
 * twice, a missing one: each is an error, never a different sum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_merge_internal.h"
#include "count_table.h"
#include "common/textlines.h"
#include "common/vec.h"
#include "stream/writer.h"

int
dcfg_merge_provenance_line(struct merge *m, const char *line, size_t len)
{
	struct merge_file *f = &m->files[m->file];
	struct merge_selection *ms;
	const char *why;

	if (dcfg_is_trace_line(line, len)) {
		if (dcfg_trace_id_parse(line, len, &f->crc, &f->bytes) < 0)
			return dcfg_merge_fail(m, "a \"# trace\" line that is not \"# trace CRC:BYTES\"");
		f->traced = m->ended = 1;
		return 0;
	}
	if (!dcfg_is_selection_line(line, len))
		return 1;
	if (m->proc != MERGE_NONE)
		return dcfg_merge_fail(m, "a \"# selection\" line after \"# process\": it belongs after the first line");
	if (m->n_sels == MERGE_SELECTIONS_MAX)
		return dcfg_merge_fail(m, "more than 1024 \"# selection\" lines in one merge");
	if (dcfg_reserve((void **)&m->sels, &m->cap_sels, m->n_sels + 1, sizeof *m->sels) < 0)
		return dcfg_merge_oom(m);
	ms = &m->sels[m->n_sels];
	if (dcfg_recorded_selection_parse(line, len, &ms->s, &why) < 0)
		return dcfg_merge_fail(m, why);
	ms->file = m->file;
	ms->line = m->line;
	/* in the one form its readers take (provenance.h): its words are the merged table's note */
	if ((ms->text = dcfg_merge_keep(m, len > 12 ? line + 12 : "", len > 12 ? len - 12 : 0)) ==
	    MERGE_NONE) {
		dcfg_recorded_selection_free(&ms->s);
		return dcfg_merge_oom(m);
	}
	if (f->n_sel++ == 0)
		f->first_sel = m->n_sels;
	m->n_sels++;
	return 0;
}

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

/* Text put together in a growing buffer; OOM once it could not grow. */
struct words {
	char *p;
	size_t n, cap;
	int oom;
};

static void
put_words(void *ctx, const char *p, size_t n)
{
	struct words *w = ctx;

	if (w->oom || dcfg_reserve((void **)&w->p, &w->cap, w->n + n, 1) < 0) {
		w->oom = 1;
		return;
	}
	memcpy(w->p + w->n, p, n);
	w->n += n;
}

/*
 * All the shards of a plan, checked: from here on the first selection's
 * text is the merged table's, the whole plan (provenance.h), in the words
 * dcfg-expand --shard 1/1 of its selection writes.
 */
static int
keep_whole(struct merge *m)
{
	struct dcfg_recorded_selection whole;
	struct words w = { NULL, 0, 0, 0 };
	size_t text;

	dcfg_recorded_selection_whole(&m->sels[0].s, &whole);
	dcfg_recorded_selection_put(&whole, put_words, &w);
	text = w.oom ? MERGE_NONE : dcfg_merge_keep(m, w.p + 1, w.n - 1);   /* after its space */
	free(w.p);
	if (text == MERGE_NONE)
		return dcfg_merge_oom(m);
	m->sels[0].text = text;
	return 0;
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
	if ((rc = check_missing(m)) < 0 || m->sels[0].s.shards == 0 || (rc = check_tiles(m)) < 0)
		return rc;
	return keep_whole(m);
}

void
dcfg_merge_write_selection(const struct merge *m, struct dcfg_table *w)
{
	size_t i;

	if (m->n_sels == 0)
		return;
	/* all shards of a plan: the whole it was made of, shard 1 of 1 (keep_whole) */
	for (i = 0; i < (m->sels[0].s.shards ? 1 : m->n_sels); i++)
		dcfg_table_note(w, "selection", m->pool + m->sels[i].text, DCFG_TABLE_HEAD);
}

void
dcfg_merge_write_trace(const struct merge *m, struct dcfg_table *w)
{
	char id[32];

	if (!m->files[0].traced)
		return;
	dcfg_count_crc_bytes(id, sizeof id, m->files[0].crc, m->files[0].bytes);
	dcfg_table_note(w, "trace", id, DCFG_TABLE_END);
}

/* The same as lines of the vectors' file. */
void
dcfg_merge_write_selection_lines(const struct merge *m, struct dcfg_output *out)
{
	struct dcfg_recorded_selection whole;
	size_t i;

	if (m->n_sels == 0)
		return;
	if (m->sels[0].s.shards) {
		dcfg_recorded_selection_whole(&m->sels[0].s, &whole);
		dcfg_stream_write_selection(out, &whole);
		return;
	}
	for (i = 0; i < m->n_sels; i++)
		dcfg_stream_write_selection(out, &m->sels[i].s);
}

void
dcfg_merge_write_trace_line(const struct merge *m, struct dcfg_output *out)
{
	if (m->files[0].traced)
		dcfg_stream_write_trace(out, m->files[0].crc, m->files[0].bytes);
}

void
dcfg_merge_free_provenance(struct merge *m)
{
	size_t i;

	for (i = 0; i < m->n_sels; i++)
		dcfg_recorded_selection_free(&m->sels[i].s);
	free(m->sels);
	free(m->files);
}
