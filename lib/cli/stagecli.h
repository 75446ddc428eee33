/*
 * The command line every stream stage shares: --dcfg, -o, --progress,
 * --quiet, --help, --version, one STREAM; and the check that the DCFG has
 * the tables the stage needs.
 */
#ifndef DCFG_STAGECLI_H
#define DCFG_STAGECLI_H

#include <getopt.h>

#include "cli.h"

struct dcfg_stage_args {
	const char *dcfg_path, *out_path, *stream;
	enum dcfg_progress_mode mode;
	enum dcfg_progress_mode option;   /* what --progress or --quiet asked, before the stream is seen */
	int stop;     /* --help, --version or a usage error: the command ends ... */
	int status;   /* ... with this exit status */
};

/*
 * Handles the shared options (returns 1), or leaves C to the caller
 * (returns 0); HELP is printed for -h. After --help, --version or a
 * usage error it sets A->stop, and the command returns A->status: the
 * library never ends the program itself.
 */
int dcfg_stage_option(int c, const char *prog, const char *help,
    struct dcfg_stage_args *a);
/*
 * After getopt: the STREAM argument, and checks. -1 after a message.
 * A->mode becomes the mode the stream, the main input, and DCFG_PROGRESS
 * give (dcfg_progress_mode_for).
 */
int dcfg_stage_finish_args(int argc, char **argv, const char *prog, const char *help,
    struct dcfg_stage_args *a, int need_dcfg);
/* -1 with a message when the DCFG lacks EDGES (need_edges) or BASIC_BLOCKS (need_blocks). */
int dcfg_stage_check_tables(const char *prog, const char *path, const struct dcfg *d,
    int need_edges, int need_blocks);

#define DCFG_STAGE_LONGOPTS \
	{ "dcfg", required_argument, NULL, 'd' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "progress", no_argument, NULL, 'P' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }
#define DCFG_STAGE_SHORTOPTS "d:o:qhV"

#endif
