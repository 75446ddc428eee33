#define _GNU_SOURCE   /* F_SETPIPE_SZ */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int
dcfg_output_open(struct dcfg_output *out, const char *path,
    struct dcfg_error *err)
{
	out->len = 0;
	out->error = 0;
	if (path == NULL || strcmp(path, "-") == 0) {
		out->fd = STDOUT_FILENO;
		out->name = "<stdout>";
#ifdef F_SETPIPE_SZ
		/* Stages move gigabytes through pipes: fewer, larger hand-overs. */
		fcntl(out->fd, F_SETPIPE_SZ, 1024 * 1024);
#endif
		return 0;
	}
	out->name = path;
	out->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (out->fd < 0)
		return dcfg_error_set(err, path, "%s", strerror(errno));
	return 0;
}

void
dcfg_output_flush(struct dcfg_output *out)
{
	size_t done = 0;
	ssize_t n;

	while (done < out->len && out->error == 0) {
		n = write(out->fd, out->buf + done, out->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			out->error = errno;
		else
			done += (size_t)n;
	}
	out->len = 0;
}

int
dcfg_output_close(struct dcfg_output *out, struct dcfg_error *err)
{
	dcfg_output_flush(out);
	if (out->fd != STDOUT_FILENO && close(out->fd) < 0 && out->error == 0)
		out->error = errno;
	if (out->error == 0 || out->error == EPIPE)
		return 0;
	return dcfg_error_set(err, out->name, "write error: %s", strerror(out->error));
}

void
dcfg_out_bytes_slow(struct dcfg_output *out, const void *p, size_t n)
{
	const char *s = p;
	size_t room;

	while (n > 0) {
		if (out->len == sizeof out->buf)
			dcfg_output_flush(out);
		room = sizeof out->buf - out->len;
		if (room > n)
			room = n;
		memcpy(out->buf + out->len, s, room);
		out->len += room;
		s += room;
		n -= room;
	}
}

void
dcfg_out_str(struct dcfg_output *out, const char *s)
{
	dcfg_out_bytes(out, s, strlen(s));
}

void
dcfg_out_u64(struct dcfg_output *out, uint64_t v)
{
	char tmp[20];
	int i = sizeof tmp;

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	dcfg_out_bytes(out, tmp + i, sizeof tmp - (size_t)i);
}

void
dcfg_out_hex(struct dcfg_output *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[18];
	int i = sizeof tmp;

	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v > 0);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	dcfg_out_bytes(out, tmp + i, sizeof tmp - (size_t)i);
}

static void
out_json_u(struct dcfg_output *out, unsigned c)
{
	static const char digits[] = "0123456789abcdef";

	dcfg_out_str(out, "\\u00");
	dcfg_out_char(out, digits[c >> 4 & 15]);
	dcfg_out_char(out, digits[c & 15]);
}

/*
 * Every control character (C0, DEL, C1) as \uXXXX, so that none reaches a
 * terminal from a JSON document; a byte that is not valid UTF-8, which
 * JSON cannot hold, as U+FFFD, as every UTF-8 decoder reads it.
 */
void
dcfg_out_json_string(struct dcfg_output *out, const char *s)
{
	const unsigned char *p;
	size_t k, i;

	dcfg_out_char(out, '"');
	for (;;) {
		k = dcfg_escape_kept(s);
		for (i = 0; i < k; i++) {
			if (s[i] == '"')
				dcfg_out_char(out, '\\');
			dcfg_out_char(out, s[i]);
		}
		p = (const unsigned char *)(s += k);
		if (*p == '\0')
			break;
		switch (*p) {
		case '\\': dcfg_out_str(out, "\\\\"); break;
		case '\n': dcfg_out_str(out, "\\n"); break;
		case '\t': dcfg_out_str(out, "\\t"); break;
		case '\r': dcfg_out_str(out, "\\r"); break;
		default:
			if (*p < 0x80) {
				out_json_u(out, *p);
			} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
				out_json_u(out, p[1]);
				s++;
			} else {
				dcfg_out_str(out, "\\ufffd");
			}
		}
		s++;
	}
	dcfg_out_char(out, '"');
}

/*
 * The length of the valid UTF-8 character at P (2 to 4 bytes), or 0 when
 * P does not start one, or starts a C1 control, which terminals obey.
 */
static size_t
utf8_kept(const unsigned char *p)
{
	size_t n, i;
	uint32_t c;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07u;
	else
		return 0;
	/* The NUL that ends the string is no continuation byte: no read past it. */
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3fu);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff) || c <= 0x9f)
		return 0;
	return n;
}

size_t
dcfg_escape_kept(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	for (;;) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			p++;
		else if (*p >= 0x80 && (k = utf8_kept(p)) > 0)
			p += k;
		else
			return (size_t)(p - (const unsigned char *)s);
	}
}

/* The escape of byte C, which dcfg_escape_kept does not keep, into E: its length. */
static size_t
escape_byte(unsigned char c, char e[4])
{
	static const char digits[] = "0123456789abcdef";

	e[0] = '\\';
	switch (c) {
	case '\\': e[1] = '\\'; return 2;
	case '\t': e[1] = 't'; return 2;
	case '\n': e[1] = 'n'; return 2;
	case '\r': e[1] = 'r'; return 2;
	}
	e[1] = 'x';
	e[2] = digits[c >> 4];
	e[3] = digits[c & 15];
	return 4;
}

void
dcfg_out_escaped(struct dcfg_output *out, const char *s)
{
	char e[4];
	size_t k;

	for (;;) {
		k = dcfg_escape_kept(s);
		dcfg_out_bytes(out, s, k);
		s += k;
		if (*s == '\0')
			return;
		dcfg_out_bytes(out, e, escape_byte((unsigned char)*s++, e));
	}
}

static size_t
escape_into(char *buf, size_t size, const char *s, int keep_backslash)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = 0, done = 0, n;
	const char *unit;
	char e[4];

	/* Unit by unit (a byte, a UTF-8 character, an escape): never cut one in two. */
	while (*p) {
		if (*p >= 0x20 && *p < 0x7f && (*p != '\\' || keep_backslash))
			unit = (const char *)p, n = 1;
		else if (*p >= 0x80 && (n = utf8_kept(p)) > 0)
			unit = (const char *)p;
		else
			unit = e, n = escape_byte(*p, e);
		p += unit == e ? 1 : n;
		if (done == len && len + n < size) {
			memcpy(buf + len, unit, n);
			done += n;
		}
		len += n;
	}
	if (size > 0)
		buf[done] = '\0';
	return len;
}

size_t
dcfg_escape(char *buf, size_t size, const char *s)
{
	return escape_into(buf, size, s, 0);
}

size_t
dcfg_escape_message(char *buf, size_t size, const char *s)
{
	return escape_into(buf, size, s, 1);
}

void
dcfg_out_u32le(struct dcfg_output *out, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8),
		(unsigned char)(v >> 16), (unsigned char)(v >> 24) };

	dcfg_out_bytes(out, b, 4);
}
