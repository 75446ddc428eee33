/* dcfg-info: summarise a DCFG, per process. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dcfg.h"
#include "json.h"
#include "output.h"
#include "summary.h"

static const char *prog = "dcfg-info";

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: dcfg-info [-p PID] [--json] [--progress | --quiet] [FILE]\n"
	    "Summarise a DCFG (plain, gzip or bzip2; - or no FILE: standard input).\n"
	    "  -p, --pid PID   only this process\n"
	    "  -j, --json      print JSON\n"
	    "      --progress  show progress on standard error\n"
	    "  -q, --quiet     never show progress\n"
	    "  -h, --help      print this help\n"
	    "  -V, --version   print the version\n");
}

static int
print(const char *file, const struct dcfg *d, const struct dcfg_process *only,
    int json)
{
	struct dcfg_output out;
	struct dcfg_error err;

	if (dcfg_output_open(&out, NULL, &err) < 0 ||
	    dcfg_summary_write(&out, d, only, json, file, &err) < 0 ||
	    dcfg_output_close(&out, &err) < 0) {
		dcfg_cli_error(prog, &err);
		return DCFG_EXIT_USAGE;
	}
	return DCFG_EXIT_OK;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum dcfg_progress_mode mode = DCFG_PROGRESS_AUTO;
	struct dcfg_load_options opt = { .keep = DCFG_KEEP_ALL };
	const struct dcfg_process *only = NULL;
	struct dcfg_progress pg;
	struct dcfg_error err;
	const char *file, *why;
	uint64_t pid = 0;
	int c, json = 0, have_pid = 0, status;
	struct dcfg *d;

	dcfg_cli_start();
	while ((c = getopt_long(argc, argv, "p:jqhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &pid, &why) < 0) {
				fprintf(stderr, "%s: -p %s: %s\n", prog, optarg, why);
				return DCFG_EXIT_USAGE;
			}
			have_pid = 1;
			break;
		case 'j': json = 1; break;
		case 'P': mode = DCFG_PROGRESS_ON; break;
		case 'q': mode = DCFG_PROGRESS_OFF; break;
		case 'h': usage(stdout); return DCFG_EXIT_OK;
		case 'V': printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION); return DCFG_EXIT_OK;
		default: usage(stderr); return DCFG_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "%s: one FILE at most\n", prog);
		usage(stderr);
		return DCFG_EXIT_USAGE;
	}
	file = optind < argc ? argv[optind] : "-";

	dcfg_progress_init(&pg, prog, mode);
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = &pg;
	d = dcfg_load(file, &opt, &err);
	dcfg_progress_end(&pg);
	if (d == NULL) {
		dcfg_cli_error(prog, &err);
		return DCFG_EXIT_USAGE;
	}
	if (have_pid && (only = dcfg_find_process(d, pid)) == NULL) {
		dcfg_error_set(&err, file, "no process with PID %llu", (unsigned long long)pid);
		dcfg_cli_error(prog, &err);
		dcfg_free(d);
		return DCFG_EXIT_USAGE;
	}
	status = print(file, d, only, json);
	dcfg_free(d);
	return status;
}
