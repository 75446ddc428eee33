#include "tally.h"

#include <stdlib.h>
#include <string.h>

int
dcfg_tally_init(struct dcfg_tally *t, size_t n, size_t width)
{
	memset(t, 0, sizeof *t);
	if (n >= UINT32_MAX || width == 0 || n + 1 > SIZE_MAX / sizeof(uint64_t) / width)
		return -1;
	t->value = calloc((n + 1) * width, sizeof *t->value);
	t->touched = malloc((n + 1) * sizeof *t->touched);
	t->seen = calloc(n + 1, 1);
	if (t->value == NULL || t->touched == NULL || t->seen == NULL) {
		dcfg_tally_free(t);
		return -1;
	}
	t->n = n;
	t->width = width;
	return 0;
}

void
dcfg_tally_free(struct dcfg_tally *t)
{
	free(t->value);
	free(t->touched);
	free(t->seen);
	memset(t, 0, sizeof *t);
}

void
dcfg_tally_clear(struct dcfg_tally *t)
{
	size_t k, j;

	for (k = 0; k < t->n_touched; k++) {
		uint32_t i = t->touched[k];
		for (j = 0; j < t->width; j++)
			t->value[(size_t)i * t->width + j] = 0;
		t->seen[i] = 0;
	}
	t->n_touched = 0;
}
