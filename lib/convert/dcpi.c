/*
 * DCPI profile files (dcpi-profile-format.txt, header version pdb-0.07,
 * binary data of major version 0): one per image, each block's
 * instructions as samples on its first address.
 */
#include "convert.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define U32_MAX 0xffffffffu

struct sample {
	uint64_t addr, count;
};

struct image_file {
	const struct dcfg_convert *c;
	const struct dcfg_profile *pf;
	const struct dcfg_image *im;
	struct sample *s;          /* the image's executed blocks' first addresses, merged */
	size_t n;
	uint64_t start, size, period;
};

static int
by_addr(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The file's name: the image's base name, made safe for a directory. */
static void
base_name(const struct dcfg *d, const struct dcfg_image *im, char *buf, size_t size)
{
	const char *name = dcfg_file_name(d, im->file_name_id), *slash;
	size_t i;

	if (name && (slash = strrchr(name, '/')) != NULL)
		name = slash + 1;
	if (name == NULL || !*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		snprintf(buf, size, "image%" PRIu32, im->id);
		return;
	}
	snprintf(buf, size, "%s", name);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
}

/* FNV-1a 64 of the file name, a 0 byte and the SIZE in decimal: stable per image. */
static uint64_t
image_id(const struct dcfg *d, const struct dcfg_image *im)
{
	const char *name = dcfg_file_name(d, im->file_name_id);
	char size[24];
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i, n = (size_t)snprintf(size, sizeof size, "%" PRIu64, im->size);

	for (; name && *name; name++)
		h = (h ^ (unsigned char)*name) * UINT64_C(0x100000001b3);
	h = (h ^ 0) * UINT64_C(0x100000001b3);
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)size[i]) * UINT64_C(0x100000001b3);
	return h;
}

/* Values are checked to fit 32 bits before they get here. */
static void
u32(struct dcfg_output *out, uint64_t v)
{
	dcfg_out_u32le(out, (uint32_t)v);
}

static int
write_image(struct dcfg_output *out, void *ctx, struct dcfg_error *err)
{
	const struct image_file *f = ctx;
	const struct dcfg *d = f->pf->d;
	const char *path = dcfg_file_name(d, f->im->file_name_id);
	char head[512 + 64];
	struct tm tm;
	time_t t = (time_t)f->c->o->epoch;
	uint64_t addresses = 0, total = 0;
	size_t i, j, k, len;
	int n;

	(void)err;
	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof tm);
	n = snprintf(head, sizeof head, "version pdb-0.07\nimage %016" PRIx64 "\n"
	    "epoch %02d%02d%02d%02d%02d\nplatform x86_64\nevent retired-instructions\n"
	    "period %" PRIu64 "\ntstart %" PRIx64 "\ntsize %" PRIu64 "\ncpuspeed %" PRIu64 "\n",
	    image_id(d, f->im), tm.tm_year % 100, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, f->period, f->start, f->size, f->c->o->cpuspeed);
	len = (size_t)n;
	dcfg_out_bytes(out, head, len);
	if (path && *path) {
		dcfg_out_str(out, "path ");
		dcfg_out_escaped(out, path);
		dcfg_out_char(out, '\n');
		len += 6 + dcfg_escape(NULL, 0, path);
	}
	/* Spaces after "samples" put the binary part on a 4-byte boundary. */
	dcfg_out_str(out, "samples");
	for (len += 8; len % 4; len++)
		dcfg_out_char(out, ' ');
	dcfg_out_char(out, '\n');

	for (i = 0; i < f->n; i = j) {
		uint64_t last, next;
		if (f->s[i].count / f->period == 0) {
			j = i + 1;
			continue;
		}
		/* A chunk: sampled addresses at most 3 bytes apart. */
		last = f->s[i].addr;
		for (j = i + 1; j < f->n; j++) {
			if (f->s[j].count / f->period == 0)
				continue;
			if (f->s[j].addr - last > 3)
				break;
			last = f->s[j].addr;
		}
		u32(out, f->s[i].addr - f->start);
		u32(out, last - f->s[i].addr + 1);
		for (k = i, next = f->s[i].addr; k < j; k++) {
			uint64_t v = f->s[k].count / f->period;
			if (v == 0)
				continue;
			for (; next < f->s[k].addr; next++)
				u32(out, 0);
			u32(out, v);
			next = f->s[k].addr + 1;
			addresses++;
			total += v;
		}
	}
	u32(out, addresses);
	u32(out, total);
	return 0;
}

/* The image's samples, period, start and size; -1 with ERR. */
static int
measure(struct image_file *f, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = f->pf;
	const struct dcfg_process *p = pf->p;
	const struct dcfg_image *im = f->im;
	uint64_t end = 0, sum = 0, c;
	uint32_t k, b;
	size_t m = 0, i;

	f->start = UINT64_MAX;
	f->n = 0;
	for (k = 0; k < im->blocks.count; k++) {
		const struct dcfg_block *bl = &pf->d->blocks[im->blocks.first + k];
		b = im->blocks.first + k - p->blocks.first;
		f->start = bl->addr < f->start ? bl->addr : f->start;
		c = bl->addr + bl->size < bl->addr ? UINT64_MAX : bl->addr + bl->size;
		end = c > end ? c : end;
		/* The view's total fits 64 bits, so every part of it does. */
		if (pf->exec[b])
			f->s[f->n++] = (struct sample){ bl->addr, pf->exec[b] * bl->num_instrs };
	}
	f->size = end - f->start;
	if (f->size > U32_MAX)
		return dcfg_error_set(err, f->c->o->dcfg_path, "image %" PRIu32
		    " spans more than 4 GiB", im->id);
	qsort(f->s, f->n, sizeof *f->s, by_addr);
	for (i = 0; i < f->n; i++) {
		if (m && f->s[m - 1].addr == f->s[i].addr)
			f->s[m - 1].count += f->s[i].count;
		else
			f->s[m++] = f->s[i];
		sum += f->s[i].count;
	}
	f->n = m;
	f->period = sum > U32_MAX ? sum / U32_MAX + (sum % U32_MAX != 0) : 1;
	return 0;
}

struct named {
	char name[288];            /* a base name of up to 255 bytes, and "-ID" */
	uint32_t image;
};

static int
by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->image < y->image ? -1 : x->image > y->image);
}

int
dcfg_convert_dcpi(const struct dcfg_convert *c, struct dcfg_error *err)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p;
	struct dcfg_profile pf;
	struct image_file f = { .c = c, .pf = &pf };
	struct named *names = NULL;
	size_t n, i, k, nn = 0;
	int rc = -1;

	if ((p = dcfg_convert_processes(c, 0, &n, err)) == NULL ||
	    dcfg_profile_init(&pf, d, p, c->o->dcfg_path, err) < 0)
		return -1;
	if (dcfg_profile_view(&pf, DCFG_ALL_THREADS, NULL, c->o->dcfg_path, err) < 0)
		goto out;
	names = malloc(((size_t)p->images.count + 1) * sizeof *names);
	f.s = malloc(((size_t)p->blocks.count + 1) * sizeof *f.s);
	if (names == NULL || f.s == NULL) {
		dcfg_error_set(err, c->o->dcfg_path, "out of memory");
		goto out;
	}
	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		if (im->blocks.count == 0)
			continue;
		base_name(d, im, names[nn].name, sizeof names[nn].name - 16);
		if (strlen(names[nn].name) > 255) {
			dcfg_error_set(err, c->o->dcfg_path, "image %" PRIu32 ": its base name is "
			    "longer than 255 bytes", im->id);
			goto out;
		}
		names[nn++].image = (uint32_t)(p->images.first + i);
	}
	/* Images that would share a file get their IMAGE_ID appended, all of them. */
	qsort(names, nn, sizeof *names, by_name);
	for (i = 0; i < nn; i = k) {
		for (k = i + 1; k < nn && strcmp(names[k].name, names[i].name) == 0; k++)
			;
		if (k - i > 1)
			for (; i < k; i++)
				snprintf(names[i].name + strlen(names[i].name), 16, "-%" PRIu32,
				    d->images[names[i].image].id);
	}
	qsort(names, nn, sizeof *names, by_name);
	for (i = 1; i < nn; i++)
		if (strcmp(names[i - 1].name, names[i].name) == 0) {
			dcfg_error_set(err, c->o->dcfg_path, "images %" PRIu32 " and %" PRIu32
			    " would both be written to %s", d->images[names[i - 1].image].id,
			    d->images[names[i].image].id, names[i].name);
			goto out;
		}
	/* Every image is checked before the first file is written. */
	for (i = 0; i < nn; i++) {
		f.im = &d->images[names[i].image];
		if (measure(&f, err) < 0)
			goto out;
	}
	for (i = 0; i < nn; i++) {
		f.im = &d->images[names[i].image];
		if (measure(&f, err) < 0 || dcfg_convert_file(c, names[i].name, write_image, &f, err) < 0)
			goto out;
	}
	rc = 0;
out:
	free(names);
	free(f.s);
	dcfg_profile_free(&pf);
	return rc;
}
