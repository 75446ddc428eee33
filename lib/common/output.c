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

void
dcfg_out_json_string(struct dcfg_output *out, const char *s)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	dcfg_out_char(out, '"');
	for (; *p; p++) {
		switch (*p) {
		case '"':  dcfg_out_str(out, "\\\""); break;
		case '\\': dcfg_out_str(out, "\\\\"); break;
		case '\n': dcfg_out_str(out, "\\n"); break;
		case '\t': dcfg_out_str(out, "\\t"); break;
		case '\r': dcfg_out_str(out, "\\r"); break;
		default:
			if (*p < 0x20) {
				dcfg_out_str(out, "\\u00");
				dcfg_out_char(out, digits[*p >> 4]);
				dcfg_out_char(out, digits[*p & 15]);
			} else {
				dcfg_out_char(out, (char)*p);
			}
		}
	}
	dcfg_out_char(out, '"');
}

void
dcfg_out_text(struct dcfg_output *out, const char *s)
{
	const char *run = s;

	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			dcfg_out_bytes(out, run, (size_t)(s - run));
			dcfg_out_char(out, '?');
			run = s + 1;
		}
	dcfg_out_bytes(out, run, (size_t)(s - run));
}

void
dcfg_out_u32le(struct dcfg_output *out, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8),
		(unsigned char)(v >> 16), (unsigned char)(v >> 24) };

	dcfg_out_bytes(out, b, 4);
}
