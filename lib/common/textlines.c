#include "textlines.h"

#include <stdlib.h>
#include <string.h>

#include "input.h"

struct dcfg_textlines {
	struct dcfg_input *in;
	char *buf;
	size_t cap, start, end;    /* unread bytes are buf[start, end) */
	int eof;
	unsigned long lineno;
};

struct dcfg_textlines *
dcfg_textlines_open(const char *path, struct dcfg_error *err)
{
	struct dcfg_textlines *t = calloc(1, sizeof *t);

	if (t == NULL) {
		dcfg_error_set(err, path, "out of memory");
		return NULL;
	}
	t->cap = 1 << 16;
	if ((t->buf = malloc(t->cap + 1)) == NULL) {
		free(t);
		dcfg_error_set(err, path, "out of memory");
		return NULL;
	}
	if ((t->in = dcfg_input_open(path, err)) == NULL) {
		free(t->buf);
		free(t);
		return NULL;
	}
	return t;
}

int
dcfg_textlines_next(struct dcfg_textlines *t, char **line, size_t *len, struct dcfg_error *err)
{
	const char *name = dcfg_input_name(t->in);
	size_t scanned = 0;
	char *nl;

	for (;;) {
		nl = memchr(t->buf + t->start + scanned, '\n', t->end - t->start - scanned);
		if (nl != NULL || (t->eof && t->end > t->start))
			break;
		if (t->eof)
			return 0;
		scanned = t->end - t->start;
		if (scanned > DCFG_TEXT_LINE_MAX)
			return dcfg_error_at(err, name, t->lineno + 1, 1,
			    "a line longer than %zu bytes", DCFG_TEXT_LINE_MAX);
		if (t->start > 0) {   /* keep the line so far at the start */
			memmove(t->buf, t->buf + t->start, scanned);
			t->start = 0;
			t->end = scanned;
		}
		if (t->end == t->cap) {
			char *b = realloc(t->buf, 2 * t->cap + 1);
			if (b == NULL)
				return dcfg_error_set(err, name, "out of memory");
			t->buf = b;
			t->cap *= 2;
		}
		ssize_t n = dcfg_input_read(t->in, t->buf + t->end, t->cap - t->end, err);
		if (n < 0)
			return -1;
		if (n == 0)
			t->eof = 1;
		t->end += (size_t)n;
	}
	*line = t->buf + t->start;
	*len = nl ? (size_t)(nl - *line) : t->end - t->start;
	t->start += *len + (nl != NULL);
	(*line)[*len] = '\0';   /* over the newline, or the byte kept free at the end */
	t->lineno++;
	if (memchr(*line, '\0', *len) != NULL)
		return dcfg_error_at(err, name, t->lineno, 1, "a NUL byte: not a text file");
	return 1;
}

unsigned long
dcfg_textlines_lineno(const struct dcfg_textlines *t)
{
	return t->lineno;
}

const char *
dcfg_textlines_name(const struct dcfg_textlines *t)
{
	return dcfg_input_name(t->in);
}

void
dcfg_textlines_close(struct dcfg_textlines *t)
{
	if (t == NULL)
		return;
	dcfg_input_close(t->in);
	free(t->buf);
	free(t);
}

int
dcfg_textlines_number(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	if (len == 0 || len > 20 || (s[0] == '0' && len > 1))
		return -1;
	for (*v = 0, i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9' || __builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, (uint64_t)(s[i] - '0'), v))
			return -1;
	return 0;
}
