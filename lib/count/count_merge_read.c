/*
 * dcfg-count --merge of tables in CSV and JSON (dcfg-count --format): each
 * file is read whole and said again as the lines of its TSV form, which
 * count_merge_lines.c reads as it reads a TSV file, so that one set of checks
 * holds for every format. Fields that could not come from dcfg-count (a
 * tab, a line break or a control character, which its escaped names never
 * hold) are refused rather than passed on to forge a column.
 */
#include "count_merge_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "count_merge_lines.h"
#include "common/textlines.h"
#include "common/vec.h"

/* A growing text: the whole file, a field, a line said in TSV. */
struct text {
	char *s;
	size_t n, cap;
	int failed;
};

static void
add(struct text *t, const char *s, size_t n)
{
	if (t->failed || dcfg_reserve((void **)&t->s, &t->cap, t->n + n + 1, 1) < 0) {
		t->failed = 1;
		return;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

static void
adds(struct text *t, const char *s)
{
	add(t, s, strlen(s));
}

/* Is S a field dcfg-count could have written: no tab, line break or control character? */
static int
plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* LINE said to count_merge_lines.c, then emptied. */
static int
say(struct merge *m, struct text *line)
{
	int rc;

	if (line->failed)
		return dcfg_merge_oom(m);
	if (line->s == NULL)
		add(line, "", 0);
	rc = dcfg_merge_line(m, line->s, line->n);
	line->n = 0;
	return rc;
}

/* The head line, "# dcfg-count VERSION by=.. dcfg=.. [top=..] [from=..]", and the selection's lines. */
static int
say_head(struct merge *m, struct text *line, const char *version, const char *by, const char *dcfg,
    const char *top, const char *from, const char *selection)
{
	const char *nl;

	line->n = 0;
	adds(line, "# dcfg-count ");
	adds(line, version);
	adds(line, " by=");
	adds(line, by);
	adds(line, " dcfg=");
	adds(line, dcfg);
	if (top && *top) {
		adds(line, " top=");
		adds(line, top);
	}
	if (from && *from) {
		adds(line, " from=");
		adds(line, from);
	}
	if (line->failed)
		return dcfg_merge_oom(m);
	if (dcfg_merge_head(m, line->s) < 0)
		return -1;
	line->n = 0;
	while (selection && *selection) {
		nl = strchr(selection, '\n');
		adds(line, "# selection ");
		add(line, selection, nl ? (size_t)(nl - selection) : strlen(selection));
		if (say(m, line) < 0)
			return -1;
		selection = nl ? nl + 1 : "";
	}
	return 0;
}

/* "# process P", "# total_instructions T" and the kind's columns. */
static int
say_section(struct merge *m, struct text *line, const char *pid, const char *total)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(m->h.by);
	size_t i;

	adds(line, "# process ");
	adds(line, pid);
	if (say(m, line) < 0)
		return -1;
	adds(line, "# total_instructions ");
	adds(line, total);
	if (say(m, line) < 0)
		return -1;
	adds(line, "# ");
	for (i = 0; i < kind->n_cols; i++) {
		if (i)
			adds(line, "\t");
		adds(line, kind->cols[i].name);
	}
	return say(m, line);
}

static int
say_trace(struct merge *m, struct text *line, const char *trace)
{
	if (trace == NULL || *trace == '\0')
		return 0;
	adds(line, "# trace ");
	adds(line, trace);
	return say(m, line);
}

/* ---- CSV (RFC 4180) ---- */

struct csv {
	const char *s;
	size_t n, at;
	struct text fields;        /* the record's fields, each NUL-terminated */
	size_t *start; size_t n_start, cap_start;
	unsigned long line;        /* of the record's start */
	const size_t *line_at; size_t n_lines;   /* where each line of the file starts */
};

static const char *
field(const struct csv *c, size_t i)
{
	return c->fields.s + c->start[i];
}

/* The next record: 1, 0 at the end, -1 when it is not CSV (or out of memory). */
static int
csv_record(struct csv *c, const char **why)
{
	size_t lo = 0, hi = c->n_lines;

	if (c->at >= c->n)
		return 0;
	while (hi - lo > 1) {   /* the line the record starts on */
		size_t mid = (lo + hi) / 2;
		if (c->line_at[mid] <= c->at)
			lo = mid;
		else
			hi = mid;
	}
	c->line = lo + 1;
	c->fields.n = 0;
	c->n_start = 0;
	for (;;) {
		if (dcfg_reserve((void **)&c->start, &c->cap_start, c->n_start + 1, sizeof *c->start) < 0)
			return *why = "out of memory", -1;
		c->start[c->n_start++] = c->fields.n;
		if (c->at < c->n && c->s[c->at] == '"') {
			for (c->at++;; c->at++) {
				if (c->at >= c->n)
					return *why = "a quoted field that does not end", -1;
				if (c->s[c->at] == '"' && c->at + 1 < c->n && c->s[c->at + 1] == '"')
					add(&c->fields, &c->s[c->at++], 1);
				else if (c->s[c->at] == '"')
					break;
				else
					add(&c->fields, &c->s[c->at], 1);
			}
			c->at++;
		} else {
			size_t k = strcspn(c->s + c->at, ",\r\n\"");
			add(&c->fields, c->s + c->at, k);
			c->at += k;
			if (c->at < c->n && c->s[c->at] == '"')
				return *why = "a quote inside a field that is not quoted", -1;
		}
		add(&c->fields, "", 1);   /* the field's NUL */
		if (c->fields.failed)
			return *why = "out of memory", -1;
		if (c->at >= c->n)
			return 1;
		if (c->s[c->at] == ',') {
			c->at++;
			continue;
		}
		if (c->s[c->at] == '\r' && c->at + 1 < c->n && c->s[c->at + 1] == '\n')
			c->at++;
		if (c->s[c->at] != '\n')
			return *why = "a field followed by more than a comma or a line break", -1;
		c->at++;
		return 1;
	}
}

/* The metadata columns a CSV table of dcfg-count has, before its own. */
enum { TOOL, VERSION, BY, DCFG, TOP, FROM, SELECTION, TRACE, PROCESS, TOTAL, META };
static const char *const meta_names[META] = { "tool", "version", "by", "dcfg", "top", "from",
	"selection", "trace", "process", "total_instructions" };

/* Are the file's fields of this record (tool .. trace) those of the first, kept in FIRSTS? */
static int
same_file_fields(const struct text *firsts, const char *const *v)
{
	size_t k, at = 0;

	for (k = 0; k < PROCESS; k++) {
		if (strcmp(firsts->s + at, v[k]) != 0)
			return 0;
		at += strlen(v[k]) + 1;
	}
	return 1;
}

/* The header's names of the table's own columns, tab-separated, are the kind's? */
static int
kind_columns(const struct merge *m, const char *names)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(m->h.by);
	size_t i, n;

	for (i = 0; i < kind->n_cols; i++) {
		n = strlen(kind->cols[i].name);
		if (strncmp(names, kind->cols[i].name, n) != 0 || names[n] != (i + 1 < kind->n_cols ? '\t' : '\0'))
			return 0;
		names += n + 1;
	}
	return 1;
}

/* One record: a new section when its process or total is not the last record's; a row unless empty. */
static int
csv_row(struct merge *m, struct csv *c, size_t first_table, const char *const *v, struct text *pid,
    struct text *total, struct text *line, int new_file)
{
	size_t i;
	int empty = 1;

	if (new_file || strcmp(pid->s, v[PROCESS]) != 0 || strcmp(total->s, v[TOTAL]) != 0) {
		pid->n = total->n = 0;
		adds(pid, v[PROCESS]);
		adds(total, v[TOTAL]);
		if (say_section(m, line, v[PROCESS], v[TOTAL]) < 0)
			return -1;
	}
	for (i = first_table; i < c->n_start; i++) {
		if (!plain(field(c, i)))
			return dcfg_merge_fail(m, "a field with a tab, a line break or a control character: "
			    "not as dcfg-count writes it");
		empty &= *field(c, i) == '\0';
		if (i > first_table)
			adds(line, "\t");
		adds(line, field(c, i));
	}
	if (empty) {   /* a section without rows: the record carries its total alone */
		line->n = 0;
		return 0;
	}
	return say(m, line);
}

static int
read_csv(struct merge *m, struct csv *c)
{
	struct text line = { 0 }, firsts = { 0 }, pid = { 0 }, total = { 0 }, names = { 0 };
	size_t col[META], first_table, n_fields, i, k;
	const char *v[META], *why = NULL;
	unsigned long records = 0;
	int rc;

	for (k = 0; k < META; k++)
		col[k] = SIZE_MAX;
	if ((rc = csv_record(c, &why)) <= 0)
		return dcfg_merge_fail(m, why ? why : "an empty file, not a table of dcfg-count");
	for (first_table = 0; first_table < c->n_start; first_table++) {
		for (k = 0; k < META && strcmp(field(c, first_table), meta_names[k]) != 0; k++)
			;
		if (k == META)
			break;
		col[k] = first_table;
	}
	if (col[TOOL] != 0 || col[VERSION] != 1 || col[BY] == SIZE_MAX || col[DCFG] == SIZE_MAX ||
	    col[PROCESS] == SIZE_MAX || col[TOTAL] == SIZE_MAX)
		return dcfg_merge_fail(m, "not a table of dcfg-count: its header is not \"tool,version,"
		    "by,dcfg,\" ... \"process,total_instructions,\" and the table's columns");
	n_fields = c->n_start;
	for (i = first_table; i < n_fields; i++)
		add(&names, field(c, i), strlen(field(c, i)) + 1);
	for (i = 0; names.s && i + 1 < names.n; i++)
		if (names.s[i] == '\0')
			names.s[i] = '\t';
	while ((rc = csv_record(c, &why)) > 0) {
		rc = -1;
		m->line = c->line;
		if (c->n_start != n_fields) {
			dcfg_merge_fail(m, "a record with another number of fields than the header");
			break;
		}
		for (k = 0; k < META; k++)
			v[k] = col[k] == SIZE_MAX ? "" : field(c, col[k]);
		if (records == 0) {
			if (strcmp(v[TOOL], "dcfg-count") != 0) {
				dcfg_merge_fail(m, "not a table of dcfg-count: its tool is another");
				break;
			}
			for (k = 0; k < PROCESS; k++)   /* the file's own fields, in every record */
				add(&firsts, v[k], strlen(v[k]) + 1);
			if (say_head(m, &line, v[VERSION], v[BY], v[DCFG], v[TOP], v[FROM], v[SELECTION]) < 0)
				break;
			if (!kind_columns(m, names.s ? names.s : "")) {
				m->line = 1;
				dcfg_merge_fail(m, "not the columns of the table's kind");
				break;
			}
		} else if (!same_file_fields(&firsts, v)) {
			dcfg_merge_fail(m, "a record whose tool, version, by, dcfg, top, from, selection or "
			    "trace is not the first record's");
			break;
		}
		if (csv_row(m, c, first_table, v, &pid, &total, &line, records++ == 0) < 0)
			break;
		rc = 0;
	}
	if (rc < 0 && why != NULL) {
		m->line = c->line;
		dcfg_merge_fail(m, why);
	} else if (rc == 0 && records == 0) {
		rc = dcfg_merge_fail(m, "a table in CSV without a record: its kind and DCFG are in them");
	} else if (rc == 0 && firsts.failed) {
		rc = dcfg_merge_oom(m);
	} else if (rc == 0 && (rc = say_trace(m, &line, v[TRACE])) == 0) {   /* the last record's: the first's */
		rc = dcfg_merge_end(m);
	}
	free(line.s);
	free(firsts.s);
	free(pid.s);
	free(total.s);
	free(names.s);
	return rc < 0 ? -1 : 0;
}

/* ---- JSON ---- */

/* The member KEY of object O, or NULL. */
static yajl_val
member(yajl_val o, const char *key)
{
	size_t i;

	for (i = 0; i < o->u.object.len; i++)
		if (strcmp(o->u.object.keys[i], key) == 0)
			return o->u.object.values[i];
	return NULL;
}

/* A value as the text of its TSV cell: a string as it is, a number as written. NULL if neither. */
static const char *
cell_text(yajl_val v)
{
	if (YAJL_IS_STRING(v))
		return plain(YAJL_GET_STRING(v)) ? YAJL_GET_STRING(v) : NULL;
	if (YAJL_IS_NUMBER(v))
		return YAJL_GET_NUMBER(v);
	return NULL;
}

/* Are the keys of O all among the N in KEYS? */
static int
keys_known(yajl_val o, const char *const *keys, size_t n)
{
	size_t i, k;

	for (i = 0; i < o->u.object.len; i++) {
		for (k = 0; k < n && strcmp(o->u.object.keys[i], keys[k]) != 0; k++)
			;
		if (k == n)
			return 0;
	}
	return 1;
}

static int
json_row(struct merge *m, yajl_val row, struct text *line)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(m->h.by);
	const char *names[DCFG_COUNT_COLUMNS_MAX];
	const char *text;
	size_t i;

	if (!YAJL_IS_OBJECT(row))
		return dcfg_merge_fail(m, "a row that is not an object");
	for (i = 0; i < kind->n_cols && i < DCFG_COUNT_COLUMNS_MAX; i++) {
		names[i] = kind->cols[i].name;
		/* the share is worked out again, not read: any number will do (jq writes 100, not 100.00) */
		if (i + 1 == kind->n_cols && YAJL_IS_NUMBER(member(row, kind->cols[i].name)))
			text = "0.00";
		else if ((text = cell_text(member(row, kind->cols[i].name))) == NULL)
			return dcfg_merge_fail(m, "a row without a column of the table's kind, or with one "
			    "that is not a number or a string as dcfg-count writes them");
		if (i)
			adds(line, "\t");
		adds(line, text);
	}
	if (!keys_known(row, names, kind->n_cols))
		return dcfg_merge_fail(m, "a row with a column that is not of the table's kind");
	return say(m, line);
}

static int
json_tables(struct merge *m, yajl_val tables, struct text *line)
{
	static const char *const keys[] = { "process", "total_instructions", "rows" };
	size_t i, j;

	if (!YAJL_IS_ARRAY(tables))
		return dcfg_merge_fail(m, "no \"tables\" array");
	for (i = 0; i < tables->u.array.len; i++) {
		yajl_val t = tables->u.array.values[i], rows;
		const char *pid, *total;
		if (!YAJL_IS_OBJECT(t) || !keys_known(t, keys, 3) ||
		    !YAJL_IS_NUMBER(member(t, "process")) ||
		    !YAJL_IS_NUMBER(member(t, "total_instructions")) ||
		    !YAJL_IS_ARRAY(rows = member(t, "rows")))
			return dcfg_merge_fail(m, "a table that is not {\"process\":P,"
			    "\"total_instructions\":N,\"rows\":[...]}");
		pid = YAJL_GET_NUMBER(member(t, "process"));
		total = YAJL_GET_NUMBER(member(t, "total_instructions"));
		if (say_section(m, line, pid, total) < 0)
			return -1;
		for (j = 0; j < rows->u.array.len; j++)
			if (json_row(m, rows->u.array.values[j], line) < 0)
				return -1;
	}
	return 0;
}

/* A field of the document: a string, a number as written, or "" when absent. NULL: another type. */
static const char *
doc_field(yajl_val doc, const char *key)
{
	yajl_val v = member(doc, key);

	if (v == NULL)
		return "";
	if (YAJL_IS_STRING(v))
		return YAJL_GET_STRING(v);
	return YAJL_IS_NUMBER(v) ? YAJL_GET_NUMBER(v) : NULL;
}

/*
 * Is TEXT nested no deeper than DEPTH? dcfg-count's document is 4 deep
 * ({"tables":[{"rows":[{...}]}]}); yajl builds its tree, and frees it, by
 * recursion, so a deeper one is refused before it is parsed.
 */
static int
shallow(const char *text, int depth)
{
	int d = 0, in_string = 0;

	for (; *text; text++) {
		if (in_string) {
			if (*text == '\\' && text[1])
				text++;
			else if (*text == '"')
				in_string = 0;
		} else if (*text == '"') {
			in_string = 1;
		} else if (*text == '{' || *text == '[') {
			if (++d > depth)
				return 0;
		} else if (*text == '}' || *text == ']') {
			d--;
		}
	}
	return 1;
}

static int
read_json(struct merge *m, const char *text)
{
	static const char *const keys[] = { "tool", "version", "by", "dcfg", "top", "from", "selection",
		"tables", "trace" };
	const char *f[META];
	struct text line = { 0 };
	char why[256] = "";
	yajl_val doc;
	size_t k;
	int rc = -1;

	if (!shallow(text, 8))
		return dcfg_merge_fail(m, "not a table of dcfg-count: JSON nested deeper than one is");
	doc = yajl_tree_parse(text, why, sizeof why);

	if (doc == NULL) {
		char msg[320];
		why[strcspn(why, "\n")] = '\0';
		snprintf(msg, sizeof msg, "not JSON: %s", why[0] ? why : "out of memory");
		return dcfg_merge_fail(m, msg);
	}
	for (k = 0; k < PROCESS; k++)
		f[k] = YAJL_IS_OBJECT(doc) ? doc_field(doc, meta_names[k]) : NULL;
	if (!YAJL_IS_OBJECT(doc) || f[TOOL] == NULL || strcmp(f[TOOL], "dcfg-count") != 0)
		dcfg_merge_fail(m, "not a table of dcfg-count: a JSON document without \"tool\":\"dcfg-count\"");
	else if (!keys_known(doc, keys, sizeof keys / sizeof keys[0]))
		dcfg_merge_fail(m, "the document has a field this dcfg-count does not know");
	else if (f[VERSION] == NULL || f[BY] == NULL || f[DCFG] == NULL || f[TOP] == NULL ||
	    f[FROM] == NULL || f[SELECTION] == NULL || f[TRACE] == NULL || !plain(f[BY]) ||
	    !plain(f[DCFG]) || !plain(f[FROM]) || !plain(f[TRACE]))
		dcfg_merge_fail(m, "a field of the document that is not as dcfg-count writes it");
	else if (say_head(m, &line, f[VERSION], f[BY], f[DCFG], f[TOP], f[FROM], f[SELECTION]) == 0 &&
	    json_tables(m, member(doc, "tables"), &line) == 0 && say_trace(m, &line, f[TRACE]) == 0)
		rc = dcfg_merge_end(m);
	yajl_tree_free(doc);
	free(line.s);
	return rc < 0 ? -1 : 0;
}

/* ---- the file ---- */

int
dcfg_merge_read_other(struct merge *m, struct dcfg_textlines *t, char *first, size_t len)
{
	struct text all = { 0 };
	size_t *line_at = NULL, n_lines = 0, cap = 0;
	char *line;
	int rc = 1, json = first[0] == '{';

	/* the whole file, its lines joined by newlines, and where each starts */
	for (;;) {
		if (dcfg_reserve((void **)&line_at, &cap, n_lines + 1, sizeof *line_at) < 0) {
			all.failed = 1;
			break;
		}
		line_at[n_lines++] = all.n;
		add(&all, first, len);
		add(&all, "\n", 1);
		if (all.failed || (rc = dcfg_textlines_next(t, &line, &len, m->err)) <= 0)
			break;
		first = line;
	}
	m->line = 1;
	if (all.failed) {
		rc = dcfg_merge_oom(m);
	} else if (rc == 0 && json) {
		rc = read_json(m, all.s);
	} else if (rc == 0) {
		struct csv c = { .s = all.s, .n = all.n, .line_at = line_at, .n_lines = n_lines };
		rc = read_csv(m, &c);
		free(c.fields.s);
		free(c.start);
	}
	free(all.s);
	free(line_at);
	return rc < 0 ? -1 : 0;
}
