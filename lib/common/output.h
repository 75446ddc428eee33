/*
 * Buffered output for data on standard output or a file. Failures are
 * sticky and reported once at close, so a full disk is an error and a
 * closed pipe ("| head") is a quiet stop, provided the program ignores
 * SIGPIPE (dcfg_cli_start does). The hot-path writers below do not
 * allocate and call no printf-family function.
 */
#ifndef DCFG_OUTPUT_H
#define DCFG_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

#define DCFG_OUTPUT_BUFSIZE (256 * 1024)

struct dcfg_output {
	int fd;
	const char *name;
	size_t len;
	int error;         /* errno of the first failed write, 0 if none */
	char buf[DCFG_OUTPUT_BUFSIZE];
};

/* Opens PATH for writing, or standard output for NULL or "-". */
int dcfg_output_open(struct dcfg_output *out, const char *path,
    struct dcfg_error *err);

void dcfg_output_flush(struct dcfg_output *out);

/* Flushes and closes. -1 with ERR set on a write error; a broken pipe is not one. */
int dcfg_output_close(struct dcfg_output *out, struct dcfg_error *err);

/* 1 once a write has failed (the reader went away or the disk is full): stop producing. */
static inline int
dcfg_output_failed(const struct dcfg_output *out)
{
	return out->error != 0;
}

void dcfg_out_bytes_slow(struct dcfg_output *out, const void *p, size_t n);

/* The common case, inline: it fits in the buffer. */
static inline void
dcfg_out_bytes(struct dcfg_output *out, const void *p, size_t n)
{
	if (n <= sizeof out->buf - out->len) {
		memcpy(out->buf + out->len, p, n);
		out->len += n;
	} else {
		dcfg_out_bytes_slow(out, p, n);
	}
}

static inline void
dcfg_out_char(struct dcfg_output *out, char c)
{
	if (out->len == sizeof out->buf)
		dcfg_output_flush(out);
	out->buf[out->len++] = c;
}

void dcfg_out_str(struct dcfg_output *out, const char *s);
void dcfg_out_u64(struct dcfg_output *out, uint64_t v);
void dcfg_out_hex(struct dcfg_output *out, uint64_t v);      /* 0x... */
void dcfg_out_json_string(struct dcfg_output *out, const char *s);
/* S on one line whatever its bytes: those below 0x20 and 0x7f are written '?'. */
void dcfg_out_text(struct dcfg_output *out, const char *s);
/* V as 4 bytes, least significant first (binary formats). */
void dcfg_out_u32le(struct dcfg_output *out, uint32_t v);

#endif
