/* dcfg-profile: PinPoints / LoopPoint profiles, one per thread, from an edge stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "common/json.h"
#include "cli/stagecli.h"

static const char *prog = "dcfg-profile";
static const char help[] =
    "usage: dcfg-profile --dcfg FILE --slice-size N [--loop-aligned | --loop-grid]\n"
    "                    [--loop-image NAME]... [--exclude-image NAME]... [-p PID]\n"
    "                    -o BASE [STREAM]\n"
    "       dcfg-profile ... --thread TID [-o FILE] [STREAM]\n"
    "       dcfg-profile ... --part [--starts STARTS] [-o PART] [SHARD-STREAM]\n"
    "       dcfg-profile ... --loop-aligned --summary [-o SUMMARY] [SHARD-STREAM]\n"
    "       dcfg-profile --dcfg FILE --merge [-p PID] [--thread TID] -o BASE PART...\n"
    "       dcfg-profile --dcfg FILE --merge -o STARTS SUMMARY...\n"
    "Write a PinPoints/LoopPoint profile (.bb: SimPoint's vectors, slice markers\n"
    "and block table) of each thread of a process: BASE.T.<tid>.bb.\n"
    "  -d, --dcfg FILE           the DCFG the stream's edges come from\n"
    "  -N, --slice-size N        a slice ends at the first eligible block entry\n"
    "                            at or after each multiple of N instructions\n"
    "  -L, --loop-aligned        LoopPoint's rule: a slice ends at the first entry\n"
    "                            of a loop head N or more after the one before\n"
    "      --loop-grid           entries of loop heads, on the grid of multiples of N\n"
    "      --loop-image NAME     only the loops of this image (path or basename)\n"
    "  -x, --exclude-image NAME  leave this image's blocks out of the vectors\n"
    "  -p, --pid PID             the process (default: the stream's only one; with\n"
    "                            --part, every one the stream holds)\n"
    "  -t, --thread TID          only this thread, to -o FILE or standard output\n"
    "  -o, --output BASE         write BASE.T.<tid>.bb (with --thread: the file)\n"
    "      --part                write a shard's part (all threads) for --merge\n"
    "      --summary             --loop-aligned: a shard's summary, whose merge\n"
    "                            gives the starts of its --part\n"
    "      --starts STARTS       --part --loop-aligned: the merged summaries\n"
    "      --merge               the parts of a plan's shards into the files one run\n"
    "                            writes\n"
    "      --progress            show progress on standard error\n"
    "  -q, --quiet               never show progress\n"
    "  -h, --help                print this help\n"
    "  -V, --version             print the version\n";

static int
number(const char *opt, const char *arg, uint64_t *v, int positive)
{
	const char *why = "a number above 0 is needed";

	if (dcfg_parse_c_integer(arg, strlen(arg), v, &why) < 0 || (positive && *v == 0)) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, DCFG_CLI_SHOWN(arg),
		    positive ? "a number above 0 is needed" : why);
		return -1;
	}
	return 0;
}

static void
no_profile(void *ctx, uint64_t tid, const char *why)
{
	(void)ctx;
	fprintf(stderr, "%s: thread %llu: %s: no profile written\n", prog,
	    (unsigned long long)tid, why);
}

static int
usage(const char *msg)
{
	fprintf(stderr, "%s: %s\n%s", prog, msg, help);
	return DCFG_EXIT_USAGE;
}

/* --merge: the parts are the arguments; the profile's options are theirs. */
static int
merge_parts(int argc, char **argv, const struct dcfg_stage_args *a, struct dcfg_pinpoints_options *o)
{
	struct dcfg_cli_io io;
	struct dcfg_error err;
	const char *const *parts = (const char *const *)argv + optind;
	const char **inputs;
	size_t n = (size_t)(argc - optind);
	int rc;

	if (o->slice_size || o->loop_aligned || o->n_exclude || o->n_loop_images || o->part ||
	    o->starts)
		return usage("--merge takes the profile's options from the parts: no --slice-size, "
		    "--loop-aligned, --loop-grid, --loop-image, --exclude-image, --part, --summary "
		    "or --starts");
	if (n == 0)
		return usage("--merge needs the parts to merge");
	if (a->dcfg_path == NULL)
		return usage("--merge needs the DCFG (--dcfg) for the markers and the block table");
	if (!o->has_tid && a->out_path == NULL)
		return usage("-o BASE is needed (the files are BASE.T.<tid>.bb), or --thread TID");
	/* the parts, then the DCFG: no BASE.T.<tid>.bb may be one of them */
	if ((inputs = calloc(n + 1, sizeof *inputs)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return DCFG_EXIT_USAGE;
	}
	memcpy(inputs, parts, n * sizeof *inputs);
	inputs[n] = a->dcfg_path;
	o->inputs = inputs;
	o->n_inputs = n + 1;
	/* the main input is the first part, as a stream is the other commands' */
	if ((o->has_tid && dcfg_cli_check_output(prog, a->out_path, inputs, n + 1) < 0) ||
	    dcfg_cli_setup(&io, prog, a->dcfg_path, DCFG_KEEP_ALL & ~DCFG_KEEP_EDGE_COUNTS,
	    o->has_tid ? a->out_path : NULL, dcfg_progress_mode_for(a->mode, parts[0])) < 0) {
		free(inputs);
		return DCFG_EXIT_USAGE;
	}
	if (dcfg_stage_check_tables(prog, a->dcfg_path, io.dcfg, 0, 1) < 0) {
		dcfg_cli_discard(&io);
		free(inputs);
		return DCFG_EXIT_USAGE;
	}
	o->out = io.out;
	o->base = o->has_tid ? NULL : a->out_path;
	rc = dcfg_pinpoints_merge(io.dcfg, parts, n, o, &err);
	rc = dcfg_cli_finish(&io, rc, &err, 0);
	free(inputs);
	return rc;
}

/* The options of the rules and of the shards' passes that go together. */
static int
rule_usage(struct dcfg_pinpoints_options *o)
{
	int chained = o->loop_aligned && !o->loop_grid;

	if (o->summary && o->starts)
		return usage("--summary is the pass before --starts: not both");
	if (o->summary && !chained)
		return usage(o->loop_aligned ? "--summary is for --loop-aligned: the grid rule's parts "
		    "need none" : "--summary is for --loop-aligned: the fixed rule's parts need none");
	if (o->starts && (!o->part || !chained))
		return usage("--starts goes with --part --loop-aligned");
	if (o->part && chained && !o->summary && !o->starts)
		return usage("--part --loop-aligned needs each thread's threshold at the shard's "
		    "start: write each shard's --summary, merge them (--merge -o STARTS SUMMARY...), "
		    "then give --part --starts STARTS; or use --loop-grid, whose parts need none");
	return 0;
}

/* A stream into profiles, or into a shard's part. */
static int
profile_stream(int argc, char **argv, struct dcfg_stage_args *a, struct dcfg_pinpoints_options *o)
{
	struct dcfg_stage s = { 0 };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	const char *inputs[3];
	int rc;

	if (dcfg_stage_finish_args(argc, argv, prog, help, a, 1) < 0)
		return DCFG_EXIT_USAGE;
	if (o->part && o->has_tid)
		return usage(o->summary ? "--summary writes every thread: no --thread" :
		    "--part writes every thread: no --thread");
	if (o->slice_size == 0)
		return usage("--slice-size N is needed");
	if (o->n_loop_images > 0 && !o->loop_aligned)
		return usage("--loop-image chooses the loops of --loop-aligned or --loop-grid: give one");
	if (rule_usage(o) != 0)
		return DCFG_EXIT_USAGE;
	if (!o->has_tid && !o->part && a->out_path == NULL)
		return usage("-o BASE is needed (the files are BASE.T.<tid>.bb), or --thread TID");
	inputs[0] = a->dcfg_path;
	inputs[1] = a->stream;
	inputs[2] = o->starts;
	o->inputs = inputs;
	o->n_inputs = o->starts ? 3 : 2;
	if ((o->has_tid || o->part) && dcfg_cli_check_output(prog, a->out_path, inputs, o->n_inputs) < 0)
		return DCFG_EXIT_USAGE;
	/* without --thread the files are opened as the threads show up: standard output stays empty */
	if (dcfg_cli_setup(&io, prog, a->dcfg_path, DCFG_KEEP_ALL & ~DCFG_KEEP_EDGE_COUNTS,
	    o->has_tid || o->part ? a->out_path : NULL, a->mode) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_stage_check_tables(prog, a->dcfg_path, io.dcfg, 1, 1) < 0) {
		dcfg_cli_discard(&io);
		return DCFG_EXIT_USAGE;
	}
	o->out = io.out;
	o->base = o->has_tid || o->part ? NULL : a->out_path;
	s.dcfg = io.dcfg;
	s.progress = dcfg_progress_bytes;
	s.progress_ctx = &io.progress;
	rc = dcfg_pinpoints_stream(&s, a->stream, o, &err);
	return dcfg_cli_finish(&io, rc, &err, 0);
}


/* The command, with room for the repeatable options' names. */
static int
profile(int argc, char **argv, const char **exclude, const char **loop_images)
{
	enum { OPT_LOOP_IMAGE = 256, OPT_PART, OPT_MERGE, OPT_LOOP_GRID, OPT_SUMMARY, OPT_STARTS };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "slice-size", required_argument, NULL, 'N' },
		{ "loop-aligned", no_argument, NULL, 'L' },
		{ "loop-grid", no_argument, NULL, OPT_LOOP_GRID },
		{ "loop-image", required_argument, NULL, OPT_LOOP_IMAGE },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "starts", required_argument, NULL, OPT_STARTS },
		{ "exclude-image", required_argument, NULL, 'x' },
		{ "pid", required_argument, NULL, 'p' },
		{ "thread", required_argument, NULL, 't' },
		{ "part", no_argument, NULL, OPT_PART },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_pinpoints_options o = { .no_profile = no_profile,
	    .warning = dcfg_cli_warning, .ctx = (void *)prog };
	int c, merge = 0, chained = 0;

	o.exclude = exclude;
	o.loop_images = loop_images;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "N:Lx:p:t:", longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a)) {
			if (a.stop)
				return a.status;
			continue;
		}
		switch (c) {
		case 'N':
			if (number("--slice-size", optarg, &o.slice_size, 1) < 0)
				return DCFG_EXIT_USAGE;
			break;
		case 'L': o.loop_aligned = 1; chained = 1; break;
		case OPT_LOOP_GRID: o.loop_aligned = o.loop_grid = 1; break;
		case OPT_SUMMARY: o.part = o.summary = 1; break;
		case OPT_STARTS: o.starts = optarg; break;
		case OPT_PART: o.part = 1; break;
		case OPT_MERGE: merge = 1; break;
		case OPT_LOOP_IMAGE: loop_images[o.n_loop_images++] = optarg; break;
		case 'x': exclude[o.n_exclude++] = optarg; break;
		case 'p':
			if (number("-p", optarg, &o.pid, 0) < 0)
				return DCFG_EXIT_USAGE;
			o.has_pid = 1;
			break;
		case 't':
			if (number("--thread", optarg, &o.tid, 0) < 0)
				return DCFG_EXIT_USAGE;
			o.has_tid = 1;
			break;
		}
	}
	if (chained && o.loop_grid)
		return usage("--loop-aligned and --loop-grid are two rules: give one");
	if (merge)
		return merge_parts(argc, argv, &a, &o);
	return profile_stream(argc, argv, &a, &o);
}

int
main(int argc, char **argv)
{
	const char **exclude, **loop_images;
	int rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	exclude = calloc((size_t)argc + 1, sizeof *exclude);
	loop_images = calloc((size_t)argc + 1, sizeof *loop_images);
	if (exclude == NULL || loop_images == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = DCFG_EXIT_USAGE;
	} else {
		rc = profile(argc, argv, exclude, loop_images);
	}
	free(exclude);
	free(loop_images);
	return rc;
}
