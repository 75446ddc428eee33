/* dcfg-encode: an edge stream back into a DCFG-trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode/encode.h"
#include "common/json.h"
#include "cli/stagecli.h"

static const char *prog = "dcfg-encode";

static const char help[] =
    "usage: dcfg-encode [--dcfg FILE] [--chunk-edges N] [-o FILE]\n"
    "                   [--progress | --quiet] [STREAM]\n"
    "Write an edge stream (dcfg-stream(5); - or no STREAM: standard input) as a\n"
    "DCFG-trace; the runs of a version 2 stream become repeats, never written out.\n"
    "  -d, --dcfg FILE      the paired DCFG, for instruction counts\n"
    "      --chunk-edges N  at most N edges a chunk, but a run is kept whole\n"
    "                       (default 1000000)\n"
    "  -o, --output FILE    write to FILE\n"
    "      --progress       show progress on standard error\n"
    "  -q, --quiet          never show progress\n"
    "  -h, --help           print this help\n"
    "  -V, --version        print the version\n";

int
main(int argc, char **argv)
{
	enum { OPT_CHUNK = 256 };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "chunk-edges", required_argument, NULL, OPT_CHUNK },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_encode_options opt = { .chunk_edges = 1000000 };
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	const char *why;
	int c, rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS, longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a)) {
			if (a.stop)
				return a.status;
			continue;
		}
		if (c == OPT_CHUNK &&
		    (dcfg_parse_c_integer(optarg, strlen(optarg), &opt.chunk_edges, &why) < 0 ||
		    opt.chunk_edges == 0 || opt.chunk_edges > UINT32_MAX / 2)) {
			fprintf(stderr, "%s: --chunk-edges %s: a number from 1 to %u is needed\n",
			    prog, DCFG_CLI_SHOWN(optarg), UINT32_MAX / 2);
			return DCFG_EXIT_USAGE;
		}
	}
	if (dcfg_stage_finish_args(argc, argv, prog, help, &a, 0) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_check_output(prog, a.out_path, (const char *[]){ a.dcfg_path, a.stream }, 2) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_setup(&io, prog, a.dcfg_path, DCFG_KEEP_BLOCKS | DCFG_KEEP_EDGES,
	    a.out_path, a.mode) < 0)
		return DCFG_EXIT_USAGE;
	opt.dcfg = io.dcfg;
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = &io.progress;
	rc = dcfg_encode(a.stream, &opt, io.out, &err);
	return dcfg_cli_finish(&io, rc, &err, 0);
}
