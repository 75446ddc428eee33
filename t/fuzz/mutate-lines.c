/*
 * Moves for line-oriented text (the regions target's profile, simpoints,
 * weights and labels, joined by "%%" lines): whole lines deleted,
 * duplicated, swapped or moved into another part; numbers (decimal and
 * 0x...) set to boundaries or to another number of the input (a slice
 * count that becomes a slice index is where off-by-ones hide); blanks
 * changed; a word replaced by a name that must be escaped; a line cut
 * short. One move in four is libFuzzer's byte mutation.
 */
#include "mutate.h"
#include "mutate-text.h"

#include <stdio.h>
#include <string.h>

#define MAX_LINES 4096

static const uint8_t *line_at[MAX_LINES + 1];
static size_t n_lines;

/* The starts of the lines of D (and the end, as line n_lines). */
static void
lines(const uint8_t *d, size_t size)
{
	size_t i;

	n_lines = 0;
	line_at[n_lines++] = d;
	for (i = 0; i < size && n_lines < MAX_LINES; i++)
		if (d[i] == '\n' && i + 1 < size)
			line_at[n_lines++] = d + i + 1;
	line_at[n_lines] = d + size;
}

static size_t
line_len(size_t k)
{
	return (size_t)(line_at[k + 1] - line_at[k]);
}

/* D with [A, B) replaced by the N bytes of S, within MAX: the new size. */
static size_t
splice(uint8_t *d, size_t size, size_t max, size_t a, size_t b, const void *s, size_t n)
{
	static uint8_t tmp[1 << 17];

	if (size - (b - a) + n > max || n > sizeof tmp)
		return size;
	memcpy(tmp, s, n);
	memmove(d + a + n, d + b, size - b);
	memcpy(d + a, tmp, n);
	return size - (b - a) + n;
}

static size_t
mv_lines(uint8_t *d, size_t size, size_t max)
{
	static uint8_t copy[1 << 16];
	size_t k = fz_below(n_lines), j = fz_below(n_lines), a, b, n, c;

	a = (size_t)(line_at[k] - d);
	b = a + line_len(k);
	n = line_len(k);
	if (n > sizeof copy)
		return size;
	memcpy(copy, line_at[k], n);
	switch (fz_below(3)) {
	case 0:
		fz_moved("line-deleted");
		return splice(d, size, max, a, b, "", 0);
	case 1:
		fz_moved("line-duplicated");
		return splice(d, size, max, a, a, copy, n);
	default:
		/* moved before line J: into another part when J is past a "%%" */
		fz_moved("line-moved");
		c = (size_t)(line_at[j] - d);
		size = splice(d, size, max, a, b, "", 0);
		if (c >= b)
			c -= n;
		else if (c > a)
			c = a;
		return splice(d, size, max, c, c, copy, n);
	}
}

static int
digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

static size_t
mv_number(uint8_t *d, size_t size, size_t max)
{
	static const char *const bound[] = {
		"0", "1", "2", "3", "4", "5", "6", "9", "10", "2147483647", "2147483648",
		"4294967295", "4294967296", "4611686018427387904", "9223372036854775807",
		"18446744073709551615", "18446744073709551616", "99999999999999999999999",
		"0x0", "0x1", "0xffffffffffffffff", "0x10000000000000000", "1e-05", "0.5",
		"1.0", "-1", "",
	};
	size_t at[256], n = 0, i, a, b, c;
	char other[32];
	const char *s = other;

	for (i = 0; i < size && n < 256; i++)
		if (digit(d[i]) && (i == 0 || !digit(d[i - 1])) && (i == 0 || d[i - 1] != 'x'))
			at[n++] = i;
	if (n == 0)
		return size;
	a = at[fz_below(n)];
	for (b = a; b < size && (digit(d[b]) || d[b] == 'x' || (d[b] >= 'a' && d[b] <= 'f')); b++)
		;
	if (fz_below(2)) {
		s = bound[fz_below(sizeof bound / sizeof bound[0])];
		fz_moved("number-boundary");
	} else {
		/* another number of the input, or it plus or minus one */
		c = at[fz_below(n)];
		for (i = 0; c + i < size && digit(d[c + i]) && i < 20; i++)
			other[i] = (char)d[c + i];
		other[i] = '\0';
		if (i > 0 && i < 19 && fz_below(2)) {
			unsigned long long v = 0;
			sscanf(other, "%llu", &v);
			snprintf(other, sizeof other, "%llu", fz_below(2) ? v + 1 : v - (v > 0));
		}
		fz_moved("number-other");
	}
	return splice(d, size, max, a, b, s, strlen(s));
}

static size_t
mv_blank(uint8_t *d, size_t size, size_t max)
{
	static const char *const blanks[] = { "", "  ", "\t", " \t ", "\r", " :", ":", "\n" };
	size_t at[256], n = 0, i, a, b = fz_below(sizeof blanks / sizeof blanks[0]);

	for (i = 0; i < size && n < 256; i++)
		if (d[i] == ' ' || d[i] == ':' || d[i] == '\t')
			at[n++] = i;
	if (n == 0)
		return size;
	a = at[fz_below(n)];
	fz_moved("blank");
	return splice(d, size, max, a, a + 1, blanks[b], strlen(blanks[b]));
}

static size_t
mv_name(uint8_t *d, size_t size, size_t max)
{
	static const char *const names[] = {
		"/lib/a\\x20b,c.so", "a\\\\b", "\\x00", "\\x", "\\", "x\\te\\n", "/", "a/",
		"\xc2\xa0", "\xe3\x80\x80", "\xff\xfe", "no_image", "#", "+", "Unknown:0",
		"/p/x.c:1,2", "\x1b[31m",
	};
	size_t at[256], n = 0, i, a, b;

	for (i = 0; i < size && n < 256; i++)
		if ((d[i] == '/' || d[i] == '#') && (i == 0 || d[i - 1] == ' '))
			at[n++] = i;
	if (n == 0)
		return size;
	a = at[fz_below(n)];
	for (b = a; b < size && d[b] != ' ' && d[b] != '\n'; b++)
		;
	fz_moved("name");
	i = fz_below(sizeof names / sizeof names[0]);
	return splice(d, size, max, a, b, names[i], strlen(names[i]));
}

static size_t
mv_cut(uint8_t *d, size_t size, size_t max)
{
	size_t k = fz_below(n_lines), a = (size_t)(line_at[k] - d), n = line_len(k), c;

	if (n < 2)
		return size;
	c = a + 1 + fz_below(n - 1);
	fz_moved("cut");
	return splice(d, size, max, c, a + n - (d[a + n - 1] == '\n'), "", 0);
}

size_t
fuzz_mutate_lines(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	fz_seed(seed);
	if (size == 0 || fz_below(4) == 0) {
		fz_moved("bytes");
		return LLVMFuzzerMutate(data, size, max);
	}
	lines(data, size);
	switch (fz_below(5)) {
	case 0: return mv_lines(data, size, max);
	case 1: return mv_number(data, size, max);
	case 2: return mv_blank(data, size, max);
	case 3: return mv_name(data, size, max);
	default: return mv_cut(data, size, max);
	}
}
