#include "suggest.h"

#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "vec.h"

/* Names this much longer than the query are not compared letter by letter. */
#define FAR_BEYOND 4096

static unsigned char
fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

void
dcfg_suggest_init(struct dcfg_suggest *s, const char *query)
{
	memset(s, 0, sizeof *s);
	s->query = query;
	s->query_len = strlen(query);
	s->escaped = strchr(query, '\\') != NULL;
	s->limit = s->query_len / 3 > 1 ? s->query_len / 3 : 1;
}

void
dcfg_suggest_free(struct dcfg_suggest *s)
{
	free(s->row);
	s->row = NULL;
	s->cap = 0;
}

/*
 * The optimal string alignment distance of A (the query) and B, letters
 * folded when FOLDED: three rows of len(B) + 1, the last two kept for swaps.
 */
static size_t
distance(const struct dcfg_suggest *s, const char *b, size_t nb, int folded)
{
	const unsigned char *x = (const unsigned char *)s->query, *y = (const unsigned char *)b;
	size_t *prev2 = s->row, *prev = s->row + nb + 1, *cur = s->row + 2 * (nb + 1), *t;
	size_t i, j, na = s->query_len;

	for (j = 0; j <= nb; j++)
		prev[j] = j;
	for (i = 1; i <= na; i++) {
		cur[0] = i;
		for (j = 1; j <= nb; j++) {
			unsigned char a = folded ? fold(x[i - 1]) : x[i - 1];
			unsigned char c = folded ? fold(y[j - 1]) : y[j - 1];
			size_t v = prev[j - 1] + (a != c);
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a == (folded ? fold(y[j - 2]) : y[j - 2]) &&
			    (folded ? fold(x[i - 2]) : x[i - 2]) == c && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb];
}

/* Does NAME hold the query, letters folded? */
static int
holds(const struct dcfg_suggest *s, const char *name, size_t len)
{
	size_t i, k;

	if (s->query_len < 3 || len < s->query_len)
		return 0;
	for (i = 0; i + s->query_len <= len; i++) {
		for (k = 0; k < s->query_len &&
		    fold((unsigned char)name[i + k]) == fold((unsigned char)s->query[k]); k++)
			;
		if (k == s->query_len)
			return 1;
	}
	return 0;
}

/* Is the candidate (F, E, NAME) before the kept suggestion I? */
static int
before(const struct dcfg_suggest *s, size_t f, size_t e, const char *name, size_t i)
{
	if (f != s->folded[i])
		return f < s->folded[i];
	if (e != s->exact[i])
		return e < s->exact[i];
	return strcmp(name, s->best[i]) < 0;
}

/* The distances of NAME's first LEN bytes: 0, or -1 when far (or out of memory: *OOM). */
static int
score(struct dcfg_suggest *s, const char *name, size_t len, size_t *f, size_t *e, int *oom)
{
	if (len > s->query_len + FAR_BEYOND || len == 0)
		return -1;
	if (dcfg_reserve((void **)&s->row, &s->cap, 3 * (len + 1), sizeof *s->row) < 0) {
		*oom = 1;
		return -1;
	}
	*f = distance(s, name, len, 1);
	if (*f > s->limit && !holds(s, name, len))
		return -1;
	*e = distance(s, name, len, 0);
	return 0;
}

/* The closer of TEXT's first LEN bytes and its first PART: 0 with *F and *E, or -1 when far. */
static int
closest(struct dcfg_suggest *s, const char *text, size_t len, size_t part, size_t *f,
    size_t *e, int *oom)
{
	size_t pf, pe;
	int whole = score(s, text, len, f, e, oom) == 0;

	if (part < len && score(s, text, part, &pf, &pe, oom) == 0 &&
	    (!whole || pf < *f || (pf == *f && pe < *e))) {
		*f = pf;
		*e = pe;
		whole = 1;
	}
	return whole ? 0 : -1;
}

/* The same for NAME as the tables write it (dcfg_escape), for a query typed so. */
static int
closest_escaped(struct dcfg_suggest *s, const char *name, size_t part, size_t *f, size_t *e,
    int *oom)
{
	size_t len = dcfg_escape(NULL, 0, name), shown_part = len;
	char *shown = malloc(len + 1), *head = NULL;
	int rc = -1;

	if (shown == NULL || (part < strlen(name) && (head = strndup(name, part)) == NULL)) {
		*oom = 1;
	} else {
		dcfg_escape(shown, len + 1, name);
		if (head)
			shown_part = dcfg_escape(NULL, 0, head);
		rc = closest(s, shown, len, shown_part, f, e, oom);
	}
	free(shown);
	free(head);
	return rc;
}

int
dcfg_suggest_add(struct dcfg_suggest *s, const char *name, size_t part)
{
	size_t len = strlen(name), f, e, ef, ee, i, at;
	int oom = 0, whole;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->best[i], name) == 0)
			return 0;
	whole = closest(s, name, len, part, &f, &e, &oom) == 0;
	if (s->escaped && closest_escaped(s, name, part, &ef, &ee, &oom) == 0 &&
	    (!whole || ef < f || (ef == f && ee < e))) {
		f = ef;
		e = ee;
		whole = 1;
	}
	if (oom)
		return -1;
	if (!whole)
		return 0;
	for (at = s->n; at > 0 && before(s, f, e, name, at - 1); at--)
		;
	if (at == DCFG_SUGGEST_MAX)
		return 0;
	if (s->n < DCFG_SUGGEST_MAX)
		s->n++;
	for (i = s->n - 1; i > at; i--) {
		s->best[i] = s->best[i - 1];
		s->folded[i] = s->folded[i - 1];
		s->exact[i] = s->exact[i - 1];
	}
	s->best[at] = name;
	s->folded[at] = f;
	s->exact[at] = e;
	return 0;
}

void
dcfg_suggest_format(const struct dcfg_suggest *s, char *buf, size_t size)
{
	static const char head[] = "; did you mean: ", more[] = "...?";
	size_t at = 0, i, need;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (s->n == 0 || size < sizeof head + sizeof more)
		return;
	memcpy(buf, head, sizeof head);
	at = sizeof head - 1;
	for (i = 0; i < s->n; i++) {
		size_t sep = i > 0 ? 2 : 0;
		need = dcfg_escape(NULL, 0, s->best[i]);
		/* room for this name, its separator, and "...?" or "?" after it */
		if (at + sep + need + sizeof more > size) {
			memcpy(buf + at, more, sizeof more);
			return;
		}
		if (sep)
			memcpy(buf + at, ", ", 2);
		at += sep;
		at += dcfg_escape(buf + at, size - at, s->best[i]);
	}
	memcpy(buf + at, "?", 2);
}
