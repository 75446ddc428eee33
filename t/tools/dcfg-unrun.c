/*
 * dcfg-unrun: writes the version 1 edge stream that a version 2 stream
 * stands for (dcfg-stream(5), Runs), for the tests: the header
 * "# dcfg-stream 1", every other line as it is, and each run's period
 * written COUNT times in its place, nested runs inside out. A version 1
 * stream comes out unchanged. Not installed.
 *
 *   dcfg-unrun [FILE]        (standard input without FILE or with -)
 *
 * The stream is read by the library's reader, so every rule it checks is
 * an error here too: "dcfg-unrun: FILE:LINE:COLUMN: ...", exit 2, after
 * the lines before it. The expansion is t/tools/unrun.h, which the stream
 * fuzz target runs on every input.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "common/output.h"
#include <dcfg/stream.h>
#include "unrun.h"

static const char usage[] = "usage: dcfg-unrun [FILE]\n";

static int
emit(void *ctx, const char *line, size_t len)
{
	struct dcfg_output *out = ctx;

	dcfg_out_bytes(out, line, len);
	dcfg_out_char(out, '\n');
	return dcfg_output_failed(out);
}

int
main(int argc, char **argv)
{
	static struct dcfg_output out;
	struct dcfg_stream_record r;
	struct unrun u = { .emit = emit, .ctx = &out };
	struct dcfg_stream *st;
	struct dcfg_error err, close_err;
	const char *path = NULL;
	int rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(usage, stdout);
		return DCFG_EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-' && argv[1][1] != '\0')) {
		fputs(usage, stderr);
		return DCFG_EXIT_USAGE;
	}
	if (argc == 2)
		path = argv[1];
	if ((st = dcfg_stream_open(path, NULL, &err)) == NULL) {
		dcfg_cli_error("dcfg-unrun", &err);
		return DCFG_EXIT_USAGE;
	}
	if (dcfg_output_open(&out, NULL, &err) < 0) {
		dcfg_cli_error("dcfg-unrun", &err);
		dcfg_stream_close(st);
		return DCFG_EXIT_USAGE;
	}
	dcfg_out_str(&out, "# dcfg-stream 1\n");
	while ((rc = dcfg_stream_next(st, &r, &err)) > 0) {
		int fed = unrun_feed(&u, &r);
		if (fed < 0) {
			rc = dcfg_error_at(&err, dcfg_stream_name(st), r.lineno, 1, "out of memory");
			break;
		}
		if (fed > 0)
			break;   /* the reader went away */
	}
	unrun_free(&u);
	dcfg_stream_close(st);
	/* the lines before an error stay, as every stage's do */
	if (dcfg_output_close(&out, &close_err) < 0) {
		dcfg_cli_error("dcfg-unrun", &close_err);
		rc = rc < 0 ? rc : -2;
	}
	if (rc == -1)
		dcfg_cli_error("dcfg-unrun", &err);
	return rc < 0 ? DCFG_EXIT_USAGE : DCFG_EXIT_OK;
}
