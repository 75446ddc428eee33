#include "dict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

#define NONE DCFG_SEQ_NONE

const signed char dcfg_b64[256] = {
	['A'] = 0 + 1, ['B'] = 1 + 1, ['C'] = 2 + 1, ['D'] = 3 + 1, ['E'] = 4 + 1,
	['F'] = 5 + 1, ['G'] = 6 + 1, ['H'] = 7 + 1, ['I'] = 8 + 1, ['J'] = 9 + 1,
	['K'] = 10 + 1, ['L'] = 11 + 1, ['M'] = 12 + 1, ['N'] = 13 + 1, ['O'] = 14 + 1,
	['P'] = 15 + 1, ['Q'] = 16 + 1, ['R'] = 17 + 1, ['S'] = 18 + 1, ['T'] = 19 + 1,
	['U'] = 20 + 1, ['V'] = 21 + 1, ['W'] = 22 + 1, ['X'] = 23 + 1, ['Y'] = 24 + 1,
	['Z'] = 25 + 1, ['a'] = 26 + 1, ['b'] = 27 + 1, ['c'] = 28 + 1, ['d'] = 29 + 1,
	['e'] = 30 + 1, ['f'] = 31 + 1, ['g'] = 32 + 1, ['h'] = 33 + 1, ['i'] = 34 + 1,
	['j'] = 35 + 1, ['k'] = 36 + 1, ['l'] = 37 + 1, ['m'] = 38 + 1, ['n'] = 39 + 1,
	['o'] = 40 + 1, ['p'] = 41 + 1, ['q'] = 42 + 1, ['r'] = 43 + 1, ['s'] = 44 + 1,
	['t'] = 45 + 1, ['u'] = 46 + 1, ['v'] = 47 + 1, ['w'] = 48 + 1, ['x'] = 49 + 1,
	['y'] = 50 + 1, ['z'] = 51 + 1, ['0'] = 52 + 1, ['1'] = 53 + 1, ['2'] = 54 + 1,
	['3'] = 55 + 1, ['4'] = 56 + 1, ['5'] = 57 + 1, ['6'] = 58 + 1, ['7'] = 59 + 1,
	['8'] = 60 + 1, ['9'] = 61 + 1, ['+'] = 62 + 1, ['-'] = 63 + 1,
};

/* A repeat, as the first pass finds it. */
struct dcfg_seqpair {
	uint64_t count;
	uint32_t open, close, body;
	int full;                /* its body yields characters */
};

/* A reference in a dictionary value, for the search for cycles. */
struct dcfg_dict_ref {
	uint32_t entry, at;
};

static int
fail(struct dcfg_seqerr *err, uint32_t at, const char *msg)
{
	err->at = at;
	snprintf(err->msg, sizeof err->msg, "%s", msg);
	return -1;
}

static int
fail_char(struct dcfg_seqerr *err, uint32_t at, char c)
{
	err->at = at;
	if (c > ' ' && c < 127 && c != '\'')
		snprintf(err->msg, sizeof err->msg, "invalid character '%c'", c);
	else
		snprintf(err->msg, sizeof err->msg, "invalid character '\\x%02x'",
		    (unsigned char)c);
	return -1;
}

void
dcfg_seqbuf_free(struct dcfg_seqbuf *b)
{
	free(b->items);
	free(b->pairs);
	free(b->stack);
	memset(b, 0, sizeof *b);
}

/*
 * The first pass: the syntax, each repeat's extent and whether its body
 * yields characters, whether the whole string does (*FULL), and whether it
 * holds only Base64 characters (*PLAIN: no second pass is needed). With
 * REFS, the references are collected instead, before any value is
 * compiled (when whether they yield is not known yet). Returns the number
 * of repeats, or -1 with ERR set.
 */
static int64_t
scan(struct dcfg_seqbuf *b, const struct dcfg_dict *d, const char *s, uint32_t len,
    int *full, int *plain, struct dcfg_dict *refs, struct dcfg_seqerr *err)
{
	size_t depth = 0, n = 0;
	uint32_t i, j, e;
	int yields;

	*full = 0;
	*plain = 1;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (DCFG_B64(c) >= 0) {
			/* the common case: a run of plain characters */
			while (i + 1 < len && DCFG_B64(s[i + 1]) >= 0)
				i++;
			yields = 1;
		} else if (c == '(') {
			uint64_t m = 0;
			for (j = i + 1; j < len && s[j] >= '0' && s[j] <= '9'; j++) {
				unsigned digit = (unsigned)(s[j] - '0');
				if (m > (UINT64_MAX - digit) / 10)
					return fail(err, i, "repeat count does not fit in 64 bits");
				m = m * 10 + digit;
			}
			if (j == i + 1 || j == len || s[j] != '*')
				return fail(err, i, "a repeat needs digits and '*' after '('");
			if (dcfg_reserve((void **)&b->pairs, &b->cap_pairs, n + 1, sizeof *b->pairs) < 0 ||
			    dcfg_reserve((void **)&b->stack, &b->cap_stack, depth + 1,
			    sizeof *b->stack) < 0)
				return fail(err, NONE, "out of memory");
			b->pairs[n] = (struct dcfg_seqpair){ m, i, NONE, j + 1, 0 };
			b->stack[depth++] = (uint32_t)n++;
			*plain = 0;
			i = j;
			continue;
		} else if (c == ')') {
			if (depth == 0)
				return fail(err, i, "unbalanced parenthesis: ')' without '('");
			struct dcfg_seqpair *p = &b->pairs[b->stack[--depth]];
			p->close = i;
			yields = p->full && p->count > 0;
		} else if (c == '<') {
			for (j = i + 1; j < len && s[j] != '>'; j++)
				if (DCFG_B64(s[j]) < 0)
					return fail_char(err, j, s[j]);
			if (j == len)
				return fail(err, i, "a reference has no closing '>'");
			e = d ? dcfg_dict_find(d, s + i + 1, j - i - 1) : NONE;
			if (e == NONE) {
				err->at = i;
				snprintf(err->msg, sizeof err->msg, "unknown dictionary key \"%.*s\"",
				    (int)(j - i - 1 > 64 ? 64 : j - i - 1), s + i + 1);
				return -1;
			}
			if (refs) {
				if (dcfg_reserve((void **)&refs->refs, &refs->cap_refs, refs->n_refs + 1,
				    sizeof *refs->refs) < 0)
					return fail(err, NONE, "out of memory");
				refs->refs[refs->n_refs++] = (struct dcfg_dict_ref){ e, i };
			}
			yields = !d->entries[e].str.empty;
			i = j;
		} else {
			return fail_char(err, i, (char)c);
		}
		if (c != '(' && DCFG_B64(c) < 0)
			*plain = 0;
		if (!yields)
			continue;
		if (depth > 0)
			b->pairs[b->stack[depth - 1]].full = 1;
		else
			*full = 1;
	}
	if (depth > 0)
		return fail(err, b->pairs[b->stack[depth - 1]].open,
		    "unbalanced parenthesis: '(' without ')'");
	return (int64_t)n;
}

static int
add_item(struct dcfg_seqbuf *b, struct dcfg_seqitem it)
{
	if (dcfg_reserve((void **)&b->items, &b->cap_items, b->n_items + 1, sizeof *b->items) < 0)
		return -1;
	b->items[b->n_items++] = it;
	return 0;
}

/*
 * A reference to entry E, whose value is not empty, COUNT passes, over
 * [POS, TO): to the end of E's chain of aliases, and folded into the item
 * before it when that is a reference to the same entry that ends where
 * this one starts. 1 when folded, 0 when added, -1 out of memory.
 */
static int
add_ref(struct dcfg_seqbuf *b, const struct dcfg_dict *d, size_t base, uint32_t e,
    uint64_t count, uint32_t pos, uint32_t to)
{
	const struct dcfg_seqstr *value = &d->entries[e].str;
	struct dcfg_seqitem *prev = b->n_items > base ? &b->items[b->n_items - 1] : NULL;

	if (value->alias != NONE && count <= UINT64_MAX / value->alias_count) {
		count *= value->alias_count;
		e = value->alias;
	}
	if (prev != NULL && prev->kind == DCFG_SEQ_REF && prev->to == pos && prev->link == e &&
	    prev->count <= UINT64_MAX - count) {
		prev->count += count;
		prev->to = to;
		return 1;
	}
	return add_item(b, (struct dcfg_seqitem){ .kind = DCFG_SEQ_REF, .count = count,
	    .pos = pos, .to = to, .link = e });
}

/* The entry P's body is exactly one reference to, or NONE. */
static uint32_t
lone_ref(const struct dcfg_dict *d, const char *s, const struct dcfg_seqpair *p)
{
	const char *gt;

	if (s[p->body] != '<' || (gt = memchr(s + p->body, '>', p->close - p->body)) == NULL ||
	    gt != s + p->close - 1)
		return NONE;
	return dcfg_dict_find(d, s + p->body + 1, p->close - p->body - 2);
}

/*
 * The second pass: the items, given the N_PAIRS repeats of the first. A
 * stretch that yields nothing becomes one SKIP item; a repeat of one pass
 * is read through as if its parentheses were not there.
 */
static int
emit(struct dcfg_seqbuf *b, const struct dcfg_dict *d, struct dcfg_seqstr *str, size_t n_pairs)
{
	const char *s = str->s;
	size_t pi = 0, depth = 0, real = 0, base = b->n_items, in;
	uint32_t i = 0, skip = NONE, level = 0, only_ref = NONE, e;
	uint64_t only_count = 0, count;
	int rc;

#define BEGIN_SKIP() do { \
	if (skip == NONE) { \
		skip = (uint32_t)(b->n_items - base); \
		if (add_item(b, (struct dcfg_seqitem){ .kind = DCFG_SEQ_SKIP, .pos = i }) < 0) \
			return -1; \
	} } while (0)
#define END_SKIP() do { \
	if (skip != NONE) { b->items[base + skip].to = i; skip = NONE; } } while (0)

	str->items = (uint32_t)base;
	while (i < str->len) {
		unsigned char c = (unsigned char)s[i];
		rc = -1;
		if (DCFG_B64(c) >= 0) {
			uint32_t run = i;
			END_SKIP();
			while (++i < str->len && DCFG_B64(s[i]) >= 0)
				;
			if (real == 0)
				level += i - run;
		} else if (c == '(') {
			const struct dcfg_seqpair *p = &b->pairs[pi];
			if (p->count == 0 || !p->full) {
				BEGIN_SKIP();
				for (i = p->close + 1; pi < n_pairs && b->pairs[pi].open < i; pi++)
					;
				continue;
			}
			if (p->count == 1) {
				pi++;
				BEGIN_SKIP();
				b->stack[depth++] = NONE;
				i = p->body;
				continue;
			}
			/* a body that is only a repeat: one repeat, the counts multiplied */
			for (in = pi, count = p->count; in + 1 < n_pairs &&
			    b->pairs[in + 1].open == b->pairs[in].body &&
			    b->pairs[in + 1].close + 1 == b->pairs[in].close &&
			    b->pairs[in + 1].count > 0 &&
			    count <= UINT64_MAX / b->pairs[in + 1].count; in++)
				count *= b->pairs[in + 1].count;
			END_SKIP();
			if ((e = lone_ref(d, s, &b->pairs[in])) != NONE) {
				if ((rc = add_ref(b, d, base, e, count, i, p->close + 1)) < 0)
					return -1;
			} else {
				for (; pi < in; pi++)
					b->stack[depth++] = NONE;   /* the outer ')'s are skipped */
				p = &b->pairs[pi++];
				b->stack[depth++] = (uint32_t)(b->n_items - base);
				if (add_item(b, (struct dcfg_seqitem){ .kind = DCFG_SEQ_REPEAT,
				    .count = count, .pos = i, .to = p->close, .body = p->body }) < 0)
					return -1;
				if (real++ == 0)
					level++;
				i = p->body;
			}
		} else if (c == ')') {
			uint32_t k = b->stack[--depth];
			if (k == NONE) {
				BEGIN_SKIP();
			} else {
				END_SKIP();
				b->items[base + k].link = (uint32_t)(b->n_items - base);
				real--;
			}
			i++;
		} else {   /* '<': the first pass found its '>' and its key */
			const char *gt = memchr(s + i, '>', str->len - i);
			uint32_t to = (uint32_t)(gt - s) + 1;
			e = dcfg_dict_find(d, s + i + 1, to - i - 2);
			if (d->entries[e].str.empty) {
				BEGIN_SKIP();
				i = to;
				continue;
			}
			END_SKIP();
			if ((rc = add_ref(b, d, base, e, 1, i, to)) < 0)
				return -1;
		}
		if (rc >= 0) {   /* a reference was added or folded */
			if (real == 0) {
				level += rc == 0;
				only_ref = b->items[b->n_items - 1].link;
				only_count = b->items[b->n_items - 1].count;
			}
			i = b->items[b->n_items - 1].to;
			for (; pi < n_pairs && b->pairs[pi].open < i; pi++)
				;
		}
	}
	END_SKIP();
#undef BEGIN_SKIP
#undef END_SKIP
	str->n_items = (uint32_t)(b->n_items - base);
	str->alias = level == 1 ? only_ref : NONE;
	str->alias_count = only_count;
	return 0;
}

int
dcfg_seq_compile(struct dcfg_seqbuf *b, const struct dcfg_dict *d,
    struct dcfg_seqstr *str, const char *s, size_t len, struct dcfg_seqerr *err)
{
	int64_t n_pairs;
	int full, plain;

	str->s = s;
	str->len = (uint32_t)len;
	str->items = (uint32_t)b->n_items;
	str->n_items = 0;
	str->empty = 1;
	str->alias = NONE;
	if (len >= UINT32_MAX / 2)
		return fail(err, NONE, "the string is too long");
	if ((n_pairs = scan(b, d, s, (uint32_t)len, &full, &plain, NULL, err)) < 0)
		return -1;
	str->empty = !full;
	if (!plain && emit(b, d, str, (size_t)n_pairs) < 0)
		return fail(err, NONE, "out of memory");
	return 0;
}

/* ---- the dictionary ---- */

void
dcfg_dict_init(struct dcfg_dict *d)
{
	memset(d, 0, sizeof *d);
}

void
dcfg_dict_reset(struct dcfg_dict *d)
{
	d->n_pool = d->n = d->n_refs = d->buf.n_items = 0;
	free(d->hash);
	d->hash = NULL;
	d->hash_size = 0;
}

void
dcfg_dict_free(struct dcfg_dict *d)
{
	free(d->pool);
	free(d->entries);
	free(d->refs);
	free(d->hash);
	free(d->walk);
	free(d->state);
	dcfg_seqbuf_free(&d->buf);
	memset(d, 0, sizeof *d);
}

static uint32_t
hash_key(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

int
dcfg_dict_add(struct dcfg_dict *d, const char *key, size_t key_len,
    const char *value, size_t len, const char **why)
{
	size_t i;

	for (i = 0; i < key_len; i++)
		if (DCFG_B64(key[i]) < 0)
			break;
	if (key_len == 0 || i < key_len) {
		*why = "has characters other than A-Z a-z 0-9 + -";
		return -1;
	}
	if (d->n_pool + key_len + len >= UINT32_MAX / 2 ||
	    dcfg_reserve((void **)&d->pool, &d->cap_pool, d->n_pool + key_len + len + 1, 1) < 0 ||
	    dcfg_reserve((void **)&d->entries, &d->cap, d->n + 1, sizeof *d->entries) < 0) {
		*why = "is too large for memory";
		return -1;
	}
	memcpy(d->pool + d->n_pool, key, key_len);
	memcpy(d->pool + d->n_pool + key_len, value, len);
	d->entries[d->n] = (struct dcfg_dict_entry){ .key = (uint32_t)d->n_pool,
	    .key_len = (uint32_t)key_len, .value = (uint32_t)(d->n_pool + key_len),
	    .value_len = (uint32_t)len };
	d->n_pool += key_len + len;
	d->n++;
	return 0;
}

uint32_t
dcfg_dict_find(const struct dcfg_dict *d, const char *key, size_t len)
{
	size_t mask = d->hash_size - 1, i;
	uint32_t e;

	if (d->hash_size == 0)
		return NONE;
	for (i = hash_key(key, len) & mask; (e = d->hash[i]) != NONE; i = (i + 1) & mask)
		if (d->entries[e].key_len == len &&
		    memcmp(d->pool + d->entries[e].key, key, len) == 0)
			return e;
	return NONE;
}

static int
index_keys(struct dcfg_dict *d, struct dcfg_seqerr *err, size_t *entry)
{
	size_t i, size;

	for (size = 16; size < 2 * d->n; size *= 2)
		;
	if ((d->hash = malloc(size * sizeof *d->hash)) == NULL)
		return fail(err, NONE, "out of memory");
	memset(d->hash, 0xff, size * sizeof *d->hash);
	d->hash_size = size;
	for (i = 0; i < d->n; i++) {
		struct dcfg_dict_entry *e = &d->entries[i];
		size_t h;
		if (dcfg_dict_find(d, d->pool + e->key, e->key_len) != NONE) {
			*entry = i;
			return fail(err, NONE, "appears twice");
		}
		for (h = hash_key(d->pool + e->key, e->key_len) & (size - 1);
		    d->hash[h] != NONE; h = (h + 1) & (size - 1))
			;
		d->hash[h] = (uint32_t)i;
	}
	return 0;
}

/* "circular reference: a -> b -> a", the keys on the walk from FROM to its top, then A again. */
static void
say_cycle(const struct dcfg_dict *d, size_t from, size_t depth, struct dcfg_seqerr *err)
{
	size_t len, k;
	int over = 0;

	len = (size_t)snprintf(err->msg, sizeof err->msg, "circular reference:");
	for (k = from; k <= depth && !over; k++) {
		const struct dcfg_dict_entry *e = &d->entries[d->walk[2 * (k < depth ? k : from)]];
		int w = e->key_len > 24 ? 24 : (int)e->key_len;
		if (len + (size_t)w + 12 >= sizeof err->msg) {
			over = 1;
			w = 0;
		}
		len += (size_t)snprintf(err->msg + len, sizeof err->msg - len, "%s%.*s%s",
		    k == from ? " " : " -> ", w, d->pool + e->key,
		    over ? "..." : e->key_len > 24 ? "..." : "");
	}
}

/*
 * Every entry in an order where the entries a value names come before it,
 * by a depth-first walk on an explicit stack (two words a level: the entry
 * and its next reference); a reference to an entry still on the walk is a
 * cycle. Each entry is compiled when the walk leaves it.
 */
static int
walk(struct dcfg_dict *d, struct dcfg_seqerr *err, size_t *entry)
{
	size_t root, depth;

	if (d->n == 0)
		return 0;
	if (dcfg_reserve((void **)&d->state, &d->cap_state, d->n, 1) < 0)
		return fail(err, NONE, "out of memory");
	memset(d->state, 0, d->n);
	for (root = 0; root < d->n; root++) {
		if (d->state[root])
			continue;
		if (dcfg_reserve((void **)&d->walk, &d->cap_walk, 2, sizeof *d->walk) < 0)
			return fail(err, NONE, "out of memory");
		d->walk[0] = (uint32_t)root;
		d->walk[1] = 0;
		d->state[root] = 1;
		depth = 1;
		while (depth > 0) {
			uint32_t v = d->walk[2 * (depth - 1)], *next = &d->walk[2 * (depth - 1) + 1];
			struct dcfg_dict_entry *e = &d->entries[v];
			if (*next < e->n_refs) {
				const struct dcfg_dict_ref *r = &d->refs[e->refs + (*next)++];
				if (d->state[r->entry] == 2)
					continue;
				if (d->state[r->entry] == 1) {
					size_t from = 0;
					while (d->walk[2 * from] != r->entry)
						from++;
					*entry = r->entry;
					/* the place: the reference that leaves the entry met twice */
					err->at = d->refs[d->entries[r->entry].refs +
					    d->walk[2 * from + 1] - 1].at;
					say_cycle(d, from, depth, err);
					return -1;
				}
				if (dcfg_reserve((void **)&d->walk, &d->cap_walk, 2 * (depth + 1),
				    sizeof *d->walk) < 0)
					return fail(err, NONE, "out of memory");
				d->walk[2 * depth] = r->entry;
				d->walk[2 * depth + 1] = 0;
				d->state[r->entry] = 1;
				depth++;
				continue;
			}
			if (dcfg_seq_compile(&d->buf, d, &e->str, d->pool + e->value, e->value_len,
			    err) < 0) {
				*entry = v;
				return -1;
			}
			d->state[v] = 2;
			depth--;
		}
	}
	return 0;
}

int
dcfg_dict_finish(struct dcfg_dict *d, struct dcfg_seqerr *err, size_t *entry)
{
	size_t i;
	int full, plain;

	*entry = 0;
	if (index_keys(d, err, entry) < 0)
		return -1;
	/* Syntax and references first, so that the walk knows every edge. */
	for (i = 0; i < d->n; i++) {
		struct dcfg_dict_entry *e = &d->entries[i];
		e->str = (struct dcfg_seqstr){ .s = d->pool + e->value, .len = e->value_len,
		    .alias = NONE };
		e->refs = (uint32_t)d->n_refs;
		if (scan(&d->buf, d, e->str.s, e->value_len, &full, &plain, d, err) < 0) {
			*entry = i;
			return -1;
		}
		e->n_refs = (uint32_t)(d->n_refs - e->refs);
	}
	return walk(d, err, entry);
}
