#define _GNU_SOURCE   /* F_SETPIPE_SZ */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "descriptor.h"
#include "digits.h"
#include "tempfiles.h"

/*
 * DIR/.NAME.XXXXXX for TARGET, for mkstemp: hidden, and beside the file
 * so that the rename stays on one file system. NULL when out of memory.
 */
static char *
temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
	size_t base_len = strlen(target + dir_len);
	char *tmp;

	/* room for ".", ".XXXXXX" and a name near NAME_MAX */
	if (base_len > 200)
		base_len = 200;
	if ((tmp = malloc(dir_len + base_len + 9)) == NULL)
		return NULL;
	memcpy(tmp, target, dir_len);
	tmp[dir_len] = '.';
	memcpy(tmp + dir_len + 1, target + dir_len, base_len);
	memcpy(tmp + dir_len + 1 + base_len, ".XXXXXX", 8);
	return tmp;
}

/* A temporary for TARGET, made as open(TARGET, O_CREAT | O_TRUNC) would make the file. */
static int
open_temp(struct dcfg_output *out, const char *path, struct dcfg_error *err)
{
	struct stat st;
	sigset_t saved;
	mode_t mode, mask;
	int exists = stat(out->target, &st) == 0, saved_errno;

	/* A read-only file is not replaced behind its owner's back: open(2) would refuse it too. */
	if (exists && access(out->target, W_OK) < 0)
		return dcfg_error_set(err, path, "%s", strerror(errno));
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if ((out->tmp = temp_name(out->target)) == NULL)
		return dcfg_error_set(err, path, "out of memory");
	/* made and recorded as one step, so that no signal can come between */
	dcfg_temp_hold_signals(&saved);
	out->fd = mkstemp(out->tmp);
	saved_errno = errno;
	if (out->fd >= 0)
		out->tmp_slot = dcfg_temp_add(out->tmp);
	dcfg_temp_release_signals(&saved);
	if (out->fd < 0) {
		free(out->tmp);
		out->tmp = NULL;
		return dcfg_error_set(err, path, "%s", strerror(saved_errno));
	}
	if (fchmod(out->fd, mode) < 0) {
		saved_errno = errno;
		dcfg_output_discard(out);
		return dcfg_error_set(err, path, "%s", strerror(saved_errno));
	}
	return 0;
}

int
dcfg_output_open(struct dcfg_output *out, const char *path,
    struct dcfg_error *err)
{
	struct stat st;
	int found, fd;

	out->len = 0;
	out->flushed = 0;
	out->error = 0;
	out->target = NULL;
	out->tmp = NULL;
	out->tmp_slot = -1;
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
	found = stat(path, &st) == 0;
	if ((fd = dcfg_output_descriptor(path, found ? &st : NULL, err)) == -2)
		return -1;
	if (fd >= 0) {
		if ((out->fd = dup(fd)) < 0)
			return dcfg_error_set(err, path, "%s", strerror(errno));
		return 0;
	}
	/* A symbolic link stays one: the file it names is replaced. */
	found = lstat(path, &st) == 0;
	if (found && S_ISLNK(st.st_mode))
		out->target = realpath(path, NULL);
	else if (found ? S_ISREG(st.st_mode) : errno == ENOENT)
		out->target = strdup(path);
	if (out->target && (stat(out->target, &st) < 0 || S_ISREG(st.st_mode))) {
		if (open_temp(out, path, err) < 0) {
			free(out->target);
			out->target = NULL;
			return -1;
		}
		return 0;
	}
	/* /dev/null, a terminal, a FIFO (or a link to nothing): written as they are. */
	free(out->target);
	out->target = NULL;
	out->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (out->fd < 0)
		return dcfg_error_set(err, path, "%s", strerror(errno));
	return 0;
}

int
dcfg_output_check_inputs(const char *path, const char *const *inputs, size_t n,
    struct dcfg_error *err)
{
	struct stat out_st, in_st;
	size_t i;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0 || stat(path, &out_st) < 0 ||
	    !S_ISREG(out_st.st_mode))
		return 0;
	for (i = 0; i < n; i++) {
		if (inputs[i] == NULL)
			continue;
		if (strcmp(inputs[i], "-") == 0)
			rc = fstat(STDIN_FILENO, &in_st);
		else
			rc = stat(inputs[i], &in_st);
		if (rc == 0 && in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
			return dcfg_error_set(err, path, "the output is also an input (%s); "
			    "refusing to write over it",
			    strcmp(inputs[i], "-") == 0 ? "standard input" : inputs[i]);
	}
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
	out->flushed += out->len;
	out->len = 0;
}

/* Removes the temporary, as one step with forgetting it. */
static void
remove_temp(struct dcfg_output *out)
{
	sigset_t saved;

	dcfg_temp_hold_signals(&saved);
	unlink(out->tmp);
	dcfg_temp_forget(out->tmp_slot);
	dcfg_temp_release_signals(&saved);
}

static void
free_paths(struct dcfg_output *out)
{
	free(out->tmp);
	free(out->target);
	out->tmp = NULL;
	out->target = NULL;
	out->tmp_slot = -1;
}

int
dcfg_output_close(struct dcfg_output *out, struct dcfg_error *err)
{
	sigset_t saved;

	dcfg_output_flush(out);
	if (out->fd != STDOUT_FILENO && close(out->fd) < 0 && out->error == 0)
		out->error = errno;
	if (out->tmp && out->error == 0) {
		/* renamed and forgotten as one step: a signal after it must not remove the file */
		dcfg_temp_hold_signals(&saved);
		if (rename(out->tmp, out->target) < 0)
			out->error = errno;
		else
			dcfg_temp_forget(out->tmp_slot);
		dcfg_temp_release_signals(&saved);
	}
	if (out->tmp && out->error != 0)
		remove_temp(out);
	free_paths(out);
	if (out->error == 0 || out->error == EPIPE)
		return 0;
	return dcfg_error_set(err, out->name, "write error: %s", strerror(out->error));
}

void
dcfg_output_discard(struct dcfg_output *out)
{
	out->len = 0;
	if (out->fd != STDOUT_FILENO)
		close(out->fd);
	if (out->tmp)
		remove_temp(out);
	free_paths(out);
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

/*
 * Numbers are written in place, length first: formatting into a temporary
 * cost a copy of unknown length a number, in every stage's output. A
 * number that might not fit flushes first (the output's bytes are the
 * same, only where a write(2) ends moves).
 */
static char *
room_for(struct dcfg_output *out, size_t n)
{
	if (sizeof out->buf - out->len < n)
		dcfg_output_flush(out);
	return out->buf + out->len;
}

void
dcfg_out_u64(struct dcfg_output *out, uint64_t v)
{
	unsigned d = dcfg_digits_u64(v);

	dcfg_put_u64(room_for(out, DCFG_DIGITS_U64_MAX) + d, v);
	out->len += d;
}

void
dcfg_out_hex(struct dcfg_output *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned d = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1;
	char *p = room_for(out, 2 + 16);

	p[0] = '0';
	p[1] = 'x';
	p += 2 + d;
	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v > 0);
	out->len += 2 + d;
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

/* The length of the Unicode space character at P (UTF-8), or 0. */
static size_t
unicode_space(const unsigned char *p)
{
	if (p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
		return 2;
	if (p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80)
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] <= 0x8a || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf))
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3;
	if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3;
	return 0;
}

void
dcfg_out_escaped_word(struct dcfg_output *out, const char *s, const char *also)
{
	const unsigned char *p;
	size_t k, i, n;
	char e[4];

	for (;;) {
		k = dcfg_escape_kept(s);
		for (i = 0; i < k; i += n) {
			p = (const unsigned char *)s + i;
			if (*p < 0x80 && strchr(also, *p) != NULL) {
				dcfg_out_bytes(out, e, escape_byte(*p, e));
				n = 1;
			} else if (*p >= 0x80 && (n = unicode_space(p)) > 0) {
				for (size_t j = 0; j < n; j++)
					dcfg_out_bytes(out, e, escape_byte(p[j], e));
			} else {
				n = 1;
				dcfg_out_char(out, (char)*p);
			}
		}
		s += k;
		if (*s == '\0')
			return;
		dcfg_out_bytes(out, e, escape_byte((unsigned char)*s++, e));
	}
}

int
dcfg_name_matches(const char *name, const char *arg)
{
	char e[4];
	size_t k, n;

	if (strcmp(name, arg) == 0)
		return 1;
	/* ARG against NAME escaped, escape by escape: no copy, whatever NAME's length */
	for (;;) {
		k = dcfg_escape_kept(name);
		if (strncmp(arg, name, k) != 0)
			return 0;
		name += k;
		arg += k;
		if (*name == '\0')
			return *arg == '\0';
		n = escape_byte((unsigned char)*name++, e);
		if (strncmp(arg, e, n) != 0)
			return 0;
		arg += n;
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
