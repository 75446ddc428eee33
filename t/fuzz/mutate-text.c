/* Sequence strings and dictionary entries for the moves, and the sequence target's moves. */
#include "mutate.h"
#include "mutate-text.h"

#include <stdio.h>
#include <string.h>

static uint64_t rng;
static const char *last_move = "none";

void
fz_seed(unsigned int seed)
{
	rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
}

uint64_t
fz_rand(void)
{
	uint64_t z = (rng += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

size_t
fz_below(size_t n)
{
	return n ? (size_t)(fz_rand() % n) : 0;
}

void
fz_moved(const char *name)
{
	last_move = name;
}

const char *
fuzz_mutate_last(void)
{
	return last_move;
}

#define PICK(a) ((a)[fz_below(sizeof (a) / sizeof (a)[0])])

const char *
fz_number(void)
{
	static const char *const n[] = {
		"0", "1", "2", "3", "-1", "255", "65535", "2147483647", "\"0x7fffffff\"",
		"2147483648", "4294967295", "4294967296", "\"0x100000000\"",
		"4611686018427387904", "9223372036854775807", "9223372036854775808",
		"18446744073709551615", "\"0xffffffffffffffff\"", "18446744073709551616",
		"99999999999999999999999999999", "\"0x0\"", "-0", "1e3", "0.5",
	};
	return PICK(n);
}

static const char *const counts[] = {
	"0", "1", "2", "3", "9", "64", "1000", "65536", "4294967296",
	"18446744073709551615", "18446744073709551616", "99999999999999999999",
};

/* Appends N bytes of S to OUT (*O used of CAP, one kept for the NUL); -1 when full. */
static int
put(char *out, size_t cap, size_t *o, const char *s, size_t n)
{
	if (*o + n >= cap)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
	return 0;
}

static int
puts0(char *out, size_t cap, size_t *o, const char *s)
{
	return put(out, cap, o, s, strlen(s));
}

/* A new key: 1 to 3 Base64 characters, or none at all. */
static void
new_key(char *k)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
	size_t n = fz_below(8) ? 1 + fz_below(3) : 0, i;

	for (i = 0; i < n; i++)
		k[i] = b64[fz_below(64)];
	k[n] = '\0';
}

static const char *
invalid(int json)
{
	static const char *const j[] = {
		"=", "!", "*", ".", ",", "/", " ", "_", "~", "#", "{", "}", "[", "]", ":",
		"\\\"", "\\\\", "\\u0000", "\\n", "\\u00e9", "?", "(", ")", "<", ">", "(*", "(1",
	};
	static const char *const r[] = {
		"=", "!", "*", ".", ",", "/", " ", "_", "~", "#", "\"", "\\", "\x80", "\xff",
		"?", "(", ")", "<", ">", "(*", "(1", "<>", "\t",
	};
	return json ? PICK(j) : PICK(r);
}

int
fz_seq_edit(const char *s, size_t len, char *out, size_t cap, int json,
    const struct fz_keys *keys)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
	size_t i = fz_below(len + 1), j = i + fz_below(len - i + 1), o = 0, k;
	char mid[128], key[4];
	int rc = 0;

	mid[0] = '\0';
	switch (fz_below(8)) {
	case 0:   /* a repeat around [i, j) */
		fz_moved("repeat");
		rc |= put(out, cap, &o, s, i);
		snprintf(mid, sizeof mid, "(%s*", PICK(counts));
		rc |= puts0(out, cap, &o, mid);
		rc |= put(out, cap, &o, s + i, j - i);
		rc |= puts0(out, cap, &o, ")");
		rc |= put(out, cap, &o, s + j, len - j);
		return rc ? -1 : (int)o;
	case 1:   /* a reference */
		fz_moved("reference");
		if (keys && keys->n && fz_below(4)) {
			k = fz_below(keys->n);
			snprintf(mid, sizeof mid, "<%.*s>", (int)(keys->len[k] > 100 ? 100 : keys->len[k]),
			    keys->s[k]);
		} else {
			new_key(key);
			snprintf(mid, sizeof mid, "<%s>", key);
		}
		j = i;
		break;
	case 2:
		fz_moved("invalid-character");
		snprintf(mid, sizeof mid, "%s", invalid(json));
		j = i;
		break;
	case 3:   /* new bits */
		fz_moved("bits");
		for (k = 0, j = 1 + fz_below(8); k < j; k++)
			mid[k] = b64[fz_below(64)];
		mid[k] = '\0';
		j = i;
		break;
	case 4:   /* a part deleted */
		fz_moved("cut");
		break;
	case 5:   /* a part repeated in place */
		fz_moved("double");
		rc |= put(out, cap, &o, s, j);
		rc |= put(out, cap, &o, s + i, len - i);
		return rc ? -1 : (int)o;
	case 6:   /* a repeat of nothing, or of a count of zero */
		fz_moved("empty-repeat");
		snprintf(mid, sizeof mid, fz_below(2) ? "(%s*)" : "(%s*A)", PICK(counts));
		j = i;
		break;
	default:  /* a fault after the last bit any chunk needs */
		fz_moved("late-fault");
		i = j = len;
		if (fz_below(2)) {
			snprintf(mid, sizeof mid, "%s", invalid(json));
		} else {
			new_key(key);
			snprintf(mid, sizeof mid, "<Zz%s>", key);
		}
	}
	rc |= put(out, cap, &o, s, i);
	rc |= puts0(out, cap, &o, mid);
	rc |= put(out, cap, &o, s + j, len - j);
	return rc ? -1 : (int)o;
}

/* Appends the entry KEY: VALUE, in JSON or as a line. */
static void
entry(char *out, size_t cap, size_t *o, const char *key, const char *value, int json)
{
	char buf[256];

	if (json)
		snprintf(buf, sizeof buf, "%s\"%s\": \"%s\"", *o ? ", " : "", key, value);
	else
		snprintf(buf, sizeof buf, "%s=%s\n", key, value);
	puts0(out, cap, o, buf);
}

void
fz_entries(char *entries, size_t cap, char *ref, size_t ref_cap, int json)
{
	static const char *const bases[] = { "", "", "A", "(3*)", "(0*B)" };
	char key[32], prev[32], value[96];
	char l = (char)('a' + fz_below(26));
	size_t o = 0, n, i;
	int link;

	entries[0] = ref[0] = '\0';
	switch (fz_below(8)) {
	case 0:
	case 1:   /* an empty value */
		fz_moved("empty-value");
		snprintf(key, sizeof key, "E%c", l);
		entry(entries, cap, &o, key, "", json);
		if (fz_below(2))
			snprintf(ref, ref_cap, "<%s>", key);
		break;
	case 2: case 3: case 4: case 5:   /* a chain: each key doubles the one before */
		fz_moved("chain");
		n = 1 + fz_below(64);
		link = (int)fz_below(3);
		for (i = 0; i <= n; i++) {
			snprintf(key, sizeof key, "Q%c%zu", l, i);
			if (i == 0)
				snprintf(value, sizeof value, "%s", PICK(bases));
			else
				snprintf(value, sizeof value, link == 0 ? "<%s><%s>" :
				    link == 1 ? "(2*<%s>)" : "<%s>", prev, prev);
			entry(entries, cap, &o, key, value, json);
			memcpy(prev, key, sizeof prev);
		}
		snprintf(ref, ref_cap, "<%s>", prev);
		break;
	case 6:   /* a cycle of one to three keys */
		fz_moved("cycle");
		n = 1 + fz_below(3);
		for (i = 0; i < n; i++) {
			snprintf(key, sizeof key, "C%c%zu", l, i);
			snprintf(value, sizeof value, "%s<C%c%zu>", fz_below(2) ? "A" : "", l, (i + 1) % n);
			entry(entries, cap, &o, key, value, json);
		}
		snprintf(ref, ref_cap, "<C%c0>", l);
		break;
	default:  /* a key that is not there */
		fz_moved("unknown-key");
		snprintf(ref, ref_cap, "<U%c>", l);
	}
}

/* ---- the sequence target's input ---- */

static char seq_out[1 << 17];

size_t
fuzz_mutate_sequence(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	static const char *const totals[] = {
		"0", "1", "2", "3", "4", "5", "7", "8", "13", "64", "65", "100", "1000", "4096",
		"99999", "100000", "100001", "4294967296", "18446744073709551615",
	};
	static struct fz_keys keys;
	static char text[1 << 16], entries[1 << 13], ref[80];
	const char *s = (const char *)data, *nl;
	size_t body = 0, seq = 0, o = 0, i, k, n_lines = 0, line[2] = { 0, 0 };
	int rc = 0, len;

	fz_seed(seed);
	if (size > 0 && s[0] == '#')
		body = (nl = memchr(s, '\n', size)) ? (size_t)(nl - s) + 1 : size;
	seq = body;
	keys.n = 0;
	for (i = body; i < size; i++)
		if (s[i] == '\n') {
			const char *eq = memchr(s + seq, '=', i - seq);
			if (eq && keys.n < FZ_MAX_KEYS) {
				keys.s[keys.n] = s + seq;
				keys.len[keys.n++] = (size_t)(eq - (s + seq));
			}
			if (fz_below(++n_lines) == 0)
				line[0] = seq, line[1] = i + 1;   /* a random whole line */
			seq = i + 1;
		}
	/* without dictionary lines, the moves on lines make new ones instead */
	switch ((k = fz_below(7)) >= 6 && n_lines == 0 ? 4 : k == 3 && n_lines == 0 ? 5 : k) {
	case 0:   /* EDGE_COUNT and the first edge */
		fz_moved("count");
		if (fz_below(2))
			snprintf(text, sizeof text, "#%s %zu\n", PICK(totals), 1 + fz_below(3));
		else
			snprintf(text, sizeof text, "#%zu %zu\n", fz_below(2) ? fz_below(10) :
			    fz_below(300), 1 + fz_below(3));
		rc |= puts0(seq_out, sizeof seq_out, &o, text);
		rc |= put(seq_out, sizeof seq_out, &o, s + body, size - body);
		break;
	case 1:
	case 2:   /* the sequence */
		if ((len = fz_seq_edit(s + seq, size - seq, text, sizeof text, 0, &keys)) < 0)
			break;
		rc |= put(seq_out, sizeof seq_out, &o, s, seq);
		rc |= put(seq_out, sizeof seq_out, &o, text, (size_t)len);
		break;
	case 3:   /* a dictionary line */
		if (n_lines == 0 || (len = fz_seq_edit(s + line[0], line[1] - 1 - line[0], text,
		    sizeof text, 0, &keys)) < 0)
			break;
		rc |= put(seq_out, sizeof seq_out, &o, s, line[0]);
		rc |= put(seq_out, sizeof seq_out, &o, text, (size_t)len);
		rc |= put(seq_out, sizeof seq_out, &o, s + line[1] - 1, size - (line[1] - 1));
		break;
	case 4:
	case 5:   /* new entries, read from the sequence */
		fz_entries(entries, sizeof entries, ref, sizeof ref, 0);
		i = fz_below(4) == 0 ? size : fz_below(2) ? seq : seq + fz_below(size - seq + 1);
		rc |= put(seq_out, sizeof seq_out, &o, s, body);
		rc |= puts0(seq_out, sizeof seq_out, &o, entries);
		rc |= put(seq_out, sizeof seq_out, &o, s + body, i - body);
		rc |= puts0(seq_out, sizeof seq_out, &o, ref);
		rc |= put(seq_out, sizeof seq_out, &o, s + i, size - i);
		break;
	default:  /* a line doubled or deleted */
		if (n_lines == 0)
			break;
		if (fz_below(2)) {
			fz_moved("double-line");
			rc |= put(seq_out, sizeof seq_out, &o, s, line[1]);
			rc |= put(seq_out, sizeof seq_out, &o, s + line[0], size - line[0]);
		} else {
			fz_moved("delete-line");
			rc |= put(seq_out, sizeof seq_out, &o, s, line[0]);
			rc |= put(seq_out, sizeof seq_out, &o, s + line[1], size - line[1]);
		}
		break;
	}
	if (rc || o == 0 || o > max) {
		fz_moved("bytes");
		return LLVMFuzzerMutate(data, size, max);
	}
	memcpy(data, seq_out, o);
	return o;
}
