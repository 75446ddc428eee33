/*
 * dcfg-count --merge: what the tables say they cover (provenance.h), read
 * from their "# selection" and "# trace" lines and said again in the
 * merged table (count_merge_check.c checks it).
 */
#include "count_merge_provenance.h"

#include <stdlib.h>
#include <string.h>

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

int
dcfg_merge_whole_plan(struct merge *m)
{
	struct dcfg_recorded_selection whole;
	struct words w = { NULL, 0, 0, 0 };
	size_t text;

	if (m->n_sels == 0 || m->sels[0].s.shards == 0)
		return 0;

	dcfg_recorded_selection_whole(&m->sels[0].s, &whole);
	dcfg_recorded_selection_put(&whole, put_words, &w);
	text = w.oom ? MERGE_NONE : dcfg_merge_keep(m, w.p + 1, w.n - 1);   /* after its space */
	free(w.p);
	if (text == MERGE_NONE)
		return dcfg_merge_oom(m);
	m->sels[0].text = text;
	return 0;
}

void
dcfg_merge_write_selection(const struct merge *m, struct dcfg_table *w)
{
	size_t i;

	if (m->n_sels == 0)
		return;
	/* all shards of a plan: the whole it was made of, shard 1 of 1 (dcfg_merge_whole_plan) */
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
