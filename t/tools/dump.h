/*
 * What the test readers of binary profiles (dcpi-dump, webgrind-dump)
 * share: the whole input in memory, the text in a growing buffer that is
 * printed only once the file has passed every check (so a failed file
 * prints nothing), and one error line naming the program and the file.
 * The includer defines DUMP_PROG, its name in messages.
 */
#ifndef DCFG_T_DUMP_H
#define DCFG_T_DUMP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *name = "-";
static unsigned char *buf;
static size_t len;

static void
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, DUMP_PROG ": %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static char *out;
static size_t out_len, out_cap;

static void
emit(const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(out + out_len, out_cap - out_len, fmt, ap);
		va_end(ap);
		if (n < 0)
			fail("formatting failed");
		if ((size_t)n < out_cap - out_len)
			break;
		out_cap = (out_cap + (size_t)n + 1) * 2;
		out = realloc(out, out_cap);
		if (out == NULL)
			fail("out of memory");
	}
	out_len += (size_t)n;
}

/* dump_read ARG: the file ARG ("-" or NULL: standard input) into buf. */
static void
dump_read(const char *arg)
{
	FILE *f = stdin;
	size_t cap = 1 << 16, n;

	if (arg != NULL && strcmp(arg, "-") != 0) {
		name = arg;
		f = fopen(name, "rb");
		if (f == NULL) {
			fprintf(stderr, DUMP_PROG ": %s: %s\n", name, strerror(errno));
			exit(1);
		}
	}
	buf = malloc(cap);
	if (buf == NULL)
		fail("out of memory");
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (buf == NULL)
				fail("out of memory");
		}
	}
	if (ferror(f))
		fail("%s", strerror(errno));
}

/* dump_write: the text, once every check has passed; the exit status. */
static int
dump_write(void)
{
	if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
		fprintf(stderr, DUMP_PROG ": write error\n");
		return 1;
	}
	return 0;
}

#endif
