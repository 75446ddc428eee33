#include "names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/table.h"
#include "common/vec.h"

struct named {
	const char *name;
	uint32_t image, index;
};

static int
by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->image < y->image ? -1 : x->image > y->image;
}

static const char *
base_of(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash && slash[1] ? slash + 1 : file;
}

/* Marks SHARED[index] for every name that more than one image has. */
static void
mark_shared(struct named *v, size_t n, uint8_t *shared)
{
	size_t i, j, k;

	qsort(v, n, sizeof *v, by_name);
	for (i = 0; i < n; i = j) {
		int several = 0;
		for (j = i + 1; j < n && strcmp(v[j].name, v[i].name) == 0; j++)
			several |= v[j].image != v[i].image;
		for (k = i; several && k < j; k++)
			shared[v[k].index] = 1;
	}
}

/* Appends image I's name to the labels: SHARED says whether its base, its file, is another's. */
static int
add_label(struct dcfg_names *n, size_t *cap, size_t i, int base_shared, int file_shared)
{
	const struct dcfg_image *im = &n->d->images[n->p->images.first + i];
	const char *file = dcfg_file_name(n->d, im->file_name_id);
	char id[32];
	const char *name;
	size_t len, at = 0;

	if (file == NULL) {
		snprintf(id, sizeof id, "image%" PRIu32, im->id);
		name = id;
	} else {
		name = base_shared && !file_shared ? file : base_of(file);
		snprintf(id, sizeof id, "#%" PRIu32, im->id);
	}
	len = strlen(name) + (file && file_shared ? strlen(id) : 0);
	if (n->label_at[n->p->images.count])
		at = n->label_at[n->p->images.count];
	if (dcfg_reserve((void **)&n->labels, cap, at + len + 1, 1) < 0)
		return -1;
	n->label_at[i] = at;
	strcpy(n->labels + at, name);
	if (file && file_shared)
		strcat(n->labels + at, id);
	n->label_at[n->p->images.count] = at + len + 1;
	return 0;
}

int
dcfg_names_init(struct dcfg_names *n, const struct dcfg *d, const struct dcfg_process *p)
{
	size_t ns = p->symbols.count, ni = p->images.count, i, m, cap = 0;
	struct named *v = malloc(((ns > ni ? ns : ni) + 1) * sizeof *v);
	uint8_t *base_shared = calloc(ni + 1, 1), *file_shared = calloc(ni + 1, 1);
	int rc = -1;

	memset(n, 0, sizeof *n);
	n->d = d;
	n->p = p;
	n->symbol_shared = calloc(ns + 1, 1);
	n->label_at = calloc(ni + 1, sizeof *n->label_at);
	if (v == NULL || base_shared == NULL || file_shared == NULL ||
	    n->symbol_shared == NULL || n->label_at == NULL)
		goto out;
	for (i = 0; i < ns; i++) {
		const struct dcfg_symbol *s = &d->symbols[p->symbols.first + i];
		v[i] = (struct named){ dcfg_string(d, s->name), s->image, (uint32_t)i };
	}
	mark_shared(v, ns, n->symbol_shared);
	for (m = i = 0; i < ni; i++) {
		const char *file = dcfg_file_name(d, d->images[p->images.first + i].file_name_id);
		if (file)
			v[m++] = (struct named){ base_of(file), p->images.first + (uint32_t)i, (uint32_t)i };
	}
	mark_shared(v, m, base_shared);
	for (m = i = 0; i < ni; i++) {
		const char *file = dcfg_file_name(d, d->images[p->images.first + i].file_name_id);
		if (file)
			v[m++] = (struct named){ file, p->images.first + (uint32_t)i, (uint32_t)i };
	}
	mark_shared(v, m, file_shared);
	for (i = 0; i < ni; i++)
		if (add_label(n, &cap, i, base_shared[i], file_shared[i]) < 0)
			goto out;
	rc = 0;
out:
	free(v);
	free(base_shared);
	free(file_shared);
	if (rc < 0)
		dcfg_names_free(n);
	return rc;
}

void
dcfg_names_free(struct dcfg_names *n)
{
	free(n->symbol_shared);
	free(n->labels);
	free(n->label_at);
	memset(n, 0, sizeof *n);
}

const char *
dcfg_names_image(const struct dcfg_names *n, const struct dcfg_image *im)
{
	return n->labels + n->label_at[im - n->d->images - n->p->images.first];
}

static const struct dcfg_image *
image_at(const struct dcfg_names *n, uint64_t addr)
{
	const struct dcfg_block *b = dcfg_block_at(n->d, n->p, addr);
	uint32_t i;

	if (b)
		return dcfg_block_image(n->d, b);
	for (i = 0; i < n->p->images.count; i++) {
		const struct dcfg_image *im = &n->d->images[n->p->images.first + i];
		if (addr >= im->load_addr && addr - im->load_addr < im->size)
			return im;
	}
	return NULL;
}

void
dcfg_name_at(const struct dcfg_names *n, uint64_t addr, struct dcfg_name *nm)
{
	const struct dcfg *d = n->d;
	const struct dcfg_symbol *sym = dcfg_symbol_at(d, n->p, addr, &nm->offset);
	const struct dcfg_image *im;

	nm->image = NULL;
	if (sym) {
		nm->name = dcfg_string(d, sym->name);
		nm->with_offset = nm->offset != 0;
		if (n->symbol_shared[sym - d->symbols - n->p->symbols.first])
			nm->image = dcfg_names_image(n, &d->images[sym->image]);
		return;
	}
	nm->with_offset = 1;
	if ((im = image_at(n, addr)) == NULL) {
		nm->name = "-";
		nm->offset = addr;
		return;
	}
	nm->name = dcfg_names_image(n, im);
	nm->offset = addr - im->load_addr;
}

size_t
dcfg_name_format(const struct dcfg_name *nm, char *buf, size_t size)
{
	char num[24] = "";
	int w;

	if (nm->with_offset)
		snprintf(num, sizeof num, "+0x%" PRIx64, nm->offset);
	w = snprintf(buf, size, "%s%s%s%s", nm->name, num, nm->image ? "@" : "",
	    nm->image ? nm->image : "");
	return w < 0 ? 0 : (size_t)w;
}

void
dcfg_out_name(struct dcfg_output *out, const struct dcfg_name *nm)
{
	dcfg_out_escaped(out, nm->name);
	if (nm->with_offset) {
		dcfg_out_char(out, '+');
		dcfg_out_hex(out, nm->offset);
	}
	if (nm->image) {
		dcfg_out_char(out, '@');
		dcfg_out_escaped(out, nm->image);
	}
}

void
dcfg_names_cell(struct dcfg_table *w, const struct dcfg_block *b, const struct dcfg_names *names)
{
	struct dcfg_table_piece at[5];
	struct dcfg_name nm;
	size_t n = 0;

	if (b == NULL) {
		dcfg_table_text(w, "-");
		return;
	}
	dcfg_name_at(names, b->addr, &nm);
	at[n++] = (struct dcfg_table_piece){ DCFG_PIECE_NAME, nm.name, 0 };
	if (nm.with_offset) {
		at[n++] = (struct dcfg_table_piece){ DCFG_PIECE_TEXT, "+", 0 };
		at[n++] = (struct dcfg_table_piece){ DCFG_PIECE_HEX, NULL, nm.offset };
	}
	if (nm.image) {
		at[n++] = (struct dcfg_table_piece){ DCFG_PIECE_TEXT, "@", 0 };
		at[n++] = (struct dcfg_table_piece){ DCFG_PIECE_NAME, nm.image, 0 };
	}
	dcfg_table_pieces(w, at, n);
}
