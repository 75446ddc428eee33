#include "sequence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define NONE UINT32_MAX

/* Modified Base64 (spec 3.7.1.1): the value of each character, or -1. */
static const signed char b64[256] = {
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
/* (stored plus one, so that the zero of every other character means "not Base64") */
#define B64(c) (b64[(unsigned char)(c)] - 1)

struct dcfg_xframe {
	const struct dcfg_seqstr *str;
	const uint32_t *pairs;     /* the pairs[] that str->pairs indexes */
	uint32_t pos, end;         /* read str->s[pos .. end) */
	uint32_t body;             /* a repeat's first character */
	uint64_t left;             /* a repeat's passes still to make after this one */
	uint64_t mark;             /* symbols read when this pass began */
	uint32_t entry;            /* the dictionary entry a string frame reads, or NONE */
	int repeat;
};

/*
 * Checks the syntax of S once, recording each '(' with its ')' in PAIRS
 * (as open, close; close NONE while unclosed). Reading stops at the first
 * error; a repeat whose ')' was not reached cannot be entered.
 */
static int
check_string(struct dcfg_seqstr *str, const char *s, uint32_t len,
    uint32_t **pairs, size_t *n_pairs, size_t *cap_pairs,
    uint32_t **stack, size_t *cap_stack)
{
	size_t depth = 0;
	uint32_t i, j;

	str->s = s;
	str->len = len;
	str->bad = len;
	str->why = "unbalanced parenthesis";
	str->pairs = (uint32_t)(*n_pairs / 2);
	str->n_pairs = 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (B64(c) >= 0)
			continue;
		if (c == '(') {
			uint64_t m = 0;
			for (j = i + 1; j < len && s[j] >= '0' && s[j] <= '9'; j++) {
				unsigned d = (unsigned)(s[j] - '0');
				if (m > (UINT64_MAX - d) / 10) {
					str->why = "repeat count does not fit in 64 bits";
					goto bad;
				}
				m = m * 10 + d;
			}
			if (j == i + 1 || j == len || s[j] != '*') {
				str->why = "a repeat needs digits and '*' after '('";
				goto bad;
			}
			if (dcfg_reserve((void **)pairs, cap_pairs, *n_pairs + 2, sizeof **pairs) < 0 ||
			    dcfg_reserve((void **)stack, cap_stack, depth + 1, sizeof **stack) < 0)
				return -1;
			(*stack)[depth++] = str->n_pairs;
			(*pairs)[*n_pairs] = i;
			(*pairs)[*n_pairs + 1] = NONE;
			*n_pairs += 2;
			str->n_pairs++;
			i = j;
		} else if (c == ')') {
			if (depth == 0)
				goto bad;
			(*pairs)[2 * (str->pairs + (*stack)[--depth]) + 1] = i;
		} else if (c == '<') {
			for (j = i + 1; j < len && s[j] != '>'; j++)
				if (B64(s[j]) < 0) {
					/* stop at the '<': the reference cannot be read */
					str->why = NULL;
					str->bad_char = s[j];
					str->bad = i;
					return 0;
				}
			if (j == len) {
				str->why = "a reference has no closing '>'";
				goto bad;
			}
			i = j;
		} else {
			goto bad_char;
		}
	}
	return 0;
bad_char:
	str->why = NULL;
	str->bad_char = s[i];
bad:
	str->bad = i;
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
	d->n_pool = d->n = d->n_pairs = 0;
	free(d->hash);
	d->hash = NULL;
	d->hash_size = 0;
}

void
dcfg_dict_free(struct dcfg_dict *d)
{
	free(d->pool);
	free(d->entries);
	free(d->pairs);
	free(d->hash);
	free(d->stack);
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
		if (B64(key[i]) < 0)
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

static uint32_t
dict_find(const struct dcfg_dict *d, const char *key, size_t len)
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

int
dcfg_dict_finish(struct dcfg_dict *d, const char **why, const char **key)
{
	size_t i, size;

	for (size = 16; size < 2 * d->n; size *= 2)
		;
	if ((d->hash = malloc(size * sizeof *d->hash)) == NULL) {
		*why = "is too large for memory";
		return -1;
	}
	memset(d->hash, 0xff, size * sizeof *d->hash);
	d->hash_size = size;
	for (i = 0; i < d->n; i++) {
		struct dcfg_dict_entry *e = &d->entries[i];
		size_t h;
		if (dict_find(d, d->pool + e->key, e->key_len) != NONE) {
			*why = "appears twice";
			*key = d->pool + e->key;   /* not NUL-terminated: see key_len */
			return -1;
		}
		for (h = hash_key(d->pool + e->key, e->key_len) & (size - 1);
		    d->hash[h] != NONE; h = (h + 1) & (size - 1))
			;
		d->hash[h] = (uint32_t)i;
		if (check_string(&e->str, d->pool + e->value, e->value_len, &d->pairs,
		    &d->n_pairs, &d->cap_pairs, &d->stack, &d->cap_stack) < 0) {
			*why = "is too large for memory";
			return -1;
		}
		e->active = 0;
	}
	return 0;
}

/* ---- expansion ---- */

void
dcfg_decoder_init(struct dcfg_decoder *dec)
{
	memset(dec, 0, sizeof *dec);
}

void
dcfg_decoder_free(struct dcfg_decoder *dec)
{
	free(dec->pairs);
	free(dec->stack);
	free(dec->frames);
	memset(dec, 0, sizeof *dec);
}

static int
push(struct dcfg_decoder *dec, struct dcfg_xframe f)
{
	if (dcfg_reserve((void **)&dec->frames, &dec->cap_frames, dec->n_frames + 1,
	    sizeof *dec->frames) < 0)
		return -1;
	dec->frames[dec->n_frames++] = f;
	return 0;
}

static void
set_error(struct dcfg_decoder *dec, const char *why, char c)
{
	if (why)
		snprintf(dec->error, sizeof dec->error, "%s", why);
	else if (c > ' ' && c < 127 && c != '\'')
		snprintf(dec->error, sizeof dec->error, "invalid character '%c'", c);
	else
		snprintf(dec->error, sizeof dec->error, "invalid character '\\x%02x'",
		    (unsigned char)c);
}

/* The ')' of the '(' at OPEN, or NONE when it was never reached. */
static uint32_t
closing(const struct dcfg_xframe *f, uint32_t open)
{
	const uint32_t *p = f->pairs + 2 * (size_t)f->str->pairs;
	size_t lo = 0, hi = f->str->n_pairs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[2 * mid] < open)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->str->n_pairs && p[2 * lo] == open ? p[2 * lo + 1] : NONE;
}

/*
 * The next 6-bit symbol: 0..63, -1 at the end of the string, -2 on an
 * error (in dec->error). The plain run of characters is the fast path.
 */
static int
next_symbol(struct dcfg_decoder *dec)
{
	struct dcfg_xframe *f;
	int v;

	for (;;) {
		if (dec->n_frames == 0)
			return -1;
		f = &dec->frames[dec->n_frames - 1];
		if (f->pos < f->end && f->pos != f->str->bad &&
		    (v = B64(f->str->s[f->pos])) >= 0) {
			f->pos++;
			dec->symbols++;
			return v;
		}
		if (f->pos >= f->end) {
			if (f->repeat) {
				/* A pass that read nothing reads nothing again: stop repeating. */
				if (f->left > 0 && dec->symbols > f->mark) {
					f->left--;
					f->mark = dec->symbols;
					f->pos = f->body;
					continue;
				}
				uint32_t close = f->end;
				dec->n_frames--;
				dec->frames[dec->n_frames - 1].pos = close + 1;
			} else {
				if (f->entry != NONE)
					dec->dict->entries[f->entry].active = 0;
				dec->n_frames--;
			}
			continue;
		}
		const char *s = f->str->s;
		uint32_t at = f->pos;
		if (at == f->str->bad) {
			set_error(dec, f->str->why, f->str->bad_char);
			return -2;
		}
		if (s[at] == '(') {
			uint64_t m = 0;
			uint32_t j = at + 1, close = closing(f, at);
			if (close == NONE) {
				set_error(dec, f->str->why, f->str->bad_char);
				return -2;
			}
			for (; s[j] != '*'; j++)
				m = m * 10 + (uint64_t)(s[j] - '0');
			if (m == 0) {
				f->pos = close + 1;
				continue;
			}
			struct dcfg_xframe r = { f->str, f->pairs, j + 1, close, j + 1, m - 1,
			    dec->symbols, NONE, 1 };
			if (push(dec, r) < 0)
				goto nomem;
			continue;
		}
		/* '<': a reference; check_string saw its '>' */
		uint32_t gt = at + 1;
		while (s[gt] != '>')
			gt++;
		uint32_t e = dict_find(dec->dict, s + at + 1, gt - at - 1);
		if (e == NONE || dec->dict->entries[e].active) {
			snprintf(dec->error, sizeof dec->error, "%s dictionary key \"%.*s\"",
			    e == NONE ? "unknown" : "circular reference to",
			    (int)(gt - at - 1 > 64 ? 64 : gt - at - 1), s + at + 1);
			return -2;
		}
		f->pos = gt + 1;
		struct dcfg_dict_entry *de = &dec->dict->entries[e];
		struct dcfg_xframe v2 = { &de->str, dec->dict->pairs, 0, de->str.len, 0, 0, 0, e, 0 };
		if (push(dec, v2) < 0)
			goto nomem;
		de->active = 1;
	}
nomem:
	snprintf(dec->error, sizeof dec->error, "out of memory");
	return -2;
}

int
dcfg_decoder_start(struct dcfg_decoder *dec, const struct dcfg_ttable *table,
    struct dcfg_dict *dict, uint32_t first_edge, uint64_t edge_count,
    const char *seq, size_t len)
{
	size_t i;

	/* Frames left by an earlier chunk that stopped early hold entries active. */
	for (i = 0; i < dec->n_frames; i++)
		if (dec->frames[i].entry != NONE && dec->dict)
			dec->dict->entries[dec->frames[i].entry].active = 0;
	dec->table = table;
	dec->dict = dict;
	dec->n_frames = 0;
	dec->n_pairs = 0;
	dec->acc = 0;
	dec->nbits = 0;
	dec->ended = 0;
	dec->late_error = NULL;
	dec->symbols = 0;
	dec->first = first_edge;
	dec->remaining = dec->total = edge_count;
	dec->emitted = 0;
	dec->group = NULL;
	dec->group_left = 0;
	dec->started = 0;
	dec->error[0] = '\0';
	if (len >= UINT32_MAX / 4)
		return -1;
	dec->seq.s = NULL;
	if (edge_count > 1) {
		if (check_string(&dec->seq, seq, (uint32_t)len, &dec->pairs, &dec->n_pairs,
		    &dec->cap_pairs, &dec->stack, &dec->cap_stack) < 0)
			return -1;
		struct dcfg_xframe f = { &dec->seq, dec->pairs, 0, (uint32_t)len, 0, 0, 0, NONE, 0 };
		if (push(dec, f) < 0)
			return -1;
	}
	return 0;
}

/* Tops the bit buffer up to at least 58 bits, unless the string ends first. */
static void
refill(struct dcfg_decoder *dec)
{
	int v;

	while (dec->nbits <= 57 && !dec->ended) {
		if (dec->n_frames > 0) {
			/* the common case: a run of plain characters, read directly */
			struct dcfg_xframe *f = &dec->frames[dec->n_frames - 1];
			const char *s = f->str->s;
			uint32_t stop = f->str->bad < f->end ? f->str->bad : f->end;
			while (dec->nbits <= 57 && f->pos < stop && (v = B64(s[f->pos])) >= 0) {
				dec->acc = dec->acc << 6 | (uint64_t)v;
				dec->nbits += 6;
				f->pos++;
				dec->symbols++;
			}
			if (dec->nbits > 57)
				return;
		}
		v = next_symbol(dec);
		if (v < 0) {
			dec->ended = 1;
			if (v == -2)   /* an error only if these bits are needed */
				dec->late_error = dec->error;
			return;
		}
		dec->acc = dec->acc << 6 | (uint64_t)v;
		dec->nbits += 6;
	}
}

/*
 * FMT NULL: the bits ran out, or, when the string ended at an error that
 * only now matters, that error (already in dec->error).
 */
static ssize_t
fail(struct dcfg_decoder *dec, const char *fmt, uint32_t edge)
{
	if (fmt != NULL)
		snprintf(dec->error, sizeof dec->error, fmt, edge);
	else if (dec->late_error == NULL)
		snprintf(dec->error, sizeof dec->error,
		    "the bits ran out before EDGE_COUNT edges");
	return -1;
}

/* The edge before the next one: the end of the last group, or the first edge. */
static uint32_t
last_edge(const struct dcfg_decoder *dec)
{
	return dec->group ? dec->group[-1] : dec->first;
}

/* Selects the next group from the current state; -1 with the error set. */
static int
next_group(struct dcfg_decoder *dec)
{
	const struct dcfg_ttable *t = dec->table;
	const struct dcfg_tstate *st;
	uint32_t group;
	unsigned len, avail;

	if (dec->state == DCFG_TTABLE_NONE)
		return (int)fail(dec, "no transition from edge %u", last_edge(dec));
	st = &t->states[dec->state];
	if (dec->nbits < st->k || (st->lut == DCFG_TTABLE_NONE && dec->nbits < 32))
		refill(dec);
	avail = dec->nbits;
	if (st->lut != DCFG_TTABLE_NONE) {
		unsigned k = st->k;
		uint64_t bits = avail >= k ? dec->acc >> (avail - k) : dec->acc << (k - avail);
		const struct dcfg_tentry *e = &t->lut[st->lut + (bits & ((UINT64_C(1) << k) - 1))];
		group = e->group;
		len = e->len;
	} else {
		uint64_t peek = avail >= 32 ? dec->acc >> (avail - 32) : dec->acc << (32 - avail);
		uint32_t p = (uint32_t)peek;
		const struct dcfg_tcode *c = t->codes + st->codes;
		size_t lo = 0, hi = st->n_codes;
		while (lo < hi) {   /* the last code starting at or before p */
			size_t mid = lo + (hi - lo) / 2;
			if (c[mid].value <= p)
				lo = mid + 1;
			else
				hi = mid;
		}
		group = DCFG_TTABLE_NONE;
		len = 0;
		if (lo > 0 && (c[lo - 1].len == 0 ||
		    ((p ^ c[lo - 1].value) >> (32 - c[lo - 1].len)) == 0)) {
			group = c[lo - 1].group;
			len = c[lo - 1].len;
		}
	}
	if (group == DCFG_TTABLE_NONE || len > avail) {
		/* Fewer bits than the longest code happens only at the string's end. */
		if (avail < st->k)
			return (int)fail(dec, NULL, 0);
		return (int)fail(dec, "no transition from edge %u matches the next bits",
		    last_edge(dec));
	}
	dec->nbits -= len;
	dec->group = t->ids + t->groups[group].first;
	dec->group_left = t->groups[group].count;
	dec->state = t->groups[group].next_state;
	return 0;
}

ssize_t
dcfg_decoder_next(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t max)
{
	const struct dcfg_ttable *t = dec->table;
	const struct dcfg_tstate *states = t->states;
	const struct dcfg_tentry *lut = t->lut;
	size_t n = 0, limit;
	int rc = 0;

	if (!dec->started && dec->remaining > 0 && max > 0) {
		dec->started = 1;
		ids[n++] = dec->first;
		dec->remaining--;
		dec->state = dcfg_ttable_state(t, dec->first);
	}
	limit = dec->remaining < max - n ? n + (size_t)dec->remaining : max;
	dec->remaining -= limit - n;   /* given back below if decoding fails */

	/*
	 * The hot loop keeps the decoder's state in locals, and the current
	 * state's lookup (base and width) at hand: NONE sends it the slow way.
	 */
	const uint32_t *group = dec->group, *pool = t->ids;
	uint32_t left = dec->group_left, state = dec->state;
	uint32_t base = state != DCFG_TTABLE_NONE ? states[state].lut : DCFG_TTABLE_NONE;
	unsigned k = state != DCFG_TTABLE_NONE ? states[state].k : 0;
	uint64_t acc = dec->acc;
	unsigned nbits = dec->nbits;
	while (n < limit) {
		if (left > 0) {
			ids[n++] = *group++;
			left--;
			continue;
		}
		const struct dcfg_tentry *e;
		if (base == DCFG_TTABLE_NONE || nbits < k ||
		    (e = &lut[base + ((acc >> (nbits - k)) & ((UINT64_C(1) << k) - 1))])->group ==
		    DCFG_TTABLE_NONE) {
			/* refills, binary searches and failures */
			dec->acc = acc;
			dec->nbits = nbits;
			dec->state = state;
			dec->group = group;
			dec->group_left = 0;
			if ((rc = next_group(dec)) < 0)
				break;
			acc = dec->acc;
			nbits = dec->nbits;
			state = dec->state;
			group = dec->group;
			left = dec->group_left;
			base = state != DCFG_TTABLE_NONE ? states[state].lut : DCFG_TTABLE_NONE;
			k = state != DCFG_TTABLE_NONE ? states[state].k : 0;
			continue;
		}
		nbits -= e->len;
		group = pool + e->first;
		left = e->count;
		state = e->next_state;
		base = e->next_lut;
		k = e->next_k;
	}
	if (rc < 0) {
		dec->remaining += limit - n;
	} else {
		dec->acc = acc;
		dec->nbits = nbits;
		dec->state = state;
		dec->group = group;
		dec->group_left = left;
	}
	dec->emitted = dec->total - dec->remaining;
	return rc < 0 ? -1 : (ssize_t)n;
}
