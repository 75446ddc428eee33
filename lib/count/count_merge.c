#include "count_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_merge_internal.h"
#include "count_table.h"
#include "common/textlines.h"
#include "common/vec.h"
#include "stream/writer.h"

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

/* ---- the header ---- */

static int
read_header(struct merge *m, char *line, struct merge_header *h)
{
	static const char lead[] = "# dcfg-count ";
	char *tok, *save = NULL;
	uint64_t crc;
	int kind = 0;

	memset(h, 0, sizeof *h);
	if (strncmp(line, lead, sizeof lead - 1) != 0)
		return dcfg_merge_fail(m, "not a table of dcfg-count: its first line is not \"# dcfg-count 1 ...\"");
	tok = strtok_r(line + sizeof lead - 1, " ", &save);
	if (tok == NULL || strcmp(tok, "1") != 0)
		return dcfg_merge_fail(m, "a table of another version of dcfg-count: this one reads version 1");
	while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
		char *eq = strchr(tok, '='), *colon;
		if (eq == NULL)
			return dcfg_merge_fail(m, "the \"# dcfg-count\" line has a word that is not NAME=VALUE");
		*eq++ = '\0';
		if (strcmp(tok, "by") == 0 && !kind) {
			if (dcfg_count_by_parse(eq, &h->by) < 0)
				return dcfg_merge_fail(m, "the \"# dcfg-count\" line names an unknown kind");
			kind = 1;
		} else if (strcmp(tok, "bbv") == 0 && !kind) {
			if (dcfg_textlines_number(eq, strlen(eq), &h->interval) < 0 || h->interval == 0)
				return dcfg_merge_fail(m, "the \"# dcfg-count\" line has a bad interval");
			h->bbv = kind = 1;
		} else if (strcmp(tok, "dcfg") == 0 && (colon = strchr(eq, ':')) != NULL &&
		    colon - eq == 8 && strspn(eq, "0123456789abcdef") == 8 &&
		    dcfg_textlines_number(colon + 1, strlen(colon + 1), &h->bytes) == 0) {
			crc = strtoull(eq, NULL, 16);
			h->crc32 = (uint32_t)crc;
		} else if (strcmp(tok, "top") == 0 && dcfg_textlines_number(eq, strlen(eq), &h->top) == 0) {
			;
		} else if (strcmp(tok, "from") == 0 && strcmp(eq, "dcfg") == 0) {
			h->from_dcfg = 1;
		} else {
			return dcfg_merge_fail(m, "the \"# dcfg-count\" line has a word this dcfg-count does not know");
		}
	}
	if (!kind)
		return dcfg_merge_fail(m, "the \"# dcfg-count\" line says neither by= nor bbv=");
	return 0;
}

static int
check_header(struct merge *m, const struct merge_header *h)
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

/* ---- tables ---- */

static int
share_ok(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && s[n] == '.' && strspn(s + n + 1, "0123456789") == 2 && s[n + 3] == '\0';
}

static int
read_row(struct merge *m, char *line)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(m->h.by);
	char *col[DCFG_COUNT_COLUMNS_MAX];
	int n = m->row_columns, i;
	struct merge_process *p = &m->procs[m->proc];
	struct merge_row r = { MERGE_NONE, 0, MERGE_NONE, NULL, NULL, m->file, m->line, 0, 0, 0 };
	size_t klen;

	for (i = 0; i < n; i++) {
		col[i] = line;
		line = strchr(line, '\t');
		if ((line == NULL) != (i == n - 1))
			return dcfg_merge_fail(m, "a row with another number of columns than the table's");
		if (line)
			*line++ = '\0';
	}
	klen = strlen(col[0]);
	switch (kind->key) {
	case DCFG_COUNT_KEY_ID:
		if (dcfg_textlines_number(col[0], klen, &r.key) < 0)
			return dcfg_merge_fail(m, "a row whose key is not a number");
		break;
	case DCFG_COUNT_KEY_FILE_LINE: {
		char *c = strrchr(col[0], ':');
		if (c == NULL)
			return dcfg_merge_fail(m, "a row whose line is not FILE:LINE or IMAGE:-");
		if (strcmp(c + 1, "-") == 0)
			r.key = DCFG_COUNT_NO_LINE;
		else if (dcfg_textlines_number(c + 1, strlen(c + 1), &r.key) < 0)
			return dcfg_merge_fail(m, "a row whose line number is not a number");
		klen = (size_t)(c - col[0]);
		break;
	}
	case DCFG_COUNT_KEY_FILE:
		if (klen >= 2 && strcmp(col[0] + klen - 2, ":-") == 0) {
			r.key = DCFG_COUNT_NO_LINE;
			klen -= 2;
		}
		break;
	case DCFG_COUNT_KEY_NAME:
		break;
	}
	if (kind->key != DCFG_COUNT_KEY_ID) {
		if ((r.name = dcfg_merge_keep(m, col[0], klen)) == MERGE_NONE)
			return dcfg_merge_oom(m);
	}
	/* the counts are the last columns; a routine's name, a loop's routine .. static before them */
	int exec = n - 3 - kind->iterations;
	if (exec > 1) {
		for (i = 1; i < exec - 1; i++)
			col[i][strlen(col[i])] = '\t';
		if ((r.extra = dcfg_merge_keep(m, col[1], strlen(col[1]))) == MERGE_NONE)
			return dcfg_merge_oom(m);
	}
	if (dcfg_textlines_number(col[exec], strlen(col[exec]), &r.exec) < 0 ||
	    (kind->iterations && dcfg_textlines_number(col[n - 3], strlen(col[n - 3]), &r.iter) < 0) ||
	    dcfg_textlines_number(col[n - 2], strlen(col[n - 2]), &r.instr) < 0 || !share_ok(col[n - 1]))
		return dcfg_merge_fail(m, "a row whose counts are not numbers as dcfg-count writes them");
	if (dcfg_reserve((void **)&p->rows, &p->cap_rows, p->n_rows + 1, sizeof *p->rows) < 0)
		return dcfg_merge_oom(m);
	p->rows[p->n_rows++] = r;
	return 0;
}

/* Is LINE (LEN bytes) "# " and the kind's column names, tab-separated? */
static int
columns_named(const struct dcfg_count_kind *kind, const char *line, size_t len)
{
	size_t i, at = 2, n;

	if (len < 2 || memcmp(line, "# ", 2) != 0)
		return 0;
	for (i = 0; i < kind->n_cols; i++) {
		n = strlen(kind->cols[i].name);
		if (i && (at >= len || line[at++] != '\t'))
			return 0;
		if (at + n > len || memcmp(line + at, kind->cols[i].name, n) != 0)
			return 0;
		at += n;
	}
	return at == len;
}

/*
 * "# total_instructions N": the process's instructions in the file, what
 * its shares are of; the merged table's are of their sum.
 */
static int
read_total(struct merge *m, const char *line, size_t len)
{
	static const char lead[] = "# total_instructions ";
	struct merge_process *p = &m->procs[m->proc];
	uint64_t v, sum;

	if (len < sizeof lead - 1 || memcmp(line, lead, sizeof lead - 1) != 0 ||
	    dcfg_textlines_number(line + sizeof lead - 1, len - (sizeof lead - 1), &v) < 0)
		return dcfg_merge_fail(m, "no \"# total_instructions N\" line after \"# process\" "
		    "(a table of an older dcfg-count?)");
	if (__builtin_add_overflow(p->total, v, &sum))
		p->total_overflow = 1;
	p->total = sum;
	return 0;
}

/* ---- reading ---- */

/* "# process PID": its table, or its vectors, follow. */
static int
process_line(struct merge *m, const char *line, size_t len)
{
	uint64_t pid;
	size_t i;

	if (m->columns || m->total_next || dcfg_textlines_number(line + 10, len - 10, &pid) < 0)
		return dcfg_merge_fail(m, m->columns || m->total_next ?
		    "a \"# process\" line where the table's total or columns are named" :
		    "a \"# process\" line without a process id");
	if (dcfg_merge_check_selected(m, pid, 0, 0) < 0)
		return -1;
	for (i = 0; i < m->n_procs && m->procs[i].pid != pid; i++)
		;
	if (i == m->n_procs) {
		if (dcfg_reserve((void **)&m->procs, &m->cap_procs, i + 1, sizeof *m->procs) < 0)
			return dcfg_merge_oom(m);
		m->procs[m->n_procs++] = (struct merge_process){ .pid = pid };
	}
	m->proc = i;
	m->total_next = !m->h.bbv;
	m->piece = MERGE_NONE;
	return 0;
}

int
dcfg_merge_head(struct merge *m, char *line)
{
	struct merge_header h;

	m->proc = m->piece = MERGE_NONE;
	m->columns = m->total_next = 0;
	m->ended = 0;
	if (read_header(m, line, &h) < 0)
		return -1;
	return check_header(m, &h);
}

int
dcfg_merge_line(struct merge *m, char *line, size_t len)
{
	int rc;

	if (m->ended)
		return dcfg_merge_fail(m, "a line after the \"# trace\" line, which ends a table");
	if (line[0] == '#' && !m->columns && (rc = dcfg_merge_provenance_line(m, line, len)) <= 0)
		return rc;
	if (strncmp(line, "# process ", 10) == 0)
		return process_line(m, line, len);
	if (m->proc == MERGE_NONE)
		return dcfg_merge_fail(m, "a line before the first \"# process\" line");
	if (m->h.bbv)
		return dcfg_merge_bbv_line(m, line, len);
	if (m->total_next) {
		m->total_next = 0;
		m->columns = 1;
		return read_total(m, line, len);
	}
	if (m->columns) {
		m->columns = 0;
		if (!columns_named(dcfg_count_kind(m->h.by), line, len))
			return dcfg_merge_fail(m, "not the columns of the table's kind after \"# process\"");
		return 0;
	}
	if (line[0] == '#')
		return dcfg_merge_fail(m, "a '#' line inside a table");
	return read_row(m, line);
}

int
dcfg_merge_end(struct merge *m)
{
	if (m->columns || m->total_next)
		return dcfg_merge_fail(m, "the file ends before the table's total and columns are named");
	return 0;
}

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

/* ---- writing tables ---- */

struct out_row {
	struct dcfg_count_row r;   /* first: sorted by dcfg_count_row_cmp */
	const char *extra;
};

/* Rows of one key together, and in each key the files in order. */
static int
by_key(const void *a, const void *b)
{
	const struct merge_row *x = a, *y = b;
	int c = x->name_p && y->name_p ? strcmp(x->name_p, y->name_p) : 0;

	if (c)
		return c;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int
same_key(const struct merge_row *x, const struct merge_row *y)
{
	return x->key == y->key && (x->name_p == NULL) == (y->name_p == NULL) &&
	    (x->name_p == NULL || strcmp(x->name_p, y->name_p) == 0);
}

static int
same_text(const char *x, const char *y)
{
	return x == NULL ? y == NULL : y != NULL && strcmp(x, y) == 0;
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

static int
write_table(struct merge *m, struct merge_process *p, struct dcfg_table *w)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(m->h.by);
	struct out_row *rows = NULL;
	size_t i, j, n = 0;
	int of = 0;
	char why[600];

	for (i = 0; i < p->n_rows; i++) {
		p->rows[i].name_p = p->rows[i].name == MERGE_NONE ? NULL : m->pool + p->rows[i].name;
		p->rows[i].extra_p = p->rows[i].extra == MERGE_NONE ? NULL : m->pool + p->rows[i].extra;
	}
	if (p->n_rows > 1)
		qsort(p->rows, p->n_rows, sizeof *p->rows, by_key);
	if (p->n_rows && (rows = malloc(p->n_rows * sizeof *rows)) == NULL)
		return dcfg_merge_oom(m);
	for (i = 0; i < p->n_rows; i = j) {
		const struct merge_row *r = &p->rows[i];
		struct out_row o = { { r->key, r->name_p, NULL, r->exec, r->iter, r->instr },
			r->extra_p };
		for (j = i + 1; j < p->n_rows && same_key(r, &p->rows[j]); j++) {
			const struct merge_row *s = &p->rows[j];
			m->file = s->file;
			m->line = s->line;
			if (s->file == p->rows[j - 1].file) {
				snprintf(why, sizeof why, "a second row of the same key in process %llu "
				    "(the first at line %lu): rows that read alike cannot be merged",
				    (unsigned long long)p->pid, p->rows[j - 1].line);
				free(rows);
				return dcfg_merge_fail(m, why);
			}
			if (!same_text(r->extra_p, s->extra_p)) {
				snprintf(why, sizeof why, "a row whose columns other than counts differ "
				    "from those of the same key in %s line %lu", m->paths[r->file], r->line);
				free(rows);
				return dcfg_merge_fail(m, why);
			}
			o.r.exec = dcfg_count_add(&of, o.r.exec, s->exec);
			o.r.iter = dcfg_count_add(&of, o.r.iter, s->iter);
			o.r.instr = dcfg_count_add(&of, o.r.instr, s->instr);
		}
		rows[n++] = o;
	}
	if (of || p->total_overflow) {
		free(rows);
		return dcfg_error_set(m->err, m->paths[0], "process %llu: a count does not fit in 64 bits",
		    (unsigned long long)p->pid);
	}
	if (n > 1)
		qsort(rows, n, sizeof *rows, kind->cmp ? kind->cmp : dcfg_count_row_cmp);
	if (m->o->top && n > m->o->top)
		n = (size_t)m->o->top;
	dcfg_count_section(w, kind, p->pid, p->total);
	for (i = 0; i < n; i++) {
		dcfg_count_write_key(w, kind->key, &rows[i].r);
		if (rows[i].extra != NULL)
			extra_cells(w, kind, rows[i].extra);
		dcfg_count_write_counts(w, kind, &rows[i].r, p->total);
	}
	free(rows);
	return 0;
}

/* ---- the whole merge ---- */

static void
free_merge(struct merge *m)
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
	dcfg_merge_free_provenance(m);
}

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
	free_merge(&m);
	if (rc < 0)
		return -1;
	return dcfg_output_failed(out) ? 1 : 0;
}
