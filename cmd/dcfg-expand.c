/* dcfg-expand: the edges a DCFG-trace records, in order, as an edge stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "json.h"
#include "stagecli.h"

#define MAX_IDS 1024

static const char *prog = "dcfg-expand";

static const char help[] =
	    "usage: dcfg-expand [-p PID] [-t TID] [--chunks] [--runs] [--list | --count]\n"
	    "                   [--from-icount N] [--to-icount N] [--dcfg FILE]\n"
	    "                   [-o FILE] [--progress | --quiet] [TRACE]\n"
	    "Print the edges a DCFG-trace records, in order (- or no TRACE: standard input).\n"
	    "  -p, --pid PID        only this process (repeatable)\n"
	    "  -t, --thread TID     only this thread (repeatable)\n"
	    "      --chunks         mark where each chunk starts\n"
	    "      --runs           write repeats that decode alike once, as runs\n"
	    "      --list           print the chunk table, decoding nothing\n"
	    "      --count          print per-thread edge and instruction totals\n"
	    "      --from-icount N  start of the instruction window, per thread\n"
	    "      --to-icount N    end of the window (not included)\n"
	    "  -d, --dcfg FILE      the paired DCFG: cut the window at the exact edge\n"
	    "  -o, --output FILE    write to FILE\n"
	    "      --progress       show progress on standard error\n"
	    "  -q, --quiet          never show progress\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n";

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
	enum { OPT_CHUNKS = 256, OPT_LIST, OPT_COUNT, OPT_FROM, OPT_TO, OPT_RUNS };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "pid", required_argument, NULL, 'p' },
		{ "thread", required_argument, NULL, 't' },
		{ "chunks", no_argument, NULL, OPT_CHUNKS },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "count", no_argument, NULL, OPT_COUNT },
		{ "runs", no_argument, NULL, OPT_RUNS },
		{ "from-icount", required_argument, NULL, OPT_FROM },
		{ "to-icount", required_argument, NULL, OPT_TO },
		{ NULL, 0, NULL, 0 }
	};
	static uint64_t pids[MAX_IDS], tids[MAX_IDS];
	struct dcfg_expand_options opt = { .mode = DCFG_EXPAND_EDGES, .pids = pids, .tids = tids };
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, has_from = 0, has_to = 0, rc;

	dcfg_cli_start();
	opt.to = UINT64_MAX;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "p:t:", longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a))
			continue;
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
		case OPT_RUNS: opt.runs = 1; break;
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
		}
	}
	if (dcfg_stage_finish_args(argc, argv, prog, help, &a, 0) < 0)
		return DCFG_EXIT_USAGE;
	if (has_from && has_to && opt.from >= opt.to) {
		fprintf(stderr, "%s: --from-icount must be below --to-icount\n", prog);
		return DCFG_EXIT_USAGE;
	}
	opt.window = has_from || has_to;
	if (dcfg_cli_setup(&io, prog, a.dcfg_path, DCFG_KEEP_BLOCKS | DCFG_KEEP_EDGES,
	    a.out_path, a.mode) < 0)
		return DCFG_EXIT_USAGE;
	opt.dcfg = io.dcfg;
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = &io.progress;
	rc = dcfg_expand(a.stream, &opt, io.out, &err);
	return dcfg_cli_finish(&io, rc, &err, 1);
}
