/*
 * dcpi-dump: a test reader for DCPI profile files (dcpiformat(4), header
 * version pdb-0.xx, binary data of major version 0), written from the
 * format document (../shared/spec/dcpi-profile-format.txt) and
 * real-readers.md, not from dcfg-convert's writer.
 *
 *   dcpi-dump [-a] [FILE]     (standard input without FILE or with -)
 *
 * The file is read strictly and printed as text, one item per line:
 *
 *   each header line as it is (without its newline)
 *   samples PAD             the terminator; PAD = the spaces and tabs before its newline
 *   binary AT               the byte where the binary part starts
 *   chunk OFFSET NUMBER     per chunk, then its counts:
 *     +I SAMPLES            one line per address of the chunk (zeros too)
 *   footer ADDRESSES SAMPLES
 *
 * With -a only one line per address with samples is printed (the file is
 * checked all the same): `0xADDRESS SAMPLES` (tstart + offset, lowercase
 * hex).
 *
 * Errors (exit 1, one line on stderr, nothing on stdout): a header line
 * that is not in the grammar (a known keyword with a value of the wrong
 * form, a line without a value); a required line (version image epoch
 * platform event period tstart tsize cpuspeed) missing or repeated, an
 * optional one repeated; a version whose major is not 0; no `samples`
 * terminator; a binary part that does not start at a multiple of 4 bytes
 * or whose length is not a multiple of 4; a chunk of 0 addresses, whose
 * counts overrun the footer, out of order or overlapping the one before,
 * or with offset + number > tsize; footer totals that disagree with the
 * chunks; bytes after the footer (they do not parse as chunks + footer).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_PROG "dcpi-dump"
#include "dump.h"

static uint32_t
u32(size_t at)
{
	return (uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8 |
	    (uint32_t)buf[at + 2] << 16 | (uint32_t)buf[at + 3] << 24;
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t';
}

/* all_of S N CLASS: S[0..N) is not empty and every byte is of CLASS. */
static int
all_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
all_hex(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* rest_of_line: [^ \t\n][^\n]* */
static int
rest_of_line(const char *s, size_t n)
{
	return n > 0 && !is_space((unsigned char)s[0]);
}

enum value { DIGITS, HEX, REST, VERSION, TIME };

static const struct key {
	const char *word;
	enum value value;
	int required;
} keys[] = {
	{ "version", VERSION, 1 },
	{ "image", HEX, 1 },
	{ "epoch", TIME, 1 },
	{ "platform", REST, 1 },
	{ "event", REST, 1 },
	{ "period", DIGITS, 1 },
	{ "tstart", HEX, 1 },
	{ "tsize", DIGITS, 1 },
	{ "cpuspeed", DIGITS, 1 },
	{ "cpuamask", HEX, 0 },
	{ "cpuimplv", DIGITS, 0 },
	{ "cpucount", DIGITS, 0 },
	{ "path", REST, 0 },
};
#define NKEYS (sizeof keys / sizeof keys[0])

static uint64_t
number(const char *s, size_t n, int base, const char *what)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;

		d = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			fail("%s %.*s does not fit 64 bits", what, (int)n, s);
		v = v * (uint64_t)base + (uint64_t)d;
	}
	return v;
}

int
main(int argc, char **argv)
{
	int by_address = 0, i = 1;

	if (i < argc && strcmp(argv[i], "-a") == 0) {
		by_address = 1;
		i++;
	}
	if (argc - i > 1 || (argc - i == 1 && argv[i][0] == '-' && argv[i][1] != '\0')) {
		fputs("usage: dcpi-dump [-a] [FILE]\n", stderr);
		return 2;
	}
	dump_read(argc - i == 1 ? argv[i] : NULL);

	/* The ASCII header. */
	unsigned seen[NKEYS] = { 0 };
	uint64_t tstart = 0, tsize = 0;
	size_t at = 0, lineno = 0;
	int terminated = 0;

	while (at < len) {
		const unsigned char *nl = memchr(buf + at, '\n', len - at);
		const char *line = (const char *)buf + at;
		size_t n, w;

		lineno++;
		if (nl == NULL)
			fail("header line %zu has no newline (no samples line)", lineno);
		n = (size_t)(nl - (buf + at));
		at += n + 1;

		/* <terminator> : "samples" <space>* "\n" */
		if (n >= 7 && memcmp(line, "samples", 7) == 0) {
			size_t k = 7;
			while (k < n && is_space((unsigned char)line[k]))
				k++;
			if (k == n) {
				emit("samples %zu\n", n - 7);
				terminated = 1;
				break;
			}
		}
		/* <word> <space>+ value */
		for (w = 0; w < n && !is_space((unsigned char)line[w]); w++)
			;
		if (w == 0)
			fail("header line %zu does not start with a word: \"%.*s\"", lineno, (int)n, line);
		size_t v = w;
		while (v < n && is_space((unsigned char)line[v]))
			v++;
		if (v == w)
			fail("header line %zu has no space after its word: \"%.*s\"", lineno, (int)n, line);
		const char *val = line + v;
		size_t vn = n - v;
		if (!rest_of_line(val, vn))
			fail("header line %zu has no value: \"%.*s\"", lineno, (int)n, line);

		size_t k;
		for (k = 0; k < NKEYS; k++)
			if (strlen(keys[k].word) == w && memcmp(keys[k].word, line, w) == 0)
				break;
		if (k < NKEYS) {
			int ok = 0;

			switch (keys[k].value) {
			case DIGITS:
				ok = all_digits(val, vn);
				break;
			case HEX:
				ok = all_hex(val, vn);
				break;
			case REST:
				ok = rest_of_line(val, vn);
				break;
			case TIME:
				/* YYMMDDHHMM; YYYYMMDDHHMMSS is "not yet supported" */
				ok = vn == 10 && all_digits(val, vn);
				break;
			case VERSION: {
				/* pdb-<major>.<minor> */
				const char *dot = memchr(val, '.', vn);
				ok = vn > 4 && memcmp(val, "pdb-", 4) == 0 && dot != NULL &&
				    all_digits(val + 4, (size_t)(dot - val) - 4) &&
				    all_digits(dot + 1, vn - (size_t)(dot + 1 - val));
				if (ok && number(val + 4, (size_t)(dot - val) - 4, 10, "major") != 0)
					fail("header line %zu: %.*s: only major version 0 is read",
					    lineno, (int)n, line);
				break;
			}
			}
			if (!ok)
				fail("header line %zu is not in the grammar: \"%.*s\"", lineno, (int)n, line);
			if (seen[k]++)
				fail("header line %zu: a second %s line", lineno, keys[k].word);
			if (strcmp(keys[k].word, "tstart") == 0)
				tstart = number(val, vn, 16, "tstart");
			if (strcmp(keys[k].word, "tsize") == 0)
				tsize = number(val, vn, 10, "tsize");
		}
		emit("%.*s\n", (int)n, line);
	}
	if (!terminated)
		fail("no samples line");
	for (size_t k = 0; k < NKEYS; k++)
		if (keys[k].required && !seen[k])
			fail("no %s line", keys[k].word);

	/* The binary part. */
	if (at % 4 != 0)
		fail("the binary part starts at byte %zu, not a multiple of 4", at);
	emit("binary %zu\n", at);
	if (by_address)
		out_len = 0;	/* only the addresses */
	if ((len - at) % 4 != 0)
		fail("the binary part is %zu bytes, not a multiple of 4", len - at);
	if (len - at < 8)
		fail("the binary part is %zu bytes: no footer", len - at);
	size_t end = len - 8;	/* the footer */
	uint64_t addresses = 0, samples = 0, next = 0;
	int first = 1;

	while (at < end) {
		if (end - at < 8)
			fail("chunk at byte %zu: truncated before its number", at);
		uint32_t off = u32(at), num = u32(at + 4);
		at += 8;
		if (num == 0)
			fail("chunk at byte %zu: number 0", at - 8);
		if ((uint64_t)num * 4 > end - at)
			fail("chunk at byte %zu: %" PRIu32 " counts overrun the footer "
			    "(%zu bytes left before it)", at - 8, num, end - at);
		if (!first && off < next)
			fail("chunk at byte %zu: offset %" PRIu32 " is out of order or overlaps the "
			    "chunk before (which ends at %" PRIu64 ")", at - 8, off, next);
		if ((uint64_t)off + num > tsize)
			fail("chunk at byte %zu: offset %" PRIu32 " + number %" PRIu32
			    " > tsize %" PRIu64, at - 8, off, num, tsize);
		if (!by_address)
			emit("chunk %" PRIu32 " %" PRIu32 "\n", off, num);
		for (uint32_t j = 0; j < num; j++) {
			uint32_t c = u32(at + (size_t)j * 4);

			if (c > 0)
				addresses++;
			samples += c;
			if (!by_address)
				emit("  +%" PRIu32 " %" PRIu32 "\n", j, c);
			else if (c > 0)
				emit("0x%" PRIx64 " %" PRIu32 "\n", tstart + off + j, c);
		}
		at += (size_t)num * 4;
		next = (uint64_t)off + num;
		first = 0;
	}
	uint32_t total_offsets = u32(end), total_samples = u32(end + 4);
	if (total_offsets != addresses)
		fail("footer: %" PRIu32 " addresses with samples, the chunks have %" PRIu64,
		    total_offsets, addresses);
	if (total_samples != samples)
		fail("footer: %" PRIu32 " samples, the chunks hold %" PRIu64, total_samples, samples);
	if (!by_address)
		emit("footer %" PRIu32 " %" PRIu32 "\n", total_offsets, total_samples);

	return dump_write();
}
