/*
 * dcfg-count --merge, the whole of it: each file read (count_merge_lines.c,
 * count_merge_read.c), everything checked (count_merge_check.c), then the
 * rows of one key added up into the counting core's rows and written as
 * one run writes them, or the vectors put in place (count_merge_bbv.c).
 */
#include "count_merge.h"

#include <stdlib.h>
#include <string.h>

#include "count_merge_bbv.h"
#include "count_merge_check.h"
#include "count_merge_lines.h"
#include "count_merge_provenance.h"
#include "count_merge_read.h"
#include "common/textlines.h"
#include "stream/writer.h"

/*
 * A file by its first line: a table (or vectors) in TSV, or a table in CSV
 * or JSON, read into the lines of its TSV form (count_merge_read.c).
 */
static int
read_file(struct merge *m)
{
	struct dcfg_textlines *t = dcfg_textlines_open(m->paths[m->file], m->err);
	char *line;
	size_t len;
	int rc = 0;

	if (t == NULL)
		return -1;
	m->line = 1;
	if ((rc = dcfg_textlines_next(t, &line, &len, m->err)) <= 0) {
		if (rc == 0)
			rc = dcfg_merge_fail(m, "an empty file, not a table of dcfg-count");
	} else if (line[0] == '{' || strncmp(line, "tool,", 5) == 0) {
		rc = dcfg_merge_read_other(m, t, line, len);
	} else if (strncmp(line, "dcfg-count ", 11) == 0) {
		rc = dcfg_merge_fail(m, "a table in the table format, for people: --merge reads tables "
		    "in tsv, csv and json");
	} else if ((rc = dcfg_merge_head(m, line)) == 0) {
		while ((rc = dcfg_textlines_next(t, &line, &len, m->err)) > 0) {
			m->line = dcfg_textlines_lineno(t);
			if ((rc = dcfg_merge_line(m, line, len)) < 0)
				break;
		}
		if (rc == 0)
			rc = dcfg_merge_end(m);
	}
	dcfg_textlines_close(t);
	return rc < 0 ? -1 : 0;
}

/* ---- adding up ---- */

/* Rows of one key together, and in each key the files in order. */
static int
by_key(const void *a, const void *b)
{
	const struct merge_row *x = a, *y = b;
	int c = x->r.name && y->r.name ? strcmp(x->r.name, y->r.name) : 0;

	if (c)
		return c;
	if (x->r.key != y->r.key)
		return x->r.key < y->r.key ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int
same_key(const struct dcfg_count_row *x, const struct dcfg_count_row *y)
{
	return x->key == y->key && (x->name == NULL) == (y->name == NULL) &&
	    (x->name == NULL || strcmp(x->name, y->name) == 0);
}

/*
 * P's rows, pointed at their names and cells now that the pool has stopped
 * moving, and those of one key added up into one, in place: *N of them are
 * the merged table's. *OF is set when a sum goes past 2^64 - 1. 0, or -1
 * when rows may not be added (count_merge_check.h).
 */
static int
add_up(struct merge *m, struct merge_process *p, size_t *n, int *of)
{
	size_t i, j;

	for (i = 0; i < p->n_rows; i++) {
		p->rows[i].r.name = p->rows[i].name == MERGE_NONE ? NULL : m->pool + p->rows[i].name;
		p->rows[i].extra_p = p->rows[i].extra == MERGE_NONE ? NULL : m->pool + p->rows[i].extra;
	}
	if (p->n_rows > 1)
		qsort(p->rows, p->n_rows, sizeof *p->rows, by_key);
	*n = 0;
	for (i = 0; i < p->n_rows; i = j) {
		struct merge_row sum = p->rows[i];
		for (j = i + 1; j < p->n_rows && same_key(&sum.r, &p->rows[j].r); j++) {
			if (dcfg_merge_check_row(m, p, &p->rows[i], &p->rows[j - 1], &p->rows[j]) < 0)
				return -1;
			dcfg_count_row_add(of, &sum.r, &p->rows[j].r);
		}
		p->rows[(*n)++] = sum;
	}
	return 0;
}

/*
 * The columns between the key and the counts, tab-separated as read: a cell
 * each, a number column's as a number (JSON writes it unquoted).
 */
static void
extra_cells(struct dcfg_table *w, const struct dcfg_count_kind *kind, const char *extra)
{
	struct dcfg_table_piece at = { DCFG_PIECE_TEXT, NULL, 0 };
	char cell[512];
	const char *tab;
	size_t n, col = 1;
	uint64_t v;

	for (;; col++) {
		tab = strchr(extra, '\t');
		n = tab ? (size_t)(tab - extra) : strlen(extra);
		if (col < kind->n_cols && kind->cols[col].kind == DCFG_COLUMN_NUMBER &&
		    dcfg_textlines_number(extra, n, &v) == 0) {
			dcfg_table_u64(w, v);
		} else if (n < sizeof cell) {
			memcpy(cell, extra, n);
			cell[n] = '\0';
			at.s = cell;
			dcfg_table_pieces(w, &at, 1);
		} else {   /* a long name: written as it was read, cut at the tab by hand */
			char *copy = strndup(extra, n);
			dcfg_table_text(w, copy ? copy : "-");
			free(copy);
		}
		if (tab == NULL)
			return;
		extra = tab + 1;
	}
}

/* P's merged table: its rows added up, sorted as one run sorts them, cut to --top. */
static int
write_table(struct merge *m, struct merge_process *p, struct dcfg_table *w)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(m->h.by);
	size_t i, n;
	int of = 0;

	if (add_up(m, p, &n, &of) < 0)
		return -1;
	if (of || p->total_overflow)
		return dcfg_error_set(m->err, m->paths[0], "process %llu: a count does not fit in 64 bits",
		    (unsigned long long)p->pid);
	/* the core's row first in each: sorted as the core sorts its own */
	if (n > 1)
		qsort(p->rows, n, sizeof *p->rows, kind->cmp ? kind->cmp : dcfg_count_row_cmp);
	if (m->o->top && n > m->o->top)
		n = (size_t)m->o->top;
	dcfg_count_section(w, kind, p->pid, p->total);
	for (i = 0; i < n; i++) {
		dcfg_count_write_key(w, kind->key, &p->rows[i].r);
		if (p->rows[i].extra_p != NULL)
			extra_cells(w, kind, p->rows[i].extra_p);
		dcfg_count_write_counts(w, kind, &p->rows[i].r, p->total);
	}
	return 0;
}

/* ---- the whole merge ---- */

int
dcfg_count_merge(char *const *paths, size_t n, const struct dcfg_count_merge_options *o,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct merge m = { .o = o, .paths = paths, .err = err };
	struct dcfg_count_options co = { 0 };
	struct dcfg_table w;
	size_t i, j;
	int rc = 0;

	if ((m.files = calloc(n ? n : 1, sizeof *m.files)) == NULL)
		return dcfg_error_set(err, n ? paths[0] : "-", "out of memory");
	for (m.file = 0; m.file < n && rc == 0; m.file++)
		rc = read_file(&m);
	if (rc == 0)
		rc = dcfg_merge_check_provenance(&m, n);
	if (rc == 0)
		rc = dcfg_merge_whole_plan(&m);
	if (rc == 0 && m.h.bbv && o->format_given)
		rc = dcfg_error_set(err, paths[0], "vectors are written in SimPoint's format alone: "
		    "no --format");
	/* Everything is checked before anything is written, but the sums and the overlaps. */
	if (rc == 0 && !m.h.bbv) {
		dcfg_table_open(&w, out, o->format, "dcfg-count", 1);
		dcfg_count_table_meta(&w, m.h.crc32, m.h.bytes, m.h.by, o->top, 0);
		dcfg_merge_write_selection(&m, &w);
		dcfg_merge_write_trace(&m, &w);
		for (i = 0; i < m.n_procs && rc == 0; i++)
			rc = write_table(&m, &m.procs[i], &w);
		if (rc == 0 && dcfg_table_close(&w) < 0)
			rc = dcfg_merge_oom(&m);
		else if (rc < 0)
			dcfg_table_free(&w);
	} else if (rc == 0) {
		co.bbv = m.h.interval;
		dcfg_count_out_header(out, m.h.crc32, m.h.bytes, &co, 0);
		dcfg_merge_write_selection_lines(&m, out);
		for (i = 0; i < m.n_procs && rc == 0; i++) {
			struct merge_process *p = &m.procs[i];
			dcfg_stream_write_process(out, p->pid);
			for (j = 0; j < p->n_threads && rc == 0; j++)
				rc = dcfg_merge_write_thread(&m, p, &p->threads[j], out);
		}
		if (rc == 0)
			dcfg_merge_write_trace_line(&m, out);
	}
	dcfg_merge_free(&m);
	if (rc < 0)
		return -1;
	return dcfg_output_failed(out) ? 1 : 0;
}
