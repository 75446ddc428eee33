/* dcfg-blocks: the block each edge of a stream enters, with where it is. */
#include <stdio.h>
#include <string.h>

#include "stream/blocks.h"
#include "cli/stagecli.h"

static const char *prog = "dcfg-blocks";
static const char help[] =
    "usage: dcfg-blocks --dcfg FILE [--offsets] [-o FILE] [STREAM]\n"
    "       dcfg-blocks --dcfg FILE --list\n"
    "Append the block each edge enters: node, address, image, offset, size,\n"
    "instructions, symbol+offset and source line.\n"
    "  -d, --dcfg FILE    the DCFG the stream's edges come from\n"
    "      --offsets      print only image+offset and symbol, for diffing runs\n"
    "  -l, --list         print the DCFG's blocks with their counts instead\n"
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
		{ "offsets", no_argument, NULL, 'O' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_stage s = { 0 };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, list = 0, offsets = 0, rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "l", longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a)) {
			if (a.stop)
				return a.status;
			continue;
		}
		if (c == 'l')
			list = 1;
		else if (c == 'O')
			offsets = 1;
	}
	if (dcfg_stage_finish_args(argc, argv, prog, help, &a, 1) < 0)
		return DCFG_EXIT_USAGE;
	if (list)   /* no stream is read: the DCFG is the main input */
		a.mode = dcfg_progress_mode_for(a.option, a.dcfg_path);
	if (dcfg_cli_check_output(prog, a.out_path, (const char *[]){ a.dcfg_path, a.stream }, 2) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_setup(&io, prog, a.dcfg_path, DCFG_KEEP_ALL & ~DCFG_KEEP_EDGE_COUNTS &
	    ~DCFG_KEEP_ROUTINES, a.out_path, a.mode) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_stage_check_tables(prog, a.dcfg_path, io.dcfg, !list, 1) < 0) {
		dcfg_cli_discard(&io);
		return DCFG_EXIT_USAGE;
	}
	if (list) {
		if (dcfg_blocks_list(io.out, io.dcfg) < 0) {
			dcfg_error_set(&err, a.dcfg_path, "out of memory");
			return dcfg_cli_finish(&io, -1, &err, 0);
		}
		return dcfg_cli_finish(&io, 0, &err, 0);
	}
	s.dcfg = io.dcfg;
	s.out = io.out;
	s.progress = dcfg_progress_bytes;
	s.progress_ctx = &io.progress;
	rc = dcfg_blocks_run(&s, a.stream, offsets, &err);
	return dcfg_cli_finish(&io, rc, &err, 1);
}
