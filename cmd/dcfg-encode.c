/* dcfg-encode: an edge stream back into a DCFG-trace. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dcfg.h"
#include "encode.h"
#include "json.h"
#include "output.h"

static const char *prog = "dcfg-encode";

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: dcfg-encode [--dcfg FILE] [--chunk-edges N] [-o FILE]\n"
	    "                   [--progress | --quiet] [STREAM]\n"
	    "Write an edge stream (dcfg-stream(5)) as a DCFG-trace (- or no STREAM: standard input).\n"
	    "      --dcfg FILE      the paired DCFG, for instruction counts\n"
	    "      --chunk-edges N  at most N edges a chunk (default 1000000)\n"
	    "  -o, --output FILE    write to FILE\n"
	    "      --progress       show progress on standard error\n"
	    "  -q, --quiet          never show progress\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

int
main(int argc, char **argv)
{
	enum { OPT_DCFG = 256, OPT_CHUNK, OPT_PROGRESS };
	static const struct option longopts[] = {
		{ "dcfg", required_argument, NULL, OPT_DCFG },
		{ "chunk-edges", required_argument, NULL, OPT_CHUNK },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_encode_options opt = { .chunk_edges = 1000000 };
	enum dcfg_progress_mode mode = DCFG_PROGRESS_AUTO;
	const char *dcfg_path = NULL, *out_path = NULL, *stream, *why;
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, rc;

	dcfg_cli_start();
	while ((c = getopt_long(argc, argv, "o:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DCFG: dcfg_path = optarg; break;
		case OPT_CHUNK:
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &opt.chunk_edges, &why) < 0 ||
			    opt.chunk_edges == 0 || opt.chunk_edges > UINT32_MAX / 2) {
				fprintf(stderr, "%s: --chunk-edges %s: a number from 1 to %u is needed\n",
				    prog, optarg, UINT32_MAX / 2);
				return DCFG_EXIT_USAGE;
			}
			break;
		case 'o': out_path = optarg; break;
		case OPT_PROGRESS: mode = DCFG_PROGRESS_ON; break;
		case 'q': mode = DCFG_PROGRESS_OFF; break;
		case 'h': usage(stdout); return DCFG_EXIT_OK;
		case 'V': printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION); return DCFG_EXIT_OK;
		default: usage(stderr); return DCFG_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "%s: one STREAM at most\n", prog);
		usage(stderr);
		return DCFG_EXIT_USAGE;
	}
	stream = optind < argc ? argv[optind] : "-";
	if (dcfg_path && strcmp(dcfg_path, "-") == 0 && strcmp(stream, "-") == 0) {
		fprintf(stderr, "%s: the DCFG and the stream cannot both be standard input\n", prog);
		return DCFG_EXIT_USAGE;
	}

	if (dcfg_cli_setup(&io, prog, dcfg_path, DCFG_KEEP_BLOCKS | DCFG_KEEP_EDGES,
	    out_path, mode) < 0)
		return DCFG_EXIT_USAGE;
	opt.dcfg = io.dcfg;
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = &io.progress;
	rc = dcfg_encode(stream, &opt, io.out, &err);
	return dcfg_cli_finish(&io, rc, &err, 0);
}
