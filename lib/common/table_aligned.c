/*
 * The table format of the table writer (table.h): each section's cells,
 * kept by table.c, measured and written out aligned when the section ends.
 */
#include <stdlib.h>
#include <string.h>

#include "table_internal.h"

/* Path cells are never shortened below this many columns, "..." included. */
#define PATH_MIN 12

/* Columns a cell takes: its characters (a UTF-8 character is one). */
static size_t
text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Where the last W characters of S start. */
static const char *
last_chars(const char *s, size_t w)
{
	const char *p = s + strlen(s);

	while (p > s && w > 0) {
		p--;
		if (((unsigned char)*p & 0xc0) != 0x80)
			w--;
	}
	return p;
}

static void
pad(struct dcfg_output *out, size_t n)
{
	while (n--)
		dcfg_out_char(out, ' ');
}

/* One cell in a column of width W: right-aligned numbers, path cells cut from the left. */
static void
aligned_cell(struct dcfg_table *t, const char *s, size_t c, size_t w, int last)
{
	struct dcfg_output *out = t->out;
	size_t have = text_width(s);

	if (c)
		dcfg_out_str(out, "  ");
	if (have > w && t->cols[c].kind == DCFG_COLUMN_PATH) {
		dcfg_out_str(out, "...");
		dcfg_out_str(out, last_chars(s, w - 3));
		return;
	}
	if (t->cols[c].kind == DCFG_COLUMN_NUMBER && have < w)
		pad(out, w - have);
	dcfg_out_str(out, s);
	if (t->cols[c].kind != DCFG_COLUMN_NUMBER && !last && have < w)
		pad(out, w - have);
}

/* Narrows the widest path columns until a row fits T->width, none below PATH_MIN. */
static void
fit(const struct dcfg_table *t, size_t *w)
{
	size_t total = 0, c, widest;

	for (c = 0; c < t->n_cols; c++)
		total += w[c] + (c ? 2 : 0);
	while (total > t->width) {
		widest = t->n_cols;
		for (c = 0; c < t->n_cols; c++)
			if (t->cols[c].kind == DCFG_COLUMN_PATH && w[c] > PATH_MIN &&
			    (widest == t->n_cols || w[c] > w[widest]))
				widest = c;
		if (widest == t->n_cols)
			return;   /* nothing left to narrow: the rows are wider than the terminal */
		w[widest]--;
		total--;
	}
}

void
dcfg_table_render_aligned(struct dcfg_table *t)
{
	struct dcfg_output *out = t->out;
	size_t *w, c, r, rows, i;

	if (t->failed)
		return;
	dcfg_out_char(out, '\n');   /* after the head line, or the previous section */
	for (i = t->n_head; i < t->n_fields; i++) {
		if (i > t->n_head)
			dcfg_out_str(out, "  ");
		dcfg_out_str(out, key_of(t, &t->fields[i]));
		dcfg_out_char(out, ' ');
		dcfg_out_str(out, value_of(t, &t->fields[i]));
	}
	if (t->n_fields > t->n_head)
		dcfg_out_char(out, '\n');
	if (t->n_cols == 0)
		return;
	if ((w = calloc(t->n_cols, sizeof *w)) == NULL) {
		t->failed = 1;
		return;
	}
	rows = t->n_cell_at / t->n_cols;
	for (c = 0; c < t->n_cols; c++)
		w[c] = text_width(t->cols[c].name);
	for (i = 0; i < rows * t->n_cols; i++) {
		size_t cw = text_width(t->cells + t->cell_at[i]);
		if (cw > w[i % t->n_cols])
			w[i % t->n_cols] = cw;
	}
	fit(t, w);
	for (c = 0; c < t->n_cols; c++)
		aligned_cell(t, t->cols[c].name, c, w[c], c + 1 == t->n_cols);
	dcfg_out_char(out, '\n');
	for (r = 0; r < rows; r++) {
		for (c = 0; c < t->n_cols; c++)
			aligned_cell(t, t->cells + t->cell_at[r * t->n_cols + c], c, w[c],
			    c + 1 == t->n_cols);
		dcfg_out_char(out, '\n');
	}
	free(w);
}
