/*
 * The structure-aware moves (mutate.h). The JSON is cut into tokens, each
 * knowing its container and its element's index there; nothing is parsed
 * recursively, so any input (JSON or not) is safe, and an input that is
 * not JSON enough for a move falls back to byte mutation. A move is a few
 * splices: replace a range by new text or by a copy of another range.
 */
#include "mutate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutate-text.h"

#define MAX_TOKENS 70000
#define MAX_EDITS 4096

enum { T_STRING = 's', T_NUMBER = 'n', T_WORD = 'w', T_OTHER = '?' };

struct tok {
	uint32_t start, end;     /* its bytes */
	int32_t parent;          /* the open bracket it is in, or -1 */
	int32_t match;           /* a bracket's partner, or -1 */
	uint32_t elem;           /* its element's index in the parent */
	uint8_t type;            /* '{' '}' '[' ']' ',' ':' or a T_ */
	uint8_t is_key;
};

/* One splice: [a, b) of the input becomes TEXT, or the input's [src, src_end). */
struct edit {
	size_t a, b;
	const char *text;
	size_t src, src_end;
	size_t order;            /* edits at one place apply in the order made */
};

static struct tok tk[MAX_TOKENS];
static size_t ntk;
static int32_t open_stack[MAX_TOKENS];
static uint32_t open_elems[MAX_TOKENS];
static uint8_t open_key[MAX_TOKENS];
static uint32_t cand[MAX_TOKENS], first_tok[MAX_TOKENS], last_tok[MAX_TOKENS];
static struct edit edits[MAX_EDITS];
static size_t n_edits;
static uint8_t out[1 << 18];

static int
tokenize(const uint8_t *d, size_t size)
{
	size_t i = 0, depth = 0, j;

	ntk = 0;
	while (i < size) {
		uint8_t c = d[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			continue;
		}
		if (ntk == MAX_TOKENS)
			return -1;
		struct tok *t = &tk[ntk];
		t->start = (uint32_t)i;
		t->parent = depth ? open_stack[depth - 1] : -1;
		t->elem = depth ? open_elems[depth - 1] : 0;
		t->match = -1;
		t->is_key = 0;
		t->type = c;
		i++;
		if (c == '"') {
			for (j = i; j < size && d[j] != '"'; j += d[j] == '\\' ? 2 : 1)
				;
			i = j < size ? j + 1 : size;
			t->type = T_STRING;
			t->is_key = depth && open_key[depth - 1];
		} else if (strchr("-+.0123456789", c) && c) {
			while (i < size && d[i] && strchr("-+.0123456789eE", d[i]))
				i++;
			t->type = T_NUMBER;
		} else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
			while (i < size && (d[i] | 0x20) >= 'a' && (d[i] | 0x20) <= 'z')
				i++;
			t->type = T_WORD;
		} else if (c == '{' || c == '[') {
			open_stack[depth] = (int32_t)ntk;
			open_elems[depth] = 0;
			open_key[depth] = c == '{';
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth && tk[open_stack[depth - 1]].type == (c == '}' ? '{' : '[')) {
				depth--;
				t->match = open_stack[depth];
				tk[open_stack[depth]].match = (int32_t)ntk;
				t->parent = depth ? open_stack[depth - 1] : -1;
				t->elem = depth ? open_elems[depth - 1] : 0;
			}
		} else if (c == ',') {
			if (depth) {
				open_elems[depth - 1]++;
				open_key[depth - 1] = tk[open_stack[depth - 1]].type == '{';
			}
		} else if (c == ':') {
			if (depth)
				open_key[depth - 1] = 0;
		} else {
			t->type = T_OTHER;
		}
		t->end = (uint32_t)i;
		ntk++;
	}
	return 0;
}

/* The elements of container O: the first and last token of each, in first_tok/last_tok. */
static size_t
elements(uint32_t o)
{
	size_t n = 0;
	uint32_t i;

	if (tk[o].match < 0)
		return 0;
	for (i = o + 1; i < (uint32_t)tk[o].match; i++) {
		if (tk[i].parent != (int32_t)o || tk[i].type == ',' || tk[i].type == ':')
			continue;
		if (n == 0 || tk[i].elem != tk[first_tok[n - 1]].elem)
			first_tok[n++] = i;
		last_tok[n - 1] = tk[i].match > (int32_t)i ? (uint32_t)tk[i].match : i;
	}
	return n;
}

static int
str_is(const uint8_t *d, uint32_t i, const char *s)
{
	size_t len = strlen(s);

	return tk[i].type == T_STRING && tk[i].end - tk[i].start == len + 2 &&
	    memcmp(d + tk[i].start + 1, s, len) == 0;
}

/* The header string naming the column of V in its table row, or the key of V in its object. */
static int32_t
name_of(uint32_t v)
{
	int32_t p = tk[v].parent, g, h;
	uint32_t i;

	if (p < 0)
		return -1;
	if (tk[p].type == '{')
		return v >= 2 && tk[v - 1].type == ':' && tk[v - 2].is_key ? (int32_t)v - 2 : -1;
	if (tk[p].type != '[' || (g = tk[p].parent) < 0 || tk[g].type != '[' || tk[p].elem == 0)
		return -1;
	if ((h = g + 1) >= (int32_t)ntk || tk[h].type != '[' || tk[h].match < 0)
		return -1;
	for (i = (uint32_t)h + 1; i < (uint32_t)tk[h].match; i++)
		if (tk[i].parent == h && tk[i].elem == tk[v].elem)
			return tk[i].type == T_STRING ? (int32_t)i : -1;
	return -1;
}

static int
role_is(const uint8_t *d, uint32_t v, const char *name)
{
	int32_t n = name_of(v);

	return n >= 0 && str_is(d, (uint32_t)n, name);
}

/* A table: an array whose first element is an array of strings. */
static int
is_table(uint32_t a)
{
	uint32_t h = a + 1, i;

	if (tk[a].type != '[' || tk[a].match < 0 || h >= ntk || tk[h].type != '[' || tk[h].match < 0)
		return 0;
	for (i = h + 1; i < (uint32_t)tk[h].match; i++)
		if (tk[i].type != T_STRING && tk[i].type != ',')
			return 0;
	return tk[h].match > (int32_t)h + 1;
}

/* ---- picking ---- */

enum pick {
	P_NUMBER, P_STRING, P_SEQUENCE, P_CODE, P_ARRAY, P_CONTAINER, P_OBJECT, P_TABLE, P_ROW,
	P_DICT, P_KEY
};

/* A string with both its quotes: what is between them can be edited. */
static int
quoted(const uint8_t *d, uint32_t i)
{
	return tk[i].type == T_STRING && tk[i].end - tk[i].start >= 2 && d[tk[i].end - 1] == '"';
}

static int
matches(const uint8_t *d, uint32_t i, enum pick what)
{
	struct tok *t = &tk[i];

	if ((what == P_STRING || what == P_SEQUENCE || what == P_CODE || what == P_KEY) &&
	    !quoted(d, i))
		return 0;
	switch (what) {
	case P_NUMBER:
		return t->type == T_NUMBER || (t->type == T_STRING && !t->is_key &&
		    t->end - t->start > 3 && d[t->start + 1] == '0' && d[t->start + 2] == 'x');
	case P_STRING:
		return t->type == T_STRING && !t->is_key;
	case P_SEQUENCE:
		return t->type == T_STRING && !t->is_key && (role_is(d, i, "EDGE_ID_SEQUENCE") ||
		    (t->parent >= 0 && role_is(d, (uint32_t)t->parent, "STRING_DICTIONARY")));
	case P_CODE:
		return t->type == T_STRING && role_is(d, i, "TRANSITION_CODE");
	case P_ARRAY:
		return t->type == '[' && t->match > (int32_t)i + 1;
	case P_CONTAINER:
		return (t->type == '[' || t->type == '{') && t->match >= 0;
	case P_OBJECT:
		return t->type == '{' && t->match > (int32_t)i + 1;
	case P_TABLE:
		return is_table(i);
	case P_ROW:
		return t->type == '[' && t->match > (int32_t)i + 1 && t->parent >= 0 &&
		    t->elem > 0 && is_table((uint32_t)t->parent);
	case P_DICT:
		return t->type == '{' && t->match >= 0 && role_is(d, i, "STRING_DICTIONARY");
	case P_KEY:
		return t->type == T_STRING && t->is_key && t->parent >= 0 &&
		    role_is(d, (uint32_t)t->parent, "STRING_DICTIONARY");
	}
	return 0;
}

/* A random token that is WHAT, one of the first LIMIT at or after token FROM; -1 if none. */
static int32_t
pick_near(const uint8_t *d, enum pick what, uint32_t from, size_t limit)
{
	size_t n = 0;
	uint32_t i;

	for (i = from; i < ntk && n < limit; i++)
		if (matches(d, i, what))
			cand[n++] = i;
	return n ? (int32_t)cand[fz_below(n)] : -1;
}

static int32_t
pick(const uint8_t *d, enum pick what, uint32_t from)
{
	return pick_near(d, what, from, MAX_TOKENS);
}

/* The keys of every STRING_DICTIONARY, for references. */
static size_t
dict_keys(const uint8_t *d, struct fz_keys *k)
{
	uint32_t i;

	k->n = 0;
	for (i = 0; i < ntk && k->n < FZ_MAX_KEYS; i++)
		if (matches(d, i, P_KEY)) {
			k->s[k->n] = (const char *)d + tk[i].start + 1;
			k->len[k->n++] = tk[i].end - tk[i].start - 2;
		}
	return k->n;
}

/* ---- splicing ---- */

static void
edit_text(size_t a, size_t b, const char *text)
{
	if (n_edits < MAX_EDITS)
		edits[n_edits] = (struct edit){ a, b, text, 0, 0, n_edits }, n_edits++;
}

static void
edit_copy(size_t a, size_t b, size_t src, size_t src_end)
{
	if (n_edits < MAX_EDITS)
		edits[n_edits] = (struct edit){ a, b, NULL, src, src_end, n_edits }, n_edits++;
}

static int
edit_cmp(const void *x, const void *y)
{
	const struct edit *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Applies the edits (they must not overlap): the new size, or 0 when it does not fit. */
static size_t
apply(uint8_t *d, size_t size, size_t max)
{
	size_t i, at = 0, o = 0, len;

	qsort(edits, n_edits, sizeof *edits, edit_cmp);
	for (i = 0; i < n_edits; i++) {
		const struct edit *e = &edits[i];
		if (e->a < at || e->b < e->a || e->b > size)
			return n_edits = 0;
		len = e->text ? strlen(e->text) : e->src_end - e->src;
		if (o + (e->a - at) + len > sizeof out)
			return n_edits = 0;
		memcpy(out + o, d + at, e->a - at);
		o += e->a - at;
		memcpy(out + o, e->text ? (const uint8_t *)e->text : d + e->src, len);
		o += len;
		at = e->b;
	}
	n_edits = 0;
	if (o + (size - at) > max || o + (size - at) > sizeof out)
		return 0;
	memcpy(out + o, d + at, size - at);
	o += size - at;
	memcpy(d, out, o);
	return o;
}

/* ---- the moves ---- */

static size_t
mv_number(uint8_t *d, size_t size, size_t max)
{
	static char text[64];
	int32_t v = pick(d, P_NUMBER, 0), w;
	uint64_t x;

	if (v < 0)
		return 0;
	switch (fz_below(4)) {
	case 0:   /* a number from elsewhere in the file: ids that refer to each other */
		w = pick(d, P_NUMBER, 0);
		edit_copy(tk[v].start, tk[v].end, tk[w].start, tk[w].end);
		return apply(d, size, max);
	case 1:   /* one more or one less */
		x = strtoull((const char *)d + tk[v].start + (d[tk[v].start] == '"'), NULL, 0);
		snprintf(text, sizeof text, "%llu", (unsigned long long)(fz_below(2) ? x + 1 : x - 1));
		break;
	default:
		snprintf(text, sizeof text, "%s", fz_number());
	}
	edit_text(tk[v].start, tk[v].end, text);
	return apply(d, size, max);
}

static size_t
mv_string(uint8_t *d, size_t size, size_t max)
{
	int32_t v = pick(d, P_STRING, 0), w;

	if (v < 0)
		return 0;
	if (fz_below(2)) {
		edit_text(tk[v].start + 1, tk[v].end - 1, "");
	} else {   /* shared names, file names, codes */
		w = pick(d, P_STRING, 0);
		edit_copy(tk[v].start, tk[v].end, tk[w].start, tk[w].end);
	}
	return apply(d, size, max);
}

static size_t
mv_sequence(uint8_t *d, size_t size, size_t max)
{
	static struct fz_keys keys;
	static char text[1 << 16];
	int32_t v = pick(d, P_SEQUENCE, 0);

	if (v < 0)
		return 0;
	dict_keys(d, &keys);
	if (fz_seq_edit((const char *)d + tk[v].start + 1, tk[v].end - tk[v].start - 2,
	    text, sizeof text, 1, &keys) < 0)
		return 0;
	edit_text(tk[v].start + 1, tk[v].end - 1, text);
	return apply(d, size, max);
}

static size_t
mv_code(uint8_t *d, size_t size, size_t max)
{
	static char text[40];
	int32_t v = pick(d, P_CODE, 0);
	size_t len = fz_below(3) ? fz_below(5) : fz_below(34), i;

	if (v < 0)
		return 0;
	for (i = 0; i < len; i++)
		text[i] = (char)('0' + fz_below(2));
	text[len] = '\0';
	edit_text(tk[v].start + 1, tk[v].end - 1, text);
	return apply(d, size, max);
}

/* Rows and elements: duplicate, delete, swap, keep only the header, drop the last value. */
static size_t
mv_elements(uint8_t *d, size_t size, size_t max)
{
	static const char *const names[] = { "duplicate", "delete", "swap", "swap", "header-only",
	    "truncate" };
	static const enum pick where[] = { P_TABLE, P_TABLE, P_ARRAY, P_OBJECT };
	int op = (int)fz_below(6);
	enum pick w = op == 4 ? P_TABLE : op == 5 ? P_ROW : where[fz_below(4)];
	int32_t c = pick(d, w, 0);
	size_t n, k, l, rows;

	if (c < 0 || (n = elements((uint32_t)c)) == 0)
		return 0;
	/* a table's rows, not its header; two different elements to swap */
	rows = w == P_TABLE && n > 1;
	k = rows + fz_below(n - rows);
	l = n - rows > 1 ? rows + (k - rows + 1 + fz_below(n - rows - 1)) % (n - rows) : k;
	fz_moved(names[op]);
	switch (op) {
	case 0:
		edit_text(tk[last_tok[k]].end, tk[last_tok[k]].end, ", ");
		edit_copy(tk[last_tok[k]].end, tk[last_tok[k]].end, tk[first_tok[k]].start,
		    tk[last_tok[k]].end);
		break;
	case 1:
		if (n == 1)
			edit_text(tk[first_tok[0]].start, tk[last_tok[0]].end, "");
		else if (k + 1 < n)
			edit_text(tk[first_tok[k]].start, tk[first_tok[k + 1]].start, "");
		else
			edit_text(tk[last_tok[k - 1]].end, tk[last_tok[k]].end, "");
		break;
	case 2:
	case 3:
		if (k == l)
			return 0;
		edit_copy(tk[first_tok[k]].start, tk[last_tok[k]].end, tk[first_tok[l]].start,
		    tk[last_tok[l]].end);
		edit_copy(tk[first_tok[l]].start, tk[last_tok[l]].end, tk[first_tok[k]].start,
		    tk[last_tok[k]].end);
		break;
	case 4:
		edit_text(tk[last_tok[0]].end, tk[tk[c].match].start, " ");
		break;
	default:
		if (n < 2)
			return 0;
		edit_text(tk[last_tok[n - 2]].end, tk[last_tok[n - 1]].end, "");
	}
	return apply(d, size, max);
}

/* A value replaced by a copy of another of its kind: a table, a row, an object. */
static size_t
mv_splice(uint8_t *d, size_t size, size_t max)
{
	int32_t a = pick(d, P_CONTAINER, 0), b;

	if (a < 0)
		return 0;
	b = pick(d, tk[a].type == '{' ? P_OBJECT : P_ARRAY, 0);
	if (b < 0 || b == a)
		return 0;
	edit_copy(tk[a].start, tk[tk[a].match].end, tk[b].start, tk[tk[b].match].end);
	return apply(d, size, max);
}

/* Two columns of a table swapped, in the header and in every row long enough. */
static size_t
mv_columns(uint8_t *d, size_t size, size_t max)
{
	int32_t t = pick(d, P_TABLE, 0);
	size_t n, i, j, k, r;

	if (t < 0 || (n = elements((uint32_t)t + 1)) < 2)
		return 0;
	i = fz_below(n);
	if ((j = fz_below(n)) == i)
		return 0;
	if (i > j)
		k = i, i = j, j = k;
	/* the rows, found first: elements() reuses first_tok/last_tok */
	size_t n_rows = elements((uint32_t)t);
	for (r = 0; r < n_rows && r < MAX_TOKENS / 2; r++)
		cand[r] = first_tok[r];
	for (r = 0; r < n_rows && r < MAX_TOKENS / 2; r++) {
		if (tk[cand[r]].type != '[' || elements(cand[r]) <= j)
			continue;
		edit_copy(tk[first_tok[i]].start, tk[last_tok[i]].end, tk[first_tok[j]].start,
		    tk[last_tok[j]].end);
		edit_copy(tk[first_tok[j]].start, tk[last_tok[j]].end, tk[first_tok[i]].start,
		    tk[last_tok[i]].end);
	}
	return apply(d, size, max);
}

/* Dictionary entries: an empty value, a chain of references, a cycle, referred to from a sequence. */
static size_t
mv_dict(uint8_t *d, size_t size, size_t max)
{
	static char entries[1 << 13], ref[80];
	int32_t o = pick(d, P_DICT, 0), s;

	if (o < 0)
		return 0;
	fz_entries(entries, sizeof entries - 2, ref, sizeof ref, 1);
	if (entries[0] && tk[o].match > o + 1)
		strcat(entries, ", ");
	edit_text(tk[o].end, tk[o].end, entries);
	/* a sequence of the same process: one of the next few after the dictionary */
	if (ref[0] && (s = pick_near(d, P_SEQUENCE, (uint32_t)tk[o].match, 6)) >= 0) {
		size_t len = tk[s].end - tk[s].start - 2;
		size_t at = fz_below(3) == 0 ? len : fz_below(2) ? 0 : fz_below(len + 1);
		edit_text(tk[s].start + 1 + at, tk[s].start + 1 + at, ref);
	}
	return apply(d, size, max);
}

struct move {
	const char *name;
	size_t (*run)(uint8_t *d, size_t size, size_t max);
	unsigned weight[2];   /* for FUZZ_TRACE, FUZZ_DCFG */
};

static const struct move moves[] = {
	{ "number", mv_number, { 15, 30 } },
	{ "string", mv_string, { 4, 12 } },
	{ "sequence", mv_sequence, { 25, 0 } },
	{ "code", mv_code, { 5, 0 } },
	{ "elements", mv_elements, { 16, 30 } },
	{ "splice", mv_splice, { 5, 10 } },
	{ "columns", mv_columns, { 5, 5 } },
	{ "dictionary", mv_dict, { 15, 0 } },
	{ "bytes", NULL, { 10, 13 } },
};

size_t
fuzz_mutate_json(uint8_t *data, size_t size, size_t max, unsigned int seed,
    enum fuzz_shape shape)
{
	unsigned total = 0, r;
	size_t i, n, tries;

	fz_seed(seed);
	for (i = 0; i < sizeof moves / sizeof moves[0]; i++)
		total += moves[i].weight[shape];
	if (tokenize(data, size) == 0)
		for (tries = 0; tries < 4; tries++) {
			r = (unsigned)fz_below(total);
			for (i = 0; r >= moves[i].weight[shape]; i++)
				r -= moves[i].weight[shape];
			if (moves[i].run == NULL)
				break;
			n_edits = 0;
			fz_moved(moves[i].name);
			if ((n = moves[i].run(data, size, max)) > 0)
				return n;
		}
	fz_moved("bytes");
	return LLVMFuzzerMutate(data, size, max);
}
