/*
 * The table format of the table writer (table.h): each section's cells,
 * kept by table.c, measured and written out aligned when the section ends.
 */
#include <stdlib.h>
#include <string.h>

#include "table_internal.h"

/* Path cells are never shortened below this many columns, "..." included. */
#define PATH_MIN 12
/*
 * Nor, up to this many, below ".../" and their last component (a file's
 * name and its :LINE): what a reader needs to tell one path from another.
 */
#define PATH_KEEP_MAX 40

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

/*
 * The narrowest a path cell should be shown: ".../" and its last
 * component, or the whole of a shorter path, within PATH_MIN..PATH_KEEP_MAX.
 */
static size_t
path_floor(const char *s)
{
	const char *slash = strrchr(s, '/');
	size_t have = text_width(s), keep = slash ? 3 + text_width(slash) : have;

	if (keep > have)
		keep = have;
	if (keep > PATH_KEEP_MAX)
		keep = PATH_KEEP_MAX;
	return keep < PATH_MIN ? PATH_MIN : keep;
}

/*
 * A path cut from the left to W columns: "..." and the longest tail that
 * fits and starts at a "/", so no directory's name is shown in part; the
 * last characters when even the last component does not fit.
 */
static size_t
cut_path(struct dcfg_output *out, const char *s, size_t w)
{
	const char *tail = last_chars(s, w - 3), *slash = strchr(tail, '/');

	if (slash && slash[1] != '\0')
		tail = slash;
	dcfg_out_str(out, "...");
	dcfg_out_str(out, tail);
	return 3 + text_width(tail);
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
		have = cut_path(out, s, w);
		if (!last)
			pad(out, w - have);
		return;
	}
	if (t->cols[c].kind == DCFG_COLUMN_NUMBER && have < w)
		pad(out, w - have);
	dcfg_out_str(out, s);
	if (t->cols[c].kind != DCFG_COLUMN_NUMBER && !last && have < w)
		pad(out, w - have);
}

/* Narrows the widest path columns until a row fits T->width, none below its LEAST. */
static void
fit(const struct dcfg_table *t, size_t *w, const size_t *least)
{
	size_t total = 0, c, widest;

	for (c = 0; c < t->n_cols; c++)
		total += w[c] + (c ? 2 : 0);
	while (total > t->width) {
		widest = t->n_cols;
		for (c = 0; c < t->n_cols; c++)
			if (t->cols[c].kind == DCFG_COLUMN_PATH && w[c] > least[c] &&
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
	size_t *w, *least, c, r, rows, i;

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
	if ((w = calloc(2 * t->n_cols, sizeof *w)) == NULL) {
		t->failed = 1;
		return;
	}
	least = w + t->n_cols;
	rows = t->n_cell_at / t->n_cols;
	for (c = 0; c < t->n_cols; c++)
		w[c] = least[c] = text_width(t->cols[c].name);
	for (i = 0; i < rows * t->n_cols; i++) {
		const char *cell = t->cells + t->cell_at[i];
		size_t cw = text_width(cell), k = i % t->n_cols;
		if (cw > w[k])
			w[k] = cw;
		if (t->cols[k].kind == DCFG_COLUMN_PATH && path_floor(cell) > least[k])
			least[k] = path_floor(cell);
	}
	fit(t, w, least);
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
