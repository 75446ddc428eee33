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
	int found;

	out->len = 0;
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
