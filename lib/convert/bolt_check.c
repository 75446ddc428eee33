/*
 * --to bolt: which image, and whether the binary read is the image's: a
 * profile of another build would name the wrong functions or none, and
 * BOLT would take it for a stale one.
 */
#include "bolt_run.h"

#include <inttypes.h>
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

/* Whether the file has a function (or an alias) named NAME that starts at OFFSET. */
static int
has_symbol(const struct dcfg_bolt_functions *t, const char *name, uint64_t offset)
{
	size_t i;

	for (i = dcfg_bolt_first_from(t, offset); i < t->n && t->f[i].start == offset; i++)
		if (strcmp(dcfg_bolt_string(t, t->f[i].name), name) == 0)
			return 1;
	return 0;
}

static int
check_symbols(const struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg *d = r->d;
	const struct dcfg_image *im = &d->images[r->image];
	char shown[512];
	uint32_t k;

	for (k = 0; k < im->symbols.count; k++) {
		const struct dcfg_symbol *s = &d->symbols[im->symbols.first + k];
		const char *name = dcfg_string(d, s->name);
		/* the DCFG's writer may name PLT entries its own way */
		if (name == NULL || *name == '\0' || dcfg_bolt_in_plt(r->t, s->offset) ||
		    has_symbol(r->t, name, s->offset))
			continue;
		dcfg_escape(shown, sizeof shown, name);
		return dcfg_error_set(err, r->binary, "has no function %s at 0x%" PRIx64 ", where "
		    "the DCFG's image %" PRIu32 " has it: the DCFG is of another binary", shown,
		    s->offset, im->id);
	}
	return 0;
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
