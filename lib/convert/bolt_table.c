/* The function table of --to bolt (bolt.h): built by the caller, sorted here. */
#include "bolt.h"

#include <stdlib.h>
#include <string.h>

#include <dcfg/dcfg.h>

#include "common/vec.h"

/* Appends A then B, with a NUL, to the table's strings; their offset, or (size_t)-1. */
static size_t
add_string(struct dcfg_bolt_functions *t, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), at = t->strings_len;

	if (dcfg_reserve((void **)&t->strings, &t->strings_cap, at + la + lb + 1, 1) < 0)
		return (size_t)-1;
	memcpy(t->strings + at, a, la);
	memcpy(t->strings + at + la, b, lb + 1);
	t->strings_len += la + lb + 1;
	return at;
}

int
dcfg_bolt_add_function(struct dcfg_bolt_functions *t, uint64_t start, uint64_t size,
    const char *name, const char *suffix, unsigned flags)
{
	size_t n;

	if ((n = add_string(t, name, suffix)) == (size_t)-1 ||
	    dcfg_reserve((void **)&t->f, &t->cap, t->n + 1, sizeof *t->f) < 0)
		return -1;
	t->f[t->n++] = (struct dcfg_bolt_function){ start, size, n, flags };
	return 0;
}

int
dcfg_bolt_add_code(struct dcfg_bolt_functions *t, uint64_t start, uint64_t end, unsigned flags)
{
	if (dcfg_reserve((void **)&t->code, &t->code_cap, t->n_code + 1, sizeof *t->code) < 0)
		return -1;
	t->code[t->n_code++] = (struct dcfg_bolt_code){ start, end, flags };
	return 0;
}

/* A function with where it was added, so that the sort keeps the order of functions that start together. */
struct ranked {
	struct dcfg_bolt_function f;
	size_t rank;
};

static int
by_start(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->f.start != y->f.start)
		return x->f.start < y->f.start ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int
code_by_start(const void *a, const void *b)
{
	const struct dcfg_bolt_code *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

size_t
dcfg_bolt_first_from(const struct dcfg_bolt_functions *t, uint64_t offset)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->f[mid].start < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
dcfg_bolt_function_at(const struct dcfg_bolt_functions *t, uint64_t offset)
{
	size_t i = dcfg_bolt_first_from(t, offset);

	if (i == t->n || t->f[i].start != offset) {
		if (i == 0)
			return DCFG_NONE;
		i--;
	}
	while (i > 0 && (t->f[i].flags & DCFG_BOLT_ALIAS))
		i--;
	return offset - t->f[i].start < t->f[i].size ? (uint32_t)i : DCFG_NONE;
}

const struct dcfg_bolt_code *
dcfg_bolt_code_at(const struct dcfg_bolt_functions *t, uint64_t offset)
{
	size_t i;

	for (i = 0; i < t->n_code; i++)
		if (t->code[i].start <= offset && offset < t->code[i].end)
			return &t->code[i];
	return NULL;
}

int
dcfg_bolt_functions_finish(struct dcfg_bolt_functions *t)
{
	const struct dcfg_bolt_code *code;
	struct ranked *r;
	size_t i, k, next;

	if (t->n_code > 1)
		qsort(t->code, t->n_code, sizeof *t->code, code_by_start);
	if (t->n == 0)
		return 0;
	if ((r = malloc(t->n * sizeof *r)) == NULL)
		return -1;
	for (i = 0; i < t->n; i++)
		r[i] = (struct ranked){ t->f[i], i };
	qsort(r, t->n, sizeof *r, by_start);
	for (i = 0; i < t->n; i++) {
		t->f[i] = r[i].f;
		if (i > 0 && t->f[i].start == t->f[i - 1].start)
			t->f[i].flags |= DCFG_BOLT_ALIAS;
	}
	free(r);
	for (i = 0; i < t->n; i++) {
		uint64_t end;
		if (t->f[i].size != 0 || (t->f[i].flags & DCFG_BOLT_ALIAS))
			continue;
		code = dcfg_bolt_code_at(t, t->f[i].start);
		end = code ? code->end : t->f[i].start;
		for (next = i + 1; next < t->n && t->f[next].start == t->f[i].start; next++)
			;
		if (next < t->n && t->f[next].start < end)
			end = t->f[next].start;
		t->f[i].size = end - t->f[i].start;
		for (k = i + 1; k < next; k++)
			t->f[k].size = t->f[i].size;
	}
	return 0;
}

void
dcfg_bolt_functions_free(struct dcfg_bolt_functions *t)
{
	free(t->f);
	free(t->code);
	free(t->strings);
	memset(t, 0, sizeof *t);
}

int
dcfg_bolt_in_plt(const struct dcfg_bolt_functions *t, uint64_t offset)
{
	const struct dcfg_bolt_code *code = dcfg_bolt_code_at(t, offset);

	return code != NULL && (code->flags & DCFG_BOLT_PLT);
}
