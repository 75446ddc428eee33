/* The pieces of the text formats that every reader of lib/regions takes apart. */
#include "regions_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
dcfg_rg_by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t
dcfg_rg_split(char *line, struct dcfg_rg_tok *t)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (*p == '\0')
			return n;
		if (n < DCFG_RG_MAX_TOKENS) {
			t[n].s = p;
			t[n].col = (unsigned long)(p - line) + 1;
		}
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (n < DCFG_RG_MAX_TOKENS)
			t[n].len = (size_t)(p - t[n].s);
		n++;
	}
}

int
dcfg_rg_dec(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int
dcfg_rg_hex(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (i = 2; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		x = x << 4 | d;
	}
	*v = x;
	return 0;
}

static size_t
digits(const char *s, size_t i, size_t len)
{
	size_t j = i;

	while (j < len && s[j] >= '0' && s[j] <= '9')
		j++;
	return j - i;
}

int
dcfg_rg_real(const char *s, size_t len, double *v)
{
	char buf[64];
	size_t i = 0, n;

	/* strtod alone would take "inf", "nan", hex floats and a locale's comma */
	if (len == 0 || len >= sizeof buf)
		return -1;
	if (s[i] == '-')
		i++;
	n = digits(s, i, len);
	i += n;
	if (i < len && s[i] == '.') {
		size_t f = digits(s, i + 1, len);
		if (n == 0 && f == 0)
			return -1;
		i += 1 + f;
	} else if (n == 0) {
		return -1;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if ((n = digits(s, i, len)) == 0)
			return -1;
		i += n;
	}
	if (i != len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = strtod(buf, NULL);
	return isfinite(*v) ? 0 : -1;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *
dcfg_rg_name(const char *s, int basename)
{
	size_t n = strlen(s), i, j = 0;
	char *r = malloc(n + 1), *slash;

	if (r == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			char e = s[i + 1];
			int h, l;
			if (e == '\\' || e == 't' || e == 'n' || e == 'r') {
				r[j++] = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
				i++;
				continue;
			}
			/* \xHH, but never a NUL: that stays as it is written */
			if (e == 'x' && i + 3 < n &&
			    (h = hexval(s[i + 2])) >= 0 && (l = hexval(s[i + 3])) >= 0 && (h | l) != 0) {
				r[j++] = (char)(h << 4 | l);
				i += 3;
				continue;
			}
		}
		r[j++] = c;
	}
	r[j] = '\0';
	/* a path that ends in "/" keeps it all: an empty name would be no word */
	if (basename && (slash = strrchr(r, '/')) != NULL && slash[1] != '\0')
		memmove(r, slash + 1, strlen(slash + 1) + 1);
	return r;
}
