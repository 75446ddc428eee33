/* dcfg-expand: the edges a DCFG-trace records, in order, as an edge stream. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dcfg.h"
#include "expand.h"
#include "json.h"
#include "output.h"

#define MAX_IDS 1024

static const char *prog = "dcfg-expand";

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: dcfg-expand [-p PID] [-t TID] [--chunks] [--list | --count]\n"
	    "                   [--from-icount N] [--to-icount N] [--dcfg FILE]\n"
	    "                   [-o FILE] [--progress | --quiet] [TRACE]\n"
	    "Print the edges a DCFG-trace records, in order (- or no TRACE: standard input).\n"
	    "  -p, --pid PID        only this process (repeatable)\n"
	    "  -t, --thread TID     only this thread (repeatable)\n"
	    "      --chunks         mark where each chunk starts\n"
	    "      --list           print the chunk table, decoding nothing\n"
	    "      --count          print per-thread edge and instruction totals\n"
	    "      --from-icount N  start of the instruction window, per thread\n"
	    "      --to-icount N    end of the window (not included)\n"
	    "      --dcfg FILE      the paired DCFG: cut the window at the exact edge\n"
	    "  -o, --output FILE    write to FILE\n"
	    "      --progress       show progress on standard error\n"
	    "  -q, --quiet          never show progress\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

static int
number(const char *opt, const char *arg, uint64_t *v)
{
	const char *why;

	if (dcfg_parse_c_integer(arg, strlen(arg), v, &why) < 0) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, arg, why);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	enum { OPT_CHUNKS = 256, OPT_LIST, OPT_COUNT, OPT_FROM, OPT_TO, OPT_DCFG, OPT_PROGRESS };
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "thread", required_argument, NULL, 't' },
		{ "chunks", no_argument, NULL, OPT_CHUNKS },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "count", no_argument, NULL, OPT_COUNT },
		{ "from-icount", required_argument, NULL, OPT_FROM },
		{ "to-icount", required_argument, NULL, OPT_TO },
		{ "dcfg", required_argument, NULL, OPT_DCFG },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static uint64_t pids[MAX_IDS], tids[MAX_IDS];
	struct dcfg_expand_options opt = { .mode = DCFG_EXPAND_EDGES, .pids = pids, .tids = tids };
	enum dcfg_progress_mode mode = DCFG_PROGRESS_AUTO;
	const char *dcfg_path = NULL, *out_path = NULL, *trace;
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, has_from = 0, has_to = 0, rc;

	dcfg_cli_start();
	opt.to = UINT64_MAX;
	while ((c = getopt_long(argc, argv, "p:t:o:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
		case 't':
			if ((c == 'p' ? opt.n_pids : opt.n_tids) == MAX_IDS) {
				fprintf(stderr, "%s: at most %d of -%c\n", prog, MAX_IDS, c);
				return DCFG_EXIT_USAGE;
			}
			if (number(c == 'p' ? "-p" : "-t", optarg,
			    c == 'p' ? &pids[opt.n_pids++] : &tids[opt.n_tids++]) < 0)
				return DCFG_EXIT_USAGE;
			break;
		case OPT_CHUNKS: opt.chunks = 1; break;
		case OPT_LIST: opt.mode = DCFG_EXPAND_LIST; break;
		case OPT_COUNT: opt.mode = DCFG_EXPAND_COUNT; break;
		case OPT_FROM:
			if (number("--from-icount", optarg, &opt.from) < 0)
				return DCFG_EXIT_USAGE;
			has_from = 1;
			break;
		case OPT_TO:
			if (number("--to-icount", optarg, &opt.to) < 0)
				return DCFG_EXIT_USAGE;
			has_to = 1;
			break;
		case OPT_DCFG: dcfg_path = optarg; break;
		case 'o': out_path = optarg; break;
		case OPT_PROGRESS: mode = DCFG_PROGRESS_ON; break;
		case 'q': mode = DCFG_PROGRESS_OFF; break;
		case 'h': usage(stdout); return DCFG_EXIT_OK;
		case 'V': printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION); return DCFG_EXIT_OK;
		default: usage(stderr); return DCFG_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "%s: one TRACE at most\n", prog);
		usage(stderr);
		return DCFG_EXIT_USAGE;
	}
	if (has_from && has_to && opt.from >= opt.to) {
		fprintf(stderr, "%s: --from-icount must be below --to-icount\n", prog);
		return DCFG_EXIT_USAGE;
	}
	opt.window = has_from || has_to;
	trace = optind < argc ? argv[optind] : "-";
	if (dcfg_path && strcmp(dcfg_path, "-") == 0 && strcmp(trace, "-") == 0) {
		fprintf(stderr, "%s: the DCFG and the trace cannot both be standard input\n", prog);
		return DCFG_EXIT_USAGE;
	}

	if (dcfg_cli_setup(&io, prog, dcfg_path, DCFG_KEEP_BLOCKS | DCFG_KEEP_EDGES,
	    out_path, mode) < 0)
		return DCFG_EXIT_USAGE;
	opt.dcfg = io.dcfg;
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = &io.progress;
	rc = dcfg_expand(trace, &opt, io.out, &err);
	return dcfg_cli_finish(&io, rc, &err, 1);
}
