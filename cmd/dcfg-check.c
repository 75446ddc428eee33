/* dcfg-check: a DCFG, and a trace, judged against the spec and each other. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "cli/cli.h"
#include "common/json.h"

static const char *prog = "dcfg-check";
static const char help[] =
    "usage: dcfg-check [--json] [--max N] [--strict] [-o FILE] DCFG [TRACE]\n"
    "Check a DCFG, and a trace, against the format's rules and each other.\n"
    "  -j, --json         print the findings as JSON\n"
    "  -m, --max N        stop after N errors and warnings (notes are not counted)\n"
    "  -s, --strict       warnings fail the check too (notes never do)\n"
    "  -o, --output FILE  write to FILE\n"
    "      --progress     show progress on standard error\n"
    "  -q, --quiet        never show progress\n"
    "  -h, --help         print this help\n"
    "  -V, --version      print the version\n";

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "max", required_argument, NULL, 'm' },
		{ "strict", no_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum dcfg_progress_mode mode = DCFG_PROGRESS_AUTO;
	struct dcfg_findings f = { 0 };
	const char *out_path = NULL, *why;
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, strict = 0, rc = 0, status;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	while ((c = getopt_long(argc, argv, "jm:so:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': f.json = 1; break;
		case 'm':
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &f.max, &why) < 0 || f.max == 0) {
				fprintf(stderr, "%s: --max %s: a number above 0 is needed\n", prog, DCFG_CLI_SHOWN(optarg));
				return DCFG_EXIT_USAGE;
			}
			break;
		case 's': strict = 1; break;
		case 'o': out_path = optarg; break;
		case 'P': mode = DCFG_PROGRESS_ON; break;
		case 'q': mode = DCFG_PROGRESS_OFF; break;
		case 'h': fputs(help, stdout); return DCFG_EXIT_OK;
		case 'V': printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION); return DCFG_EXIT_OK;
		default: fputs(help, stderr); return DCFG_EXIT_USAGE;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		fprintf(stderr, "%s: a DCFG, and at most one TRACE, are needed\n%s", prog, help);
		return DCFG_EXIT_USAGE;
	}
	if (argc - optind == 2 && strcmp(argv[optind], "-") == 0 &&
	    strcmp(argv[optind + 1], "-") == 0) {
		fprintf(stderr, "%s: the DCFG and the trace cannot both be standard input\n", prog);
		return DCFG_EXIT_USAGE;
	}
	/* the main input: the trace, when there is one */
	mode = dcfg_progress_mode_for(mode, argv[argc - 1]);
	if (dcfg_cli_check_output(prog, out_path, (const char *const *)argv + optind,
	    (size_t)(argc - optind)) < 0 ||
	    dcfg_cli_setup(&io, prog, argv[optind], DCFG_KEEP_ALL, out_path, mode) < 0)
		return DCFG_EXIT_USAGE;
	f.out = io.out;
	if (dcfg_check_dcfg(io.dcfg, &f) < 0)
		rc = dcfg_error_set(&err, argv[optind], "out of memory");
	else if (argc - optind == 2 && !f.stopped)
		rc = dcfg_check_trace(argv[optind + 1], io.dcfg, &f, &err);
	if (rc == 0)
		dcfg_findings_end(&f);
	status = dcfg_cli_finish(&io, rc, &err, 1);
	if (status != DCFG_EXIT_OK)
		return status;
	return f.errors || (strict && f.warnings) ? DCFG_EXIT_CHECK : DCFG_EXIT_OK;
}
