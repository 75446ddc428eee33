/*
 * The sequence target's oracle: a second reading of spec 3.7.1, written
 * from the spec and sharing nothing with lib/, that says whether a
 * sequence string and its dictionary are well formed and which edges the
 * target's fixed table decodes from them. The library must agree: fail on
 * a malformed string wherever the fault sits (even after the last bit
 * EDGE_COUNT needs), and decode a well-formed one to the same edges.
 *
 * Two readings of "well formed", because the spec leaves corners open:
 *  - lenient: only what expanding the string can reach counts; the body of
 *    a "(0*...)" repeat is dropped unread, so only its parentheses matter.
 *    A fault here is an error under any reading: the library must fail.
 *  - strict: every character of the string and of every dictionary value
 *    is read, references inside "(0*...)" included, and a repeat count
 *    must fit in 64 bits. Only when this passes are the edges compared.
 *
 * The work is bounded by the input: scans are linear, the walk over the
 * references uses an explicit stack, and expansion stops after a budget.
 */
#ifndef SEQREF_H
#define SEQREF_H

/*
 * The oracle reads bit by bit; its own coverage would only steer the
 * search away from the library's and cost most of the time of a run.
 */
#if defined(__clang__)
#pragma clang attribute push (__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct seqref_entry {
	const char *key, *value;
	size_t key_len, len;
};

struct seqref_scan {
	const char *s;
	size_t len, i;
	size_t depth;        /* open repeats */
	size_t zero;         /* the depth of the outermost open "(0*", or 0 */
	int strict;
};

struct seqref_frame {
	long entry;          /* the dictionary entry read, or -1 for the string */
	struct seqref_scan sc;
};

static int
seqref_b64(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '-' ? 63 : -1;
}

static int
seqref_cmp(const void *a, const void *b)
{
	const struct seqref_entry *x = a, *y = b;
	size_t i;

	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	/* not memcmp: libFuzzer would trace every call of the oracle's */
	for (i = 0; i < x->key_len; i++)
		if (x->key[i] != y->key[i])
			return (unsigned char)x->key[i] < (unsigned char)y->key[i] ? -1 : 1;
	return 0;
}

/* E sorted by key (seqref_sort): the index of KEY, or -1. */
static long
seqref_find(const struct seqref_entry *e, size_t n, const char *key, size_t len)
{
	struct seqref_entry k = { key, NULL, len, 0 };
	const struct seqref_entry *f = bsearch(&k, e, n, sizeof *e, seqref_cmp);

	return f ? (long)(f - e) : -1;
}

static void
seqref_sort(struct seqref_entry *e, size_t n)
{
	qsort(e, n, sizeof *e, seqref_cmp);
}

/*
 * "(" at S[I]: the position after its "*" and whether the count is zero
 * (*ZERO) or does not fit 64 bits (*BIG); 0 when no digits and "*" follow.
 */
static size_t
seqref_head(const char *s, size_t len, size_t i, int *zero, int *big)
{
	size_t j = i + 1, digits = 0;
	uint64_t m = 0;

	*zero = 1;
	*big = 0;
	for (; j < len && s[j] >= '0' && s[j] <= '9'; j++, digits++) {
		unsigned d = (unsigned)(s[j] - '0');
		if (m > (UINT64_MAX - d) / 10)
			*big = 1;
		m = m * 10 + d;
		if (d)
			*zero = 0;
	}
	return digits > 0 && j < len && s[j] == '*' ? j + 1 : 0;
}

/*
 * The next reference the scan meets: 1 with KEY and LEN, 0 at the end of
 * a well-formed string, -1 on a fault. A lenient scan reads only the
 * parentheses inside "(0*...)".
 */
static int
seqref_next(struct seqref_scan *sc, const char **key, size_t *len)
{
	const char *s = sc->s;
	int zero, big;
	size_t j;

	while (sc->i < sc->len) {
		unsigned char c = (unsigned char)s[sc->i];
		int skipping = sc->zero && !sc->strict;
		if (seqref_b64(c) >= 0) {
			sc->i++;
		} else if (c == '(') {
			if ((j = seqref_head(s, sc->len, sc->i, &zero, &big)) == 0) {
				if (!skipping)
					return -1;
				j = sc->i + 1;   /* still a parenthesis to match */
				zero = 0;
			} else if (big && sc->strict) {
				return -1;
			}
			sc->depth++;
			if (zero && !sc->zero)
				sc->zero = sc->depth;
			sc->i = j;
		} else if (c == ')') {
			if (sc->depth == 0)
				return -1;
			if (sc->zero == sc->depth)
				sc->zero = 0;
			sc->depth--;
			sc->i++;
		} else if (skipping) {
			sc->i++;
		} else if (c == '<') {
			for (j = sc->i + 1; j < sc->len && s[j] != '>'; j++)
				if (seqref_b64((unsigned char)s[j]) < 0)
					return -1;
			if (j == sc->len)
				return -1;
			*key = s + sc->i + 1;
			*len = j - sc->i - 1;
			sc->i = j + 1;
			return 1;
		} else {
			return -1;
		}
	}
	return sc->depth > 0 ? -1 : 0;
}

/*
 * Walks from S (entry ROOT's value, or the string for ROOT -1) through
 * every reference the scan reads. STATE holds, per entry, 0 unseen, 1 on
 * the current path, 2 done; STACK has room for n + 1 frames. 1 on a fault
 * (syntax, an unknown key, a circular reference), else 0.
 */
static int
seqref_walk(const struct seqref_entry *e, size_t n, long root, const char *s, size_t len,
    int strict, unsigned char *state, struct seqref_frame *stack)
{
	size_t top = 0, klen;
	const char *key;
	long k;
	int rc;

	stack[top++] = (struct seqref_frame){ root, { s, len, 0, 0, 0, strict } };
	if (root >= 0)
		state[root] = 1;
	while (top > 0) {
		struct seqref_frame *f = &stack[top - 1];
		if ((rc = seqref_next(&f->sc, &key, &klen)) < 0)
			return 1;
		if (rc == 0) {
			if (f->entry >= 0)
				state[f->entry] = 2;
			top--;
			continue;
		}
		if ((k = seqref_find(e, n, key, klen)) < 0 || state[k] == 1)
			return 1;
		if (state[k] == 0) {
			state[k] = 1;
			stack[top++] = (struct seqref_frame){ k, { e[k].value, e[k].len, 0, 0, 0, strict } };
		}
	}
	return 0;
}

/*
 * E sorted, N entries. *MALFORMED: a fault under the lenient reading;
 * *STRICT_OK: none under the strict one. 0, or -1 out of memory.
 */
static int
seqref_check(const struct seqref_entry *e, size_t n, const char *s, size_t len,
    int *malformed, int *strict_ok)
{
	unsigned char *state = calloc(n + 1, 1);
	struct seqref_frame *stack = malloc((n + 1) * sizeof *stack);
	size_t i;

	if (state == NULL || stack == NULL) {
		free(state);
		free(stack);
		return -1;
	}
	*malformed = seqref_walk(e, n, -1, s, len, 0, state, stack);
	memset(state, 0, n + 1);
	*strict_ok = !seqref_walk(e, n, -1, s, len, 1, state, stack);
	for (i = 0; i < n && *strict_ok; i++)
		if (state[i] == 0 && seqref_walk(e, n, (long)i, e[i].value, e[i].len, 1, state, stack))
			*strict_ok = 0;
	free(state);
	free(stack);
	return 0;
}

/* ---- expansion into bits, for strictly well-formed input only ---- */

struct seqref_xframe {
	const char *s;
	size_t pos, end, body;
	uint64_t left;       /* passes still to make after this one */
};

struct seqref_bits {
	const struct seqref_entry *e;
	size_t n;
	struct seqref_xframe *f;
	size_t nf, cap;
	uint64_t budget;     /* steps left; at 0 the oracle gives up */
	int sym, nbits;      /* the current symbol and its unread bits */
	int gave_up;
};

/* The ")" matching the "(" at S[I] (the string is strictly well formed). */
static size_t
seqref_close(const char *s, size_t i, uint64_t *steps)
{
	size_t depth = 0;

	for (;; i++) {
		++*steps;
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			return i;
	}
}

static int
seqref_push(struct seqref_bits *b, struct seqref_xframe f)
{
	if (b->nf == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct seqref_xframe *p = realloc(b->f, cap * sizeof *p);
		if (p == NULL)
			return -1;
		b->f = p;
		b->cap = cap;
	}
	b->f[b->nf++] = f;
	return 0;
}

/* The next 6-bit symbol, or -1 at the end (or when the budget ran out: gave_up). */
static int
seqref_symbol(struct seqref_bits *b)
{
	while (b->nf > 0) {
		struct seqref_xframe *f = &b->f[b->nf - 1];
		if (b->budget == 0)
			break;
		b->budget--;
		if (f->pos == f->end) {
			if (f->left > 0) {
				f->left--;
				f->pos = f->body;
			} else {
				b->nf--;
			}
			continue;
		}
		const char *s = f->s;
		int v = seqref_b64((unsigned char)s[f->pos]);
		if (v >= 0) {
			f->pos++;
			return v;
		}
		if (s[f->pos] == '(') {
			int zero, big;
			uint64_t m = 0, steps = 0;
			size_t body = seqref_head(s, f->end, f->pos, &zero, &big), close, j;
			for (j = f->pos + 1; s[j] != '*'; j++)
				m = m * 10 + (uint64_t)(s[j] - '0');
			close = seqref_close(s, f->pos, &steps);
			b->budget = steps < b->budget ? b->budget - steps : 0;
			f->pos = close + 1;
			if (m > 0 && seqref_push(b, (struct seqref_xframe){ s, body, close, body, m - 1 }) < 0)
				break;
			continue;
		}
		/* '<': a key the strict check found */
		size_t gt = f->pos + 1;
		while (s[gt] != '>')
			gt++;
		long k = seqref_find(b->e, b->n, s + f->pos + 1, gt - f->pos - 1);
		f->pos = gt + 1;
		if (seqref_push(b, (struct seqref_xframe){ b->e[k].value, 0, b->e[k].len, 0, 0 }) < 0)
			break;
	}
	if (b->nf > 0)
		b->gave_up = 1;
	return -1;
}

static int
seqref_bit(struct seqref_bits *b)
{
	if (b->nbits == 0) {
		if ((b->sym = seqref_symbol(b)) < 0)
			return -1;
		b->nbits = 6;
	}
	return (b->sym >> --b->nbits) & 1;
}

/*
 * Decodes up to TOTAL edges from FIRST into OUT through the target's table
 * (1 -> 2 by "0", 3 by "1"; 2 -> 1 by no bit; 3 -> 1 by "00", 2 by "01",
 * 3 by "1"): how many before the bits ran out, or -1 when the budget ran
 * out first (the oracle does not know).
 */
static long
seqref_decode(const struct seqref_entry *e, size_t n, const char *s, size_t len,
    uint32_t first, uint64_t total, uint32_t *out)
{
	struct seqref_bits b = { e, n, NULL, 0, 0, (uint64_t)1 << 20, 0, 0, 0 };
	uint32_t state = first;
	uint64_t i;
	int bit = 0;

	if (seqref_push(&b, (struct seqref_xframe){ s, 0, len, 0, 0 }) < 0)
		return -1;
	for (i = 0; i < total; i++) {
		if (i > 0) {
			if (state == 2)
				state = 1;
			else if ((bit = seqref_bit(&b)) < 0)
				break;
			else if (state == 1)
				state = bit ? 3 : 2;
			else if (bit)
				state = 3;
			else if ((bit = seqref_bit(&b)) < 0)
				break;
			else
				state = bit ? 2 : 1;
		}
		out[i] = state;
	}
	free(b.f);
	return b.gave_up ? -1 : (long)i;
}

#if defined(__clang__)
#pragma clang attribute pop
#endif

#endif
