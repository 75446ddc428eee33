#include "compress.h"

#include <stdlib.h>
#include <string.h>

#define L DCFG_DICT_VALUE
#define ANCHOR 8                /* about one position in this many starts a value */
#define MAX_CANDIDATES 65536
#define MAX_VALUES 4096         /* keys of one or two characters */
#define MIN_USES 3
#define MAX_PERIOD 256          /* longest repeated body tried, in tokens */
#define BASE UINT64_C(1099511628211)

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

static uint64_t
hash_of(const char *s)
{
	uint64_t h = 0;
	int i;

	for (i = 0; i < L; i++)
		h = h * BASE + (unsigned char)s[i];
	return h;
}

/*
 * Values start only where the text itself says so (a hash of the next
 * four characters), and a value's characters are never the start of
 * another: the same cut in measuring and in writing, so that every value
 * chosen is used as often as it was counted, wherever in a chunk the
 * repeated text stands.
 */
static int
anchor(const char *s)
{
	uint32_t h = (unsigned char)s[0] * 31u * 31u * 31u + (unsigned char)s[1] * 31u * 31u +
	    (unsigned char)s[2] * 31u + (unsigned char)s[3];

	return (h * 2654435761u) >> 29 == 0;   /* one in 2^3 */
}

static size_t
slot_of(uint64_t h, size_t size)
{
	return (size_t)(h ^ (h >> 29)) & (size - 1);
}

void
dcfg_dictionary_free(struct dcfg_dictionary *d)
{
	free(d->cand_hash);
	free(d->cand_count);
	free(d->cand_text);
	free(d->cand_slots);
	free(d->values);
	free(d->slots);
	memset(d, 0, sizeof *d);
}

/*
 * Makes room for twice the candidates. The table grows with what a process
 * has, so that a process of a few edges costs a few bytes, not the whole
 * bounded table.
 */
static int
grow(struct dcfg_dictionary *d)
{
	size_t cap = d->cap_cand ? 2 * d->cap_cand : 256, size = 2 * cap, i, j;
	uint64_t *hash = realloc(d->cand_hash, cap * sizeof *hash);
	uint32_t *count, *slots;
	char *text;

	if (hash == NULL)
		return -1;
	d->cand_hash = hash;
	if ((count = realloc(d->cand_count, cap * sizeof *count)) == NULL)
		return -1;
	d->cand_count = count;
	if ((text = realloc(d->cand_text, cap * L)) == NULL)
		return -1;
	d->cand_text = text;
	if ((slots = calloc(size, sizeof *slots)) == NULL)
		return -1;
	for (i = 0; i < d->n_cand; i++) {
		for (j = slot_of(hash[i], size); slots[j]; j = (j + 1) & (size - 1))
			;
		slots[j] = (uint32_t)(i + 1);
	}
	free(d->cand_slots);
	d->cand_slots = slots;
	d->cap_cand = cap;
	return 0;
}

int
dcfg_dictionary_measure(struct dcfg_dictionary *d, const char *s, size_t len)
{
	size_t pos, i;

	for (pos = 0; pos + L <= len; pos++) {
		if (!anchor(s + pos))
			continue;
		if (d->n_cand == d->cap_cand && d->cap_cand < MAX_CANDIDATES && grow(d) < 0)
			return -1;
		uint64_t h = hash_of(s + pos);
		size_t size = 2 * d->cap_cand;
		uint32_t c;
		for (i = slot_of(h, size); (c = d->cand_slots[i]) != 0; i = (i + 1) & (size - 1))
			if (d->cand_hash[c - 1] == h && memcmp(d->cand_text + (size_t)(c - 1) * L, s + pos, L) == 0)
				break;
		if (c != 0) {
			d->cand_count[c - 1]++;
		} else if (d->n_cand < d->cap_cand) {   /* a full table counts only what it has */
			d->cand_hash[d->n_cand] = h;
			d->cand_count[d->n_cand] = 1;
			memcpy(d->cand_text + d->n_cand * L, s + pos, L);
			d->cand_slots[i] = (uint32_t)++d->n_cand;
		}
		pos += L - 1;
	}
	return 0;
}


struct ranked {
	uint32_t count, index;
};

static int
by_count(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int
dcfg_dictionary_choose(struct dcfg_dictionary *d)
{
	struct ranked *r = malloc((d->n_cand + 1) * sizeof *r);
	size_t i, n = 0, size;

	if (r == NULL)
		return -1;
	for (i = 0; i < d->n_cand; i++)
		if (d->cand_count[i] >= MIN_USES)
			r[n++] = (struct ranked){ d->cand_count[i], (uint32_t)i };
	qsort(r, n, sizeof *r, by_count);
	if (n > MAX_VALUES)
		n = MAX_VALUES;
	for (size = 16; size < 2 * n; size *= 2)
		;
	d->values = malloc(n * L + 1);
	d->slots = calloc(size, sizeof *d->slots);
	if (d->values == NULL || d->slots == NULL) {
		free(r);
		return -1;
	}
	d->n_slots = size;
	for (i = 0; i < n; i++) {
		const char *v = d->cand_text + (size_t)r[i].index * L;
		size_t j;
		memcpy(d->values + i * L, v, L);
		for (j = slot_of(hash_of(v), size); d->slots[j]; j = (j + 1) & (size - 1))
			;
		d->slots[j] = (uint32_t)(i + 1);
	}
	d->n_values = n;
	free(r);
	free(d->cand_hash);
	free(d->cand_count);
	free(d->cand_text);
	free(d->cand_slots);
	d->cand_hash = NULL;
	d->cand_count = NULL;
	d->cand_text = NULL;
	d->cand_slots = NULL;
	d->n_cand = d->cap_cand = 0;
	return 0;
}

/* The key of value I: one Base64 character for the first 64, then two. */
static size_t
key_of(size_t i, char key[2])
{
	if (i < 64) {
		key[0] = b64[i];
		return 1;
	}
	key[0] = b64[(i - 64) / 64];
	key[1] = b64[(i - 64) % 64];
	return 2;
}

void
dcfg_dictionary_write(struct dcfg_output *out, const struct dcfg_dictionary *d)
{
	char key[2];
	size_t i;

	dcfg_out_char(out, '{');
	for (i = 0; i < d->n_values; i++) {
		dcfg_out_str(out, i ? ",\n    \"" : "\"");
		dcfg_out_bytes(out, key, key_of(i, key));
		dcfg_out_str(out, "\": \"");
		dcfg_out_bytes(out, d->values + i * L, L);
		dcfg_out_char(out, '"');
	}
	dcfg_out_char(out, '}');
}

/* The dictionary entry whose value is S[0..L), or -1. */
static long
lookup(const struct dcfg_dictionary *d, const char *s, uint64_t h)
{
	size_t j;
	uint32_t e;

	for (j = slot_of(h, d->n_slots); (e = d->slots[j]) != 0; j = (j + 1) & (d->n_slots - 1))
		if (memcmp(d->values + (size_t)(e - 1) * L, s, L) == 0)
			return (long)(e - 1);
	return -1;
}

/* Tokens are characters (< 256) or references (256 + entry). */
static size_t
token_cost(uint32_t t)
{
	return t < 256 ? 1 : t - 256 < 64 ? 3 : 4;
}

static void
write_token(struct dcfg_output *out, uint32_t t)
{
	char key[2];

	if (t < 256) {
		dcfg_out_char(out, (char)t);
		return;
	}
	dcfg_out_char(out, '<');
	dcfg_out_bytes(out, key, key_of(t - 256, key));
	dcfg_out_char(out, '>');
}

static size_t
digits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void
dcfg_compress(struct dcfg_output *out, const struct dcfg_dictionary *d,
    const char *s, size_t len, uint32_t *tok)
{
	size_t n = 0, i = 0, p, k;

	/* dictionary references, at the anchors dcfg_dictionary_measure used */
	while (i < len) {
		if (d->n_values > 0 && i + L <= len && anchor(s + i)) {
			long e = lookup(d, s + i, hash_of(s + i));
			if (e >= 0) {
				tok[n++] = 256 + (uint32_t)e;
				i += L;
				continue;
			}
			for (k = 0; k < L; k++)
				tok[n++] = (unsigned char)s[i++];
			continue;
		}
		tok[n++] = (unsigned char)s[i++];
	}
	/* consecutive repeats, greedily by the most characters saved */
	for (i = 0; i < n;) {
		size_t best_p = 0, best_r = 0, best_save = 0;
		for (p = 1; p <= MAX_PERIOD && i + 2 * p <= n; p++) {
			size_t r = 1, cost = 0;
			if (tok[i] != tok[i + p])   /* the cheap test first */
				continue;
			while (i + (r + 1) * p <= n &&
			    memcmp(tok + i, tok + i + r * p, p * sizeof *tok) == 0)
				r++;
			if (r < 2)
				continue;
			for (k = 0; k < p; k++)
				cost += token_cost(tok[i + k]);
			size_t plain = r * cost, packed = digits(r) + 3 + cost;
			if (plain > packed && plain - packed > best_save) {
				best_save = plain - packed;
				best_p = p;
				best_r = r;
			}
		}
		if (best_save == 0) {
			write_token(out, tok[i++]);
			continue;
		}
		dcfg_out_char(out, '(');
		dcfg_out_u64(out, best_r);
		dcfg_out_char(out, '*');
		for (k = 0; k < best_p; k++)
			write_token(out, tok[i + k]);
		dcfg_out_char(out, ')');
		i += best_p * best_r;
	}
}
