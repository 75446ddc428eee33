/*
 * Buffered output for data on standard output or a file. Failures are
 * sticky and reported once at close, so a full disk is an error and a
 * closed pipe ("| head") is a quiet stop, provided the program ignores
 * SIGPIPE (dcfg_cli_start does). The hot-path writers below do not
 * allocate and call no printf-family function.
 *
 * A file is written to a temporary beside it and renamed into place by
 * dcfg_output_close once whole, so that a failed or interrupted command
 * never leaves a file cut short, and an old file stays as it was
 * (dcfg(7), OUTPUT FILES). Standard output streams as it is written.
 */
#ifndef DCFG_OUTPUT_H
#define DCFG_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <dcfg/error.h>

#define DCFG_OUTPUT_BUFSIZE (256 * 1024)

struct dcfg_output {
	int fd;
	const char *name;
	char *target, *tmp;  /* a file's final path and its temporary; NULL for the rest */
	int tmp_slot;        /* the temporary's place in the signal handlers' list (tempfiles.h) */
	size_t len;
	uint64_t flushed;  /* bytes handed on before buf: a flush in a call shows as a change */
	int error;         /* errno of the first failed write, 0 if none */
	char buf[DCFG_OUTPUT_BUFSIZE];
};

/*
 * Opens PATH for writing, or standard output for NULL or "-". A regular
 * file (or a new one; through a symbolic link, the file it names) is
 * written to a temporary in its directory; a device or a FIFO directly.
 * A name of one of the process's descriptors (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N), or of a file one of them is open for writing on, is
 * written through that descriptor, in place: "-o /dev/stdout >> log"
 * appends to the log.
 */
int dcfg_output_open(struct dcfg_output *out, const char *path,
    struct dcfg_error *err);

void dcfg_output_flush(struct dcfg_output *out);

/*
 * Flushes and closes; a file is renamed into place. -1 with ERR set on a
 * write error (the temporary is then removed); a broken pipe is not one.
 */
int dcfg_output_close(struct dcfg_output *out, struct dcfg_error *err);

/* Closes without keeping anything unwritten: a file's temporary is removed, an old file stays. */
void dcfg_output_discard(struct dcfg_output *out);

/*
 * -1 with ERR set when PATH is an existing regular file that is also one
 * of the N INPUTS (by device and inode, through links; NULL entries are
 * skipped; "-" is standard input): writing it would destroy an input.
 */
int dcfg_output_check_inputs(const char *path, const char *const *inputs, size_t n,
    struct dcfg_error *err);

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

/*
 * Copies N bytes in pieces of DCFG_COPY_PAD, for the short copies of a per-line
 * path, where calling memcpy costs more than copying. It reads and writes
 * up to DCFG_COPY_PAD - 1 bytes past the N: both sides must have them.
 */
#define DCFG_COPY_PAD 32

static inline void
dcfg_copy_padded(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += DCFG_COPY_PAD)
		memcpy(dst + i, src + i, DCFG_COPY_PAD);
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
/*
 * The same, for a name that must stay one word of a line that readers
 * split on white space or on separators (the profiles and region files of
 * dcfg-profile(1) and dcfg-regions(1)): also each byte of ALSO (ASCII)
 * and each byte of a Unicode space character (U+0085, U+00A0, U+1680,
 * U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, which Python's
 * str.split() splits on) as \xHH. ALSO holds at least " ".
 */
void dcfg_out_escaped_word(struct dcfg_output *out, const char *s, const char *also);
/*
 * 1 when ARG, a name the user gave (an option's value), is NAME, a name
 * from the input: byte for byte, or escaped as dcfg_out_escaped writes it
 * in every table, so that what a table or a "did you mean" shows can be
 * given back. Every option that takes a name matches it with this.
 */
int dcfg_name_matches(const char *name, const char *arg);
/* The bytes of S that dcfg_out_escaped writes as they are, from the start. */
size_t dcfg_escape_kept(const char *s);
/* V as 4 bytes, least significant first (binary formats). */
void dcfg_out_u32le(struct dcfg_output *out, uint32_t v);

#endif
