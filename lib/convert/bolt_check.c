/*
 * --to bolt: which image, and whether the binary read is the image's: a
 * profile of another build would name the wrong functions or none, and
 * BOLT would take it for a stale one.
 */
#include "bolt_run.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/output.h"

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Whether the image's file is NAME, by its path or its base name. */
static int
image_named(const struct dcfg *d, const struct dcfg_image *im, const char *name)
{
	const char *path = dcfg_file_name(d, im->file_name_id);

	return path != NULL && (dcfg_name_matches(path, name) || dcfg_name_matches(base_name(path), name));
}

static int
choose_named(struct bolt_run *r, const char *name, struct dcfg_error *err)
{
	const struct dcfg *d = r->d;
	const char *file = r->c->o->dcfg_path;
	char shown[512];
	uint32_t i, found = DCFG_NONE;

	for (i = 0; i < r->p->images.count; i++) {
		const struct dcfg_image *im = &d->images[r->p->images.first + i];
		if (!image_named(d, im, name))
			continue;
		if (found != DCFG_NONE) {
			dcfg_escape(shown, sizeof shown, name);
			return dcfg_error_set(err, file, "--image %s: images %" PRIu32 " and %" PRIu32
			    " both have that name: give the path", shown, d->images[found].id, im->id);
		}
		found = r->p->images.first + i;
	}
	if (found == DCFG_NONE) {
		dcfg_escape(shown, sizeof shown, name);
		return dcfg_error_set(err, file, "--image %s: no image of process %" PRIu64
		    " has that file (see dcfg-info --list images)", shown, r->p->pid);
	}
	r->image = found;
	return 0;
}

int
dcfg_bolt_choose_image(struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg_image *im;

	if (r->c->o->image)
		return choose_named(r, r->c->o->image, err);
	if ((im = dcfg_main_image(r->d, r->p)) == NULL)
		return dcfg_error_set(err, r->c->o->dcfg_path, "process %" PRIu64 " has no image "
		    "that names its file: choose one with --image", r->p->pid);
	r->image = (uint32_t)(im - r->d->images);
	return 0;
}

/* Whether OFFSET .. OFFSET + SIZE is inside one code range of the file. */
static int
in_code(const struct dcfg_bolt_functions *t, uint64_t offset, uint64_t size)
{
	const struct dcfg_bolt_code *code = dcfg_bolt_code_at(t, offset);

	return code != NULL && size <= code->end - offset;
}

/* A function of the file by its name, for finding the DCFG's symbols in it. */
struct named {
	const char *name;
	uint64_t start;
};

static int
by_name_order(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : (x->start > y->start) - (x->start < y->start);
}

/* The first of the N functions in BY_NAME named NAME, or N. */
static size_t
first_named(const struct named *by_name, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A symbol the file has under the same name somewhere else proves another
 * build. A name the file lacks proves nothing: SDE adds symbols of its own
 * (.dummy_text, .plt, .text: ../shared/real), and a writer may spell a
 * name its own way; so the symbols must only not all be such names.
 */
static int
check_symbols_named(const struct bolt_run *r, const struct named *by_name, size_t n,
    struct dcfg_error *err)
{
	const struct dcfg *d = r->d;
	const struct dcfg_image *im = &d->images[r->image];
	char shown[512];
	uint32_t k, known = 0, matched = 0;

	for (k = 0; k < im->symbols.count; k++) {
		const struct dcfg_symbol *s = &d->symbols[im->symbols.first + k];
		const char *name = dcfg_string(d, s->name);
		size_t i, first;
		/* the DCFG's writer may name PLT entries its own way */
		if (name == NULL || *name == '\0' || dcfg_bolt_in_plt(r->t, s->offset))
			continue;
		known++;
		first = first_named(by_name, n, name);
		if (first == n || strcmp(by_name[first].name, name) != 0)
			continue;
		for (i = first; i < n && strcmp(by_name[i].name, name) == 0; i++)
			if (by_name[i].start == s->offset)
				break;
		if (i < n && strcmp(by_name[i].name, name) == 0) {
			matched++;
			continue;
		}
		dcfg_escape(shown, sizeof shown, name);
		return dcfg_error_set(err, r->binary, "has %s at 0x%" PRIx64 ", where the DCFG's "
		    "image %" PRIu32 " has it at 0x%" PRIx64 ": the DCFG is of another binary",
		    shown, by_name[first].start, im->id, s->offset);
	}
	if (known > 0 && matched == 0)
		return dcfg_error_set(err, r->binary, "has none of the %" PRIu32 " symbols of the "
		    "DCFG's image %" PRIu32 " where the DCFG has them: the DCFG is of another "
		    "binary", known, im->id);
	return 0;
}

static int
check_symbols(const struct bolt_run *r, struct dcfg_error *err)
{
	struct named *by_name;
	size_t i;
	int status;

	if (r->d->images[r->image].symbols.count == 0)
		return 0;
	if ((by_name = malloc((r->t->n ? r->t->n : 1) * sizeof *by_name)) == NULL)
		return dcfg_error_set(err, r->binary, "out of memory");
	for (i = 0; i < r->t->n; i++)
		by_name[i] = (struct named){ dcfg_bolt_string(r->t, r->t->f[i].name), r->t->f[i].start };
	qsort(by_name, r->t->n, sizeof *by_name, by_name_order);
	status = check_symbols_named(r, by_name, r->t->n, err);
	free(by_name);
	return status;
}

int
dcfg_bolt_check_ran(const struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg *d = r->d;
	const struct dcfg_image *im = &d->images[r->image];
	const char *file = dcfg_file_name(d, im->file_name_id);
	char shown[512];
	uint32_t i;

	for (i = 0; i < r->p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[r->p->edges.first + i];
		const struct dcfg_block *s = dcfg_block_by_node(d, r->p, e->source);
		const struct dcfg_block *t = dcfg_block_by_node(d, r->p, e->target);
		if (e->total > 0 && ((s && s->image == r->image) || (t && t->image == r->image)))
			return 0;
	}
	dcfg_escape(shown, sizeof shown, file ? file : "");
	return dcfg_error_set(err, r->c->o->dcfg_path, "image %" PRIu32 " (%s) did not run in "
	    "process %" PRIu64 ": no block of it ran, there is nothing to profile", im->id, shown,
	    r->p->pid);
}

int
dcfg_bolt_check_binary(const struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg *d = r->d;
	const struct dcfg_image *im = &d->images[r->image];
	uint32_t k;

	if (check_symbols(r, err) < 0)
		return -1;
	for (k = 0; k < im->blocks.count; k++) {
		const struct dcfg_block *b = &d->blocks[im->blocks.first + k];
		if ((r->flags[im->blocks.first + k - r->p->blocks.first] & BOLT_BLOCK_RAN) &&
		    !in_code(r->t, b->offset, b->size))
			return dcfg_error_set(err, r->binary, "has no code at 0x%" PRIx64 ", where "
			    "block %" PRIu32 " of the DCFG's image %" PRIu32 " ran: the DCFG is of "
			    "another binary", b->offset, b->node_id, im->id);
	}
	return 0;
}
