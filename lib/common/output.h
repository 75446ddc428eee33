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
/*
 * A name from the input, escaped as dcfg-stream(5) says ("Names"): a
 * backslash as \\, tab, newline and carriage return as \t \n \r, every
 * other byte below 0x20, 0x7f, each byte of a C1 control (U+0080..U+009F)
 * and each byte that is not part of valid UTF-8 as \xHH. Everything else,
 * space and valid UTF-8 included, is written as it is. The result is one
 * line, one column, and sends no control byte to a terminal.
 */
void dcfg_out_escaped(struct dcfg_output *out, const char *s);
/*
 * The same into BUF, at most SIZE bytes with the NUL, cut only between
 * escapes. Returns the length the whole escaped name needs (as snprintf).
 */
size_t dcfg_escape(char *buf, size_t size, const char *s);
/*
 * The same but for the backslash, kept: for a message whose names were
 * escaped when it was made, so that nothing is escaped twice.
 */
size_t dcfg_escape_message(char *buf, size_t size, const char *s);
/* The bytes of S that dcfg_out_escaped writes as they are, from the start. */
size_t dcfg_escape_kept(const char *s);
/* V as 4 bytes, least significant first (binary formats). */
void dcfg_out_u32le(struct dcfg_output *out, uint32_t v);

#endif
