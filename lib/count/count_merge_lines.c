/*
 * dcfg-count --merge: a table's lines (or a file of vectors'), as dcfg-count
 * writes them in TSV, read into the merge's state: its first line, its
 * provenance, each process's total, columns and rows. Tables in CSV and
 * JSON are said to these functions as the lines of their TSV form
 * (count_merge_read.c), so that one set of checks holds for every format.
 */
#include "count_merge_lines.h"

#include <stdlib.h>
#include <string.h>

#include "count_merge_bbv.h"
#include "count_merge_check.h"
#include "count_merge_provenance.h"
#include "common/textlines.h"
#include "common/vec.h"

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
	struct merge_row r = { .name = MERGE_NONE, .extra = MERGE_NONE, .file = m->file, .line = m->line };
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
		if (dcfg_textlines_number(col[0], klen, &r.r.key) < 0)
			return dcfg_merge_fail(m, "a row whose key is not a number");
		break;
	case DCFG_COUNT_KEY_FILE_LINE: {
		char *c = strrchr(col[0], ':');
		if (c == NULL)
			return dcfg_merge_fail(m, "a row whose line is not FILE:LINE or IMAGE:-");
		if (strcmp(c + 1, "-") == 0)
			r.r.key = DCFG_COUNT_NO_LINE;
		else if (dcfg_textlines_number(c + 1, strlen(c + 1), &r.r.key) < 0)
			return dcfg_merge_fail(m, "a row whose line number is not a number");
		klen = (size_t)(c - col[0]);
		break;
	}
	case DCFG_COUNT_KEY_FILE:
		if (klen >= 2 && strcmp(col[0] + klen - 2, ":-") == 0) {
			r.r.key = DCFG_COUNT_NO_LINE;
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
	if (dcfg_textlines_number(col[exec], strlen(col[exec]), &r.r.exec) < 0 ||
	    (kind->iterations && dcfg_textlines_number(col[n - 3], strlen(col[n - 3]), &r.r.iter) < 0) ||
	    dcfg_textlines_number(col[n - 2], strlen(col[n - 2]), &r.r.instr) < 0 || !share_ok(col[n - 1]))
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
	return dcfg_merge_check_header(m, &h);
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

