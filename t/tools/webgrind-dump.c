/*
 * webgrind-dump: a test reader for webgrind's preprocessed format,
 * version 7, written from the format document
 * (../shared/spec/webgrind-preprocessed-format.txt) and the facts in
 * real-readers.md, not from dcfg-convert's writer.
 *
 *   webgrind-dump [FILE]      (standard input without FILE or with -)
 *
 * The file is read strictly and printed as text, one item per line:
 *
 *   version 7
 *   functions N
 *   function I line L self S inclusive C invocations V file F name N
 *     from F2 line L count C cost X       (called-from records, file order)
 *     sub F2 line L count C cost X        (sub-call records, file order)
 *   header KEY: VALUE                      (each header line as it is)
 *
 * Anything that is not exactly a version 7 file is an error (exit 1, one
 * line on stderr, nothing on stdout): a truncated number or string; a
 * function address out of range or not where the previous record (or the
 * address list) ended; a header_address not where the last record ended;
 * counts whose records overrun the file; a function number in a record
 * that is not a function of the file; zero functions (webgrind's reader
 * fails on them); a header line without ": ", an empty header line, a
 * last line without its newline; no `events:` or no `summary:` header.
 * So two files that dump the same are the same bytes.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_PROG "webgrind-dump"
#include "dump.h"

/* u32 AT WHAT: the little-endian number at byte AT. */
static uint32_t
u32(size_t at, const char *what)
{
	if (at > len || len - at < 4)
		fail("truncated: %s at byte %zu needs 4 bytes, the file has %zu",
		    what, at, len);
	return (uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8 |
	    (uint32_t)buf[at + 2] << 16 | (uint32_t)buf[at + 3] << 24;
}

/* string *AT: a string ending in '\n' (not included); *AT moves past it. */
static const char *
string(size_t *at, size_t *n, const char *what, uint32_t fn)
{
	const unsigned char *nl;

	if (*at >= len)
		fail("truncated: function %" PRIu32 ": no %s at byte %zu", fn, what, *at);
	nl = memchr(buf + *at, '\n', len - *at);
	if (nl == NULL)
		fail("truncated: function %" PRIu32 ": %s at byte %zu has no newline",
		    fn, what, *at);
	*n = (size_t)(nl - (buf + *at));
	const char *s = (const char *)buf + *at;
	*at += *n + 1;
	return s;
}

static void
records(size_t *at, uint32_t count, uint32_t nfunc, uint32_t fn, const char *kind)
{
	if ((uint64_t)count * 16 > len - *at)
		fail("function %" PRIu32 ": %" PRIu32 " %s records at byte %zu overrun the file "
		    "(%" PRIu64 " bytes, %zu left)", fn, count, kind, *at,
		    (uint64_t)count * 16, len - *at);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t f = u32(*at, "function_number");
		uint32_t line = u32(*at + 4, "line");
		uint32_t calls = u32(*at + 8, "call_count");
		uint32_t cost = u32(*at + 12, "summed_call_cost");

		if (f >= nfunc)
			fail("function %" PRIu32 ": %s record %" PRIu32 " at byte %zu: function "
			    "number %" PRIu32 " is not below the function count %" PRIu32,
			    fn, kind, i, *at, f, nfunc);
		emit("  %s %" PRIu32 " line %" PRIu32 " count %" PRIu32 " cost %" PRIu32 "\n",
		    kind, f, line, calls, cost);
		*at += 16;
	}
}

int
main(int argc, char **argv)
{

	if (argc > 2 || (argc == 2 && argv[1][0] == '-' && argv[1][1] != '\0')) {
		fputs("usage: webgrind-dump [FILE]\n", stderr);
		return 2;
	}
	dump_read(argc == 2 ? argv[1] : NULL);

	uint32_t version = u32(0, "version_number");
	if (version != 7)
		fail("version %" PRIu32 ", not 7", version);
	uint32_t header_address = u32(4, "header_address");
	uint32_t nfunc = u32(8, "function_count");
	if (nfunc == 0)
		fail("no function (webgrind's reader fails on a file without functions)");
	if ((uint64_t)nfunc * 4 > len - 12)
		fail("function_count %" PRIu32 ": the address list overruns the file", nfunc);
	emit("version 7\nfunctions %" PRIu32 "\n", nfunc);

	size_t at = 12 + (size_t)nfunc * 4;
	for (uint32_t i = 0; i < nfunc; i++) {
		uint32_t addr = u32(12 + (size_t)i * 4, "function_address");

		if (addr >= len)
			fail("function %" PRIu32 ": address %" PRIu32 " is out of the file (%zu bytes)",
			    i, addr, len);
		if (addr != at)
			fail("function %" PRIu32 ": address %" PRIu32 ", but the %s ends at byte %zu",
			    i, addr, i == 0 ? "address list" : "previous record", at);
		uint32_t line = u32(at, "line");
		uint32_t self = u32(at + 4, "summed_self_cost");
		uint32_t incl = u32(at + 8, "summed_inclusive_cost");
		uint32_t inv = u32(at + 12, "invocation_count");
		uint32_t nfrom = u32(at + 16, "called_from_count");
		uint32_t nsub = u32(at + 20, "sub_call_count");
		at += 24;

		/* the records come before the names: keep them and print after */
		size_t mark = out_len;
		records(&at, nfrom, nfunc, i, "from");
		records(&at, nsub, nfunc, i, "sub");
		size_t rec_len = out_len - mark;
		char *rec = malloc(rec_len + 1);
		if (rec == NULL)
			fail("out of memory");
		memcpy(rec, out + mark, rec_len);
		out_len = mark;

		size_t nfile, nname;
		const char *file = string(&at, &nfile, "file_name", i);
		const char *fname = string(&at, &nname, "function_name", i);
		emit("function %" PRIu32 " line %" PRIu32 " self %" PRIu32 " inclusive %" PRIu32
		    " invocations %" PRIu32 " file %.*s name %.*s\n", i, line, self, incl, inv,
		    (int)nfile, file, (int)nname, fname);
		emit("%.*s", (int)rec_len, rec);
		free(rec);
	}

	if (header_address != at)
		fail("header_address %" PRIu32 ", but the last record ends at byte %zu",
		    header_address, at);
	int events = 0, summary = 0;
	while (at < len) {
		const unsigned char *nl = memchr(buf + at, '\n', len - at);
		size_t n;

		if (nl == NULL)
			fail("header line at byte %zu has no newline", at);
		n = (size_t)(nl - (buf + at));
		if (n == 0)
			fail("empty header line at byte %zu (the reader stops there)", at);
		const char *line = (const char *)buf + at;
		const char *sep = NULL;
		for (size_t k = 0; k + 1 < n; k++)
			if (line[k] == ':' && line[k + 1] == ' ') {
				sep = line + k;
				break;
			}
		if (sep == NULL)
			fail("header line at byte %zu has no \": \": %.*s", at, (int)n, line);
		size_t klen = (size_t)(sep - line);
		if (klen == 6 && memcmp(line, "events", 6) == 0)
			events++;
		if (klen == 7 && memcmp(line, "summary", 7) == 0)
			summary++;
		emit("header %.*s\n", (int)n, line);
		at += n + 1;
	}
	if (events == 0)
		fail("no events: header");
	if (summary == 0)
		fail("no summary: header");

	return dump_write();
}
