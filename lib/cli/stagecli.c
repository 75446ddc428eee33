#include "stagecli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
stop(struct dcfg_stage_args *a, int status)
{
	a->stop = 1;
	a->status = status;
	return 1;
}

int
dcfg_stage_option(int c, const char *prog, const char *help,
    struct dcfg_stage_args *a)
{
	switch (c) {
	case 'd': a->dcfg_path = optarg; return 1;
	case 'o': a->out_path = optarg; return 1;
	case 'P': a->mode = DCFG_PROGRESS_ON; return 1;
	case 'q': a->mode = DCFG_PROGRESS_OFF; return 1;
	case 'h':
		fputs(help, stdout);
		return stop(a, DCFG_EXIT_OK);
	case 'V':
		printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION);
		return stop(a, DCFG_EXIT_OK);
	case '?':
		fputs(help, stderr);
		return stop(a, DCFG_EXIT_USAGE);
	}
	return 0;
}

int
dcfg_stage_finish_args(int argc, char **argv, const char *prog, const char *help,
    struct dcfg_stage_args *a, int need_dcfg)
{
	if (argc - optind > 1) {
		fprintf(stderr, "%s: one input file at most\n%s", prog, help);
		return -1;
	}
	a->stream = optind < argc ? argv[optind] : "-";
	if (a->dcfg_path && strcmp(a->dcfg_path, "-") == 0 && strcmp(a->stream, "-") == 0) {
		fprintf(stderr, "%s: the DCFG and the input cannot both be standard input\n", prog);
		return -1;
	}
	if (need_dcfg && a->dcfg_path == NULL) {
		fprintf(stderr, "%s: --dcfg FILE is needed\n%s", prog, help);
		return -1;
	}
	/* the stream is the main input: a stage reading a pipe leaves the meter to the one reading a file */
	a->option = a->mode;
	a->mode = dcfg_progress_mode_for(a->option, a->stream);
	return 0;
}

int
dcfg_stage_check_tables(const char *prog, const char *path, const struct dcfg *d,
    int need_edges, int need_blocks)
{
	struct dcfg_error err;

	if (need_edges && d->n_edges == 0)
		dcfg_error_set(&err, path, "the DCFG has no EDGES table");
	else if (need_blocks && d->n_blocks == 0)
		dcfg_error_set(&err, path, "the DCFG has no BASIC_BLOCKS table");
	else
		return 0;
	dcfg_cli_error(prog, &err);
	return -1;
}
