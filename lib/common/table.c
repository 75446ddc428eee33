/*
 * The table writer (table.h): the head, the sections and the cells of a
 * document, written straight out in tsv, csv and json, kept for the table
 * format (table_aligned.c). The fields are kept by table_fields.c.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "table_internal.h"
#include "vec.h"

#define DEFAULT_WIDTH 80

void
dcfg_table_open(struct dcfg_table *t, struct dcfg_output *out, enum dcfg_table_format f,
    const char *tool, unsigned version)
{
	struct winsize ws;
	char num[24];

	memset(t, 0, sizeof *t);
	t->out = out;
	t->format = f;
	t->width = DEFAULT_WIDTH;
	if (isatty(out->fd) && ioctl(out->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		t->width = ws.ws_col;
	dcfg_table_add_field(t, "tool", dcfg_table_keep(t, tool, strlen(tool)), 0, 0,
	    DCFG_TABLE_HEAD);
	dcfg_table_add_field(t, "version",
	    dcfg_table_keep(t, num, dcfg_table_number_text(num, version, 0)), 1, 0, DCFG_TABLE_HEAD);
}

/* ---- writing text in each format ---- */

/* Bytes of the escaped form (or the caller's text), as the format writes them inside a field. */
static void
emit(struct dcfg_table *t, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	struct dcfg_output *out = t->out;
	size_t i;

	switch (t->format) {
	case DCFG_TABLE_TSV:
		dcfg_out_bytes(out, s, n);
		return;
	case DCFG_TABLE_CSV:
		for (i = 0; i < n; i++) {
			if (s[i] == '"')
				dcfg_out_char(out, '"');
			dcfg_out_char(out, s[i]);
		}
		return;
	case DCFG_TABLE_JSON:
		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];
			if (c == '"' || c == '\\') {
				dcfg_out_char(out, '\\');
				dcfg_out_char(out, (char)c);
			} else if (c < 0x20 || c == 0x7f) {
				dcfg_out_str(out, "\\u00");
				dcfg_out_char(out, hex[c >> 4]);
				dcfg_out_char(out, hex[c & 15]);
			} else {
				dcfg_out_char(out, (char)c);
			}
		}
		return;
	default:
		if (dcfg_reserve((void **)&t->cells, &t->cap_cells, t->n_cells + n + 1, 1) < 0) {
			t->failed = 1;
			return;
		}
		memcpy(t->cells + t->n_cells, s, n);
		t->n_cells += n;
		return;
	}
}

/* A name from the input in its escaped form (dcfg_out_escaped), byte by byte where it must be. */
static void
emit_name(struct dcfg_table *t, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	char e[4];
	size_t k;

	for (;;) {
		k = dcfg_escape_kept(s);
		emit(t, s, k);
		s += k;
		if (*s == '\0')
			return;
		e[0] = '\\';
		switch (*s) {
		case '\\': e[1] = '\\'; k = 2; break;
		case '\t': e[1] = 't'; k = 2; break;
		case '\n': e[1] = 'n'; k = 2; break;
		case '\r': e[1] = 'r'; k = 2; break;
		default:
			e[1] = 'x';
			e[2] = hex[(unsigned char)*s >> 4];
			e[3] = hex[(unsigned char)*s & 15];
			k = 4;
		}
		emit(t, e, k);
		s++;
	}
}

static void
emit_piece(struct dcfg_table *t, const struct dcfg_table_piece *p)
{
	char num[24];

	switch (p->kind) {
	case DCFG_PIECE_TEXT: emit(t, p->s, strlen(p->s)); break;
	case DCFG_PIECE_NAME: emit_name(t, p->s); break;
	case DCFG_PIECE_U64: emit(t, num, dcfg_table_number_text(num, p->v, 0)); break;
	case DCFG_PIECE_HEX: emit(t, num, dcfg_table_number_text(num, p->v, 1)); break;
	}
}

/* A field that CSV must quote: it holds a comma, a quote or a line break. */
static int
csv_quoted(const struct dcfg_table_piece *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((p[i].kind == DCFG_PIECE_TEXT || p[i].kind == DCFG_PIECE_NAME) &&
		    strpbrk(p[i].s, ",\"\r\n") != NULL)
			return 1;
	return 0;
}

/* A text field of the metadata (or the header) as a CSV field or a JSON string. */
static void
quoted_text(struct dcfg_table *t, const char *s)
{
	struct dcfg_table_piece p = { DCFG_PIECE_TEXT, s, 0 };
	int q = t->format == DCFG_TABLE_JSON || csv_quoted(&p, 1);

	if (q)
		dcfg_out_char(t->out, '"');
	emit(t, s, strlen(s));
	if (q)
		dcfg_out_char(t->out, '"');
}

/* ---- the head, sections and rows ---- */

/* TSV's "# KEY TEXT" lines, one per line of the text; the table format's without "# ". */
static void
note_lines(struct dcfg_table *t, const struct dcfg_table_field *f)
{
	const char *s = value_of(t, f), *nl;

	for (;;) {
		if (t->format == DCFG_TABLE_TSV)
			dcfg_out_str(t->out, "# ");
		dcfg_out_str(t->out, key_of(t, f));
		dcfg_out_char(t->out, ' ');
		nl = strchr(s, '\n');
		dcfg_out_bytes(t->out, s, nl ? (size_t)(nl - s) : strlen(s));
		dcfg_out_char(t->out, '\n');
		if (nl == NULL)
			return;
		s = nl + 1;
	}
}

/* A JSON field "KEY":VALUE. */
static void
json_field(struct dcfg_table *t, const struct dcfg_table_field *f)
{
	quoted_text(t, key_of(t, f));
	dcfg_out_char(t->out, ':');
	if (f->number)
		dcfg_out_str(t->out, value_of(t, f));
	else
		quoted_text(t, value_of(t, f));
}

static void
write_head(struct dcfg_table *t)
{
	struct dcfg_output *out = t->out;
	size_t i;

	t->started = 1;
	switch (t->format) {
	case DCFG_TABLE_TSV:
	case DCFG_TABLE_TABLE:
		if (t->format == DCFG_TABLE_TSV)
			dcfg_out_str(out, "# ");
		dcfg_out_str(out, value_of(t, &t->fields[0]));
		dcfg_out_char(out, ' ');
		dcfg_out_str(out, value_of(t, &t->fields[1]));
		for (i = 2; i < t->n_head; i++)
			if (!t->fields[i].note) {
				dcfg_out_char(out, ' ');
				dcfg_out_str(out, key_of(t, &t->fields[i]));
				dcfg_out_char(out, '=');
				dcfg_out_str(out, value_of(t, &t->fields[i]));
			}
		dcfg_out_char(out, '\n');
		for (i = 2; i < t->n_head; i++)
			if (t->fields[i].note && t->fields[i].place == DCFG_TABLE_HEAD)
				note_lines(t, &t->fields[i]);
		break;
	case DCFG_TABLE_JSON:
		dcfg_out_char(out, '{');
		for (i = 0; i < t->n_head; i++)
			if (!(t->fields[i].note && t->fields[i].place == DCFG_TABLE_END)) {
				json_field(t, &t->fields[i]);
				dcfg_out_char(out, ',');
			}
		dcfg_out_str(out, "\"tables\":[");
		break;
	case DCFG_TABLE_CSV:
	default:
		break;
	}
}

/* The end of the current section, if one is open. */
static void
end_section(struct dcfg_table *t)
{
	if (t->sections == 0)
		return;
	if (!t->columned)   /* a section without columns still has its fields (and no rows) */
		dcfg_table_columns(t, NULL, 0);
	if (t->format == DCFG_TABLE_JSON) {
		dcfg_out_str(t->out, t->rows ? "\n]}" : "]}");
	} else if (t->format == DCFG_TABLE_CSV && t->rows == 0 && t->n_cols > 0) {
		/* a record of empty cells: the section's fields (a process's total) are not lost */
		size_t i;
		dcfg_out_bytes(t->out, t->prefix, t->n_prefix);
		for (i = 1; i < t->n_cols; i++)
			dcfg_out_char(t->out, ',');
		dcfg_out_str(t->out, "\r\n");
	}
	else if (t->format == DCFG_TABLE_TABLE)
		dcfg_table_render_aligned(t);
	t->n_cells = t->n_cell_at = 0;
}

void
dcfg_table_section(struct dcfg_table *t)
{
	if (t->sections == 0) {
		t->n_head = t->n_fields;
		write_head(t);
	}
	end_section(t);
	/* the previous section's fields go (their text stays in the pool: a few bytes) */
	t->n_fields = t->n_head;
	if (t->format == DCFG_TABLE_JSON)
		dcfg_out_str(t->out, t->sections ? ",\n{" : "\n{");
	t->sections++;
	t->rows = 0;
	t->cell = 0;
	t->cols = NULL;
	t->n_cols = 0;
	t->columned = 0;
}

static void
csv_header(struct dcfg_table *t)
{
	size_t i;

	for (i = 0; i < t->n_fields; i++) {
		quoted_text(t, key_of(t, &t->fields[i]));
		dcfg_out_char(t->out, ',');
	}
	for (i = 0; i < t->n_cols; i++) {
		if (i)
			dcfg_out_char(t->out, ',');
		quoted_text(t, t->cols[i].name);
	}
	dcfg_out_str(t->out, "\r\n");
	t->csv_cols = t->cols;
	t->n_csv_cols = t->n_cols;
}

/* CSV: the metadata fields of every row of the section, rendered once. */
static void
csv_prefix(struct dcfg_table *t)
{
	size_t i, n;

	t->n_prefix = 0;
	for (i = 0; i < t->n_fields; i++) {
		const char *v = value_of(t, &t->fields[i]);
		int q = strpbrk(v, ",\"\r\n") != NULL;
		n = strlen(v) * 2 + 3;
		if (dcfg_reserve((void **)&t->prefix, &t->cap_prefix, t->n_prefix + n, 1) < 0) {
			t->failed = 1;
			return;
		}
		if (q)
			t->prefix[t->n_prefix++] = '"';
		for (; *v; v++) {
			if (*v == '"')
				t->prefix[t->n_prefix++] = '"';
			t->prefix[t->n_prefix++] = *v;
		}
		if (q)
			t->prefix[t->n_prefix++] = '"';
		t->prefix[t->n_prefix++] = ',';
	}
}

void
dcfg_table_columns(struct dcfg_table *t, const struct dcfg_table_column *cols, size_t n)
{
	struct dcfg_output *out = t->out;
	size_t i;

	t->cols = cols;
	t->n_cols = n;
	t->columned = 1;
	switch (t->format) {
	case DCFG_TABLE_TSV:
		for (i = t->n_head; i < t->n_fields; i++) {
			dcfg_out_str(out, "# ");
			dcfg_out_str(out, key_of(t, &t->fields[i]));
			dcfg_out_char(out, ' ');
			dcfg_out_str(out, value_of(t, &t->fields[i]));
			dcfg_out_char(out, '\n');
		}
		dcfg_out_str(out, "# ");
		for (i = 0; i < n; i++) {
			if (i)
				dcfg_out_char(out, '\t');
			dcfg_out_str(out, cols[i].name);
		}
		dcfg_out_char(out, '\n');
		break;
	case DCFG_TABLE_CSV:
		if (t->csv_cols != cols || t->n_csv_cols != n)
			csv_header(t);
		csv_prefix(t);
		break;
	case DCFG_TABLE_JSON:
		for (i = t->n_head; i < t->n_fields; i++) {
			json_field(t, &t->fields[i]);
			dcfg_out_char(out, ',');
		}
		dcfg_out_str(out, "\"rows\":[");
		break;
	default:
		break;
	}
}

/* Before each cell: its separator, CSV's metadata, JSON's key. */
static int
cell_start(struct dcfg_table *t)
{
	struct dcfg_output *out = t->out;

	switch (t->format) {
	case DCFG_TABLE_TSV:
		if (t->cell)
			dcfg_out_char(out, '\t');
		break;
	case DCFG_TABLE_CSV:
		if (t->cell)
			dcfg_out_char(out, ',');
		else
			dcfg_out_bytes(out, t->prefix, t->n_prefix);
		break;
	case DCFG_TABLE_JSON:
		if (t->cell)
			dcfg_out_char(out, ',');
		else
			dcfg_out_str(out, t->rows ? ",\n{" : "\n{");
		quoted_text(t, t->cell < t->n_cols ? t->cols[t->cell].name : "?");
		dcfg_out_char(out, ':');
		break;
	default:
		if (t->cell >= t->n_cols)   /* a cell past the columns: no place to show it */
			return 0;
		if (dcfg_reserve((void **)&t->cell_at, &t->cap_cell_at, t->n_cell_at + 1,
		    sizeof *t->cell_at) < 0) {
			t->failed = 1;
			return 0;
		}
		t->cell_at[t->n_cell_at++] = t->n_cells;
		break;
	}
	t->cell++;
	return 1;
}

/* After a table-format cell: its NUL. */
static void
cell_end(struct dcfg_table *t)
{
	if (t->format == DCFG_TABLE_TABLE &&
	    dcfg_reserve((void **)&t->cells, &t->cap_cells, t->n_cells + 1, 1) == 0)
		t->cells[t->n_cells++] = '\0';
	else if (t->format == DCFG_TABLE_TABLE)
		t->failed = 1;
}

/* A cell that is a number: never quoted. */
static void
number_cell(struct dcfg_table *t, const char *s, size_t n)
{
	if (!cell_start(t))
		return;
	if (t->format == DCFG_TABLE_TABLE)
		emit(t, s, n);
	else
		dcfg_out_bytes(t->out, s, n);
	cell_end(t);
}

void
dcfg_table_u64(struct dcfg_table *t, uint64_t v)
{
	char num[24];

	if (t->format != DCFG_TABLE_TABLE) {   /* the common case: straight into the output */
		if (cell_start(t))
			dcfg_out_u64(t->out, v);
		return;
	}
	number_cell(t, num, dcfg_table_number_text(num, v, 0));
}

void
dcfg_table_share(struct dcfg_table *t, uint64_t part, uint64_t total)
{
	char num[48];

	number_cell(t, num, dcfg_table_share_text(num, part, total));
}

void
dcfg_table_fixed(struct dcfg_table *t, double v, unsigned decimals)
{
	char num[DCFG_TABLE_FIXED_MAX];

	number_cell(t, num, dcfg_table_fixed_text(num, v, decimals));
}

void
dcfg_table_pieces(struct dcfg_table *t, const struct dcfg_table_piece *p, size_t n)
{
	int q;
	size_t i;

	if (!cell_start(t))
		return;
	q = t->format == DCFG_TABLE_JSON || (t->format == DCFG_TABLE_CSV && csv_quoted(p, n));
	if (q)
		dcfg_out_char(t->out, '"');
	for (i = 0; i < n; i++)
		emit_piece(t, &p[i]);
	if (q)
		dcfg_out_char(t->out, '"');
	cell_end(t);
}

void
dcfg_table_text(struct dcfg_table *t, const char *s)
{
	struct dcfg_table_piece p = { DCFG_PIECE_TEXT, s, 0 };

	if (t->format == DCFG_TABLE_TSV) {
		if (cell_start(t))
			dcfg_out_str(t->out, s);
		return;
	}
	dcfg_table_pieces(t, &p, 1);
}

void
dcfg_table_name(struct dcfg_table *t, const char *s)
{
	struct dcfg_table_piece p = { DCFG_PIECE_NAME, s, 0 };

	dcfg_table_pieces(t, &p, 1);
}

void
dcfg_table_end_row(struct dcfg_table *t)
{
	switch (t->format) {
	case DCFG_TABLE_TSV: dcfg_out_char(t->out, '\n'); break;
	case DCFG_TABLE_CSV: dcfg_out_str(t->out, "\r\n"); break;
	case DCFG_TABLE_JSON: dcfg_out_char(t->out, '}'); break;
	default:
		while (t->cell < t->n_cols) {   /* a short row: empty cells */
			if (cell_start(t)) {
				emit(t, "", 0);
				cell_end(t);
			}
		}
		break;
	}
	t->rows++;
	t->cell = 0;
}

/* ---- the end ---- */

void
dcfg_table_free(struct dcfg_table *t)
{
	free(t->pool);
	free(t->fields);
	free(t->prefix);
	free(t->cells);
	free(t->cell_at);
	t->pool = NULL;
	t->fields = NULL;
	t->prefix = t->cells = NULL;
	t->cell_at = NULL;
}

int
dcfg_table_close(struct dcfg_table *t)
{
	size_t i;
	int failed;

	if (t->sections == 0) {
		t->n_head = t->n_fields;
		write_head(t);
	}
	end_section(t);
	if (t->format == DCFG_TABLE_JSON)
		dcfg_out_str(t->out, t->sections ? "\n]" : "]");
	for (i = 0; i < t->n_head; i++) {
		const struct dcfg_table_field *f = &t->fields[i];
		if (!f->note || f->place != DCFG_TABLE_END)
			continue;
		if (t->format == DCFG_TABLE_JSON) {
			dcfg_out_char(t->out, ',');
			json_field(t, f);
		} else if (t->format != DCFG_TABLE_CSV) {
			if (t->format == DCFG_TABLE_TABLE)
				dcfg_out_char(t->out, '\n');
			note_lines(t, f);
		}
	}
	if (t->format == DCFG_TABLE_JSON)
		dcfg_out_str(t->out, "}\n");
	failed = t->failed;
	dcfg_table_free(t);
	return failed ? -1 : 0;
}
