#include "transitions.h"

#include <stdlib.h>

#include "huffman.h"
#include "common/vec.h"

#define HOT 4096        /* uses of a transition that make a group pay for its ids */
#define MAX_CODE 32
#define MAX_LAST (1u << 20)   /* current edge ids the cache covers: 4 MiB at most */

void
dcfg_transitions_free(struct dcfg_transitions *t)
{
	free(t->trans);
	free(t->slots);
	free(t->pool);
	free(t->last);
	*t = (struct dcfg_transitions){ 0 };
}

static int
rehash(struct dcfg_transitions *t, size_t size)
{
	uint32_t *s = calloc(size, sizeof *s);
	size_t i, j;

	if (s == NULL)
		return -1;
	for (i = 0; i < t->n_trans; i++) {
		for (j = dcfg_transitions_mix(t->trans[i].key) & (size - 1); s[j]; j = (j + 1) & (size - 1))
			;
		s[j] = (uint32_t)(i + 1);
	}
	free(t->slots);
	t->slots = s;
	t->n_slots = size;
	return 0;
}

/* The cache covers CUR when it is below MAX_LAST (failing to grow it is no error). */
static void
cover(struct dcfg_transitions *t, uint32_t cur)
{
	size_t n = t->n_last ? 2 * t->n_last : 1024, i;
	uint32_t *last;

	if (cur < t->n_last || cur >= MAX_LAST)
		return;
	while (n <= cur)
		n *= 2;
	if ((last = realloc(t->last, n * sizeof *last)) == NULL)
		return;
	for (i = t->n_last; i < n; i++)
		last[i] = 0;
	t->last = last;
	t->n_last = n;
}

int
dcfg_transitions_insert(struct dcfg_transitions *t, uint32_t cur, uint32_t next, uint64_t n)
{
	uint64_t key = (uint64_t)cur << 32 | next;
	size_t j;

	cover(t, cur);
	if (dcfg_reserve((void **)&t->trans, &t->cap_trans, t->n_trans + 1, sizeof *t->trans) < 0)
		return -1;
	t->trans[t->n_trans++] = (struct dcfg_trans){ .key = key, .count = n };
	if (2 * t->n_trans > t->n_slots)
		return rehash(t, t->n_slots ? 2 * t->n_slots : 16);
	for (j = dcfg_transitions_mix(key) & (t->n_slots - 1); t->slots[j]; j = (j + 1) & (t->n_slots - 1))
		;
	t->slots[j] = (uint32_t)t->n_trans;
	return 0;
}

static int
by_key(const void *a, const void *b)
{
	const struct dcfg_trans *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The transitions leaving CUR: [*first, *first + count) in the sorted array. */
static size_t
successors(const struct dcfg_transitions *t, uint32_t cur, size_t *first)
{
	uint64_t lo_key = (uint64_t)cur << 32;
	size_t lo = 0, hi = t->n_trans, start;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->trans[mid].key < lo_key)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < t->n_trans && t->trans[lo].key >> 32 == cur)
		lo++;
	*first = start;
	return lo - start;
}

static int
build_codes(struct dcfg_transitions *t, size_t first, size_t n)
{
	uint64_t *freq = malloc(n * sizeof *freq), *scratch = malloc(4 * n * sizeof *scratch);
	uint8_t *len = malloc(n);
	size_t *order = malloc(n * sizeof *order);
	uint32_t *code = malloc(n * sizeof *code);
	size_t i, j;
	int rc = -1;

	if (!freq || !scratch || !len || !order || !code)
		goto out;
	for (i = 0; i < n; i++)
		freq[i] = t->trans[first + i].count;
	if (dcfg_huffman_lengths(freq, n, MAX_CODE, len, scratch) < 0)
		goto out;
	/* canonical order: by length, then by next edge id (the sorted order) */
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)   /* insertion sort: successors are few */
		for (j = i; j > 0 && len[order[j - 1]] > len[order[j]]; j--) {
			size_t s = order[j];
			order[j] = order[j - 1];
			order[j - 1] = s;
		}
	dcfg_huffman_codes(len, order, n, code);
	for (i = 0; i < n; i++) {
		t->trans[first + i].code = code[i];
		t->trans[first + i].len = len[i];
	}
	rc = 0;
out:
	free(freq);
	free(scratch);
	free(len);
	free(order);
	free(code);
	return rc;
}

/*
 * Codes for every edge's successors, and for each hot transition A -> B
 * the group B, C, D, ... following edges with a single successor. Those
 * cost no bits anyway: a group saves decoding steps, not bits, so it is
 * made only where that pays for the ids it adds to the table.
 */
int
dcfg_transitions_build(struct dcfg_transitions *t)
{
	size_t i, first, n, k;

	if (t->n_trans > 1)   /* (qsort may not be given a null array) */
		qsort(t->trans, t->n_trans, sizeof *t->trans, by_key);
	for (i = 0; i < t->n_last; i++)   /* the cache's indices are the unsorted ones */
		t->last[i] = 0;
	if (rehash(t, t->n_slots ? t->n_slots : 16) < 0)
		return -1;
	for (i = 0; i < t->n_trans; i += n) {
		n = successors(t, (uint32_t)(t->trans[i].key >> 32), &first);
		if (n > 1 && build_codes(t, first, n) < 0)
			return -1;
	}
	for (i = 0; i < t->n_trans; i++) {
		struct dcfg_trans *tr = &t->trans[i];
		uint32_t cur = (uint32_t)tr->key;
		if (dcfg_reserve((void **)&t->pool, &t->cap_pool, t->n_pool + DCFG_MAX_GROUP,
		    sizeof *t->pool) < 0)
			return -1;
		tr->group = (uint32_t)t->n_pool;
		t->pool[t->n_pool++] = cur;
		tr->group_len = 1;
		while (tr->count >= HOT && tr->group_len < DCFG_MAX_GROUP &&
		    successors(t, cur, &first) == 1) {
			uint32_t next = (uint32_t)t->trans[first].key;
			for (k = 0; k < tr->group_len && t->pool[tr->group + k] != next; k++)
				;
			if (k < tr->group_len)
				break;    /* a cycle: the group would repeat itself */
			t->pool[t->n_pool++] = next;
			tr->group_len++;
			cur = next;
		}
	}
	return 0;
}

void
dcfg_transitions_write(struct dcfg_output *out, const struct dcfg_transitions *t)
{
	size_t i, k;
	int b;

	dcfg_out_str(out, "[[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"]");
	for (i = 0; i < t->n_trans; i++) {
		const struct dcfg_trans *tr = &t->trans[i];
		dcfg_out_str(out, ",\n    [");
		dcfg_out_u64(out, tr->key >> 32);
		dcfg_out_str(out, ", \"");
		for (b = 0; b < tr->len; b++)
			dcfg_out_char(out, (char)('0' + ((tr->code >> (31 - b)) & 1)));
		dcfg_out_str(out, "\", [");
		for (k = 0; k < tr->group_len; k++) {
			if (k)
				dcfg_out_str(out, ", ");
			dcfg_out_u64(out, t->pool[tr->group + k]);
		}
		dcfg_out_str(out, "]]");
	}
	dcfg_out_char(out, ']');
}
