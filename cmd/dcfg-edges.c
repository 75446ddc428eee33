/* dcfg-edges: each edge of a stream with its source, target and type. */
#include <stdio.h>
#include <string.h>

#include "stream/edges.h"
#include "cli/stagecli.h"

static const char *prog = "dcfg-edges";
static const char help[] =
    "usage: dcfg-edges --dcfg FILE [--type LIST] [-o FILE] [STREAM]\n"
    "       dcfg-edges --dcfg FILE --list\n"
    "Append each edge's source node, target node and type to an edge stream.\n"
    "  -d, --dcfg FILE    the DCFG the stream's edges come from\n"
    "  -t, --type LIST    keep only these types or classes (branch, call, return,\n"
    "                     bypass, system, context, entry, exit), comma-separated\n"
    "  -l, --list         print the DCFG's edge table instead\n"
    "  -o, --output FILE  write to FILE\n"
    "      --progress     show progress on standard error\n"
    "  -q, --quiet        never show progress\n"
    "  -h, --help         print this help\n"
    "  -V, --version      print the version\n";

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "type", required_argument, NULL, 't' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_stage s = { 0 };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	uint64_t types = 0;
	int c, list = 0, rc;
	char bad[64];

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "t:l", longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a)) {
			if (a.stop)
				return a.status;
			continue;
		}
		if (c == 'l') {
			list = 1;
		} else if (c == 't' && dcfg_edge_types_parse(optarg, &types, bad, sizeof bad) < 0) {
			fprintf(stderr, "%s: --type %s: not an edge type or class\n", prog, DCFG_CLI_SHOWN(bad));
			return DCFG_EXIT_USAGE;
		}
	}
	if (dcfg_stage_finish_args(argc, argv, prog, help, &a, 1) < 0)
		return DCFG_EXIT_USAGE;
	if (list)   /* no stream is read: the DCFG is the main input */
		a.mode = dcfg_progress_mode_for(a.option, a.dcfg_path);
	if (dcfg_cli_check_output(prog, a.out_path, (const char *[]){ a.dcfg_path, a.stream }, 2) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_setup(&io, prog, a.dcfg_path, DCFG_KEEP_EDGES | DCFG_KEEP_EDGE_COUNTS,
	    a.out_path, a.mode) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_stage_check_tables(prog, a.dcfg_path, io.dcfg, 1, 0) < 0) {
		dcfg_cli_discard(&io);
		return DCFG_EXIT_USAGE;
	}
	if (list) {
		dcfg_edges_list(io.out, io.dcfg);
		return dcfg_cli_finish(&io, 0, &err, 0);
	}
	s.dcfg = io.dcfg;
	s.out = io.out;
	s.progress = dcfg_progress_bytes;
	s.progress_ctx = &io.progress;
	rc = dcfg_edges_run(&s, a.stream, types, &err);
	return dcfg_cli_finish(&io, rc, &err, 1);
}
