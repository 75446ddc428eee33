/* dcfg-regions: simulation regions from a profile and SimPoint's answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regions/regions.h"
#include "common/textlines.h"
#include "cli/stagecli.h"

static const char *prog = "dcfg-regions";
static const char help[] =
    "usage: dcfg-regions -s T.SIMPOINTS -w T.WEIGHTS [-l T.LABELS]\n"
    "                    [--warmup-factor W] [--thread TID]\n"
    "                    [--format csv|looppoint-json|sde-control]\n"
    "                    [--dcfg FILE [-p PID] [--global-counts]] [-o FILE] PROFILE\n"
    "       dcfg-regions --check -s T.SIMPOINTS -w T.WEIGHTS [-l T.LABELS]\n"
    "                    [--max-distance D] [--thread TID]\n"
    "                    [--format tsv|csv|json|table]\n"
    "                    [--dcfg FILE [-p PID]] [-o FILE] PROFILE\n"
    "Write the regions SimPoint chose from a per-thread profile (.bb): the\n"
    "region CSV of PinPoints and LoopPoint, gem5's looppoint.json, or SDE\n"
    "-control arguments; or, with --check, how far the whole run they project\n"
    "is from the profile's.\n"
    "  -s, --simpoints FILE   SimPoint's -saveSimpoints file (SLICE CLUSTER lines)\n"
    "  -w, --weights FILE     SimPoint's -saveSimpointWeights file (WEIGHT CLUSTER)\n"
    "  -l, --labels FILE      SimPoint's -saveLabels file, for exact multipliers\n"
    "      --warmup-factor W  a warmup region of W slices before each region\n"
    "  -f, --format FORMAT    csv (default), looppoint-json or sde-control;\n"
    "                         with --check tsv (default), csv, json or table\n"
    "      --check            each block's share of the run and of the projection,\n"
    "                         the error, and the BBV distance, instead of the\n"
    "                         regions\n"
    "      --max-distance D   with --check: exit 1 when the BBV distance is above D\n"
    "      --thread TID       the thread id, for a profile without a P: line\n"
    "  -d, --dcfg FILE        the profile's DCFG: proves that no other thread runs\n"
    "                         the markers' PCs (looppoint-json, --global-counts);\n"
    "                         with --check, each routine's share too\n"
    "  -p, --pid PID          the profile's process in the DCFG, when it names none\n"
    "      --global-counts    sde-control: :global counts instead of :tidN\n"
    "  -o, --output FILE      write to FILE\n"
    "  -h, --help             print this help\n"
    "  -V, --version          print the version\n";

static void
note(void *ctx, const char *message)
{
	(void)ctx;
	fprintf(stderr, "%s: note: %s\n", prog, message);
}

static int
usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg ? DCFG_CLI_SHOWN(arg) : "");
	fprintf(stderr, "\n%s", help);
	return DCFG_EXIT_USAGE;
}

static int
number(const char *s, uint64_t *v)
{
	return dcfg_textlines_number(s, strlen(s), v);
}

/* A BBV distance: a decimal from 0 to 2. */
static int
distance(const char *s, double *v)
{
	char *end;

	if (strspn(s, "0123456789.") != strlen(s) || *s == '\0')
		return -1;
	*v = strtod(s, &end);
	return *end == '\0' && *v >= 0 && *v <= 2 ? 0 : -1;
}

/*
 * A count that every thread adds to (:global, gem5's) needs the DCFG to
 * prove it is the thread's own (dcfg-regions(1), THREADS).
 */
static int
counts_scope(const struct dcfg_regions_files *f, const struct dcfg_regions_options *o)
{
	if (o->global_counts && o->format != DCFG_REGIONS_SDE_CONTROL)
		return usage("--global-counts is for -f sde-control (the CSV's counts have no scope)%s", NULL);
	if ((o->global_counts || o->format == DCFG_REGIONS_LOOPPOINT_JSON || o->has_pid) &&
	    f->dcfg == NULL)
		return usage("%s needs the profile's DCFG (--dcfg FILE): only it shows whether other "
		    "threads run the markers' PCs", o->has_pid ? "-p" : o->global_counts ?
		    "--global-counts" : "-f looppoint-json (gem5 counts every core's executions)");
	return DCFG_EXIT_OK;
}

static const struct option longopts[] = {
	{ "simpoints", required_argument, NULL, 's' },
	{ "weights", required_argument, NULL, 'w' },
	{ "labels", required_argument, NULL, 'l' },
	{ "warmup-factor", required_argument, NULL, 'W' },
	{ "format", required_argument, NULL, 'f' },
	{ "thread", required_argument, NULL, 'T' },
	{ "dcfg", required_argument, NULL, 'd' },
	{ "pid", required_argument, NULL, 'p' },
	{ "global-counts", no_argument, NULL, 'G' },
	{ "output", required_argument, NULL, 'o' },
	{ "check", no_argument, NULL, 'C' },
	{ "max-distance", required_argument, NULL, 'D' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* The options given together, and FORMAT (NULL: the default) read by --check's or not. */
static int
combination(const struct dcfg_regions_files *f, struct dcfg_regions_options *o, const char *format)
{
	if (f->simpoints == NULL || f->weights == NULL)
		return usage("--simpoints FILE and --weights FILE are needed%s", NULL);
	if (o->check && format && dcfg_table_format_parse(format, &o->table_format) < 0)
		return usage("--format %s: with --check, " DCFG_TABLE_FORMAT_NAMES, format);
	if (!o->check && format && dcfg_regions_format_by_name(format, &o->format) < 0)
		return usage("--format %s: csv, looppoint-json or sde-control", format);
	if (o->check && o->warmup_factor > 0)
		return usage("--warmup-factor with --check: warmup regions are not in the projection%s",
		    NULL);
	if (o->has_max_distance && !o->check)
		return usage("--max-distance is a limit of --check%s", NULL);
	if (o->warmup_factor > 0 && o->format == DCFG_REGIONS_SDE_CONTROL)
		return usage("--warmup-factor has no -control form: use the CSV or looppoint-json%s", NULL);
	return counts_scope(f, o);
}

int
main(int argc, char **argv)
{
	struct dcfg_regions_files f = { 0 };
	struct dcfg_regions_options o = { .note = note };
	const char *out_path = NULL, *format = NULL, **inputs;
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, rc, stdin_users = 0;
	size_t i;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	while ((c = getopt_long(argc, argv, "s:w:l:f:o:d:p:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 's': f.simpoints = optarg; break;
		case 'w': f.weights = optarg; break;
		case 'l': f.labels = optarg; break;
		case 'o': out_path = optarg; break;
		case 'd': f.dcfg = optarg; break;
		case 'G': o.global_counts = 1; break;
		case 'p':
			if (number(optarg, &o.pid) < 0)
				return usage("-p %s: a process id", optarg);
			o.has_pid = 1;
			break;
		case 'W':
			if (number(optarg, &o.warmup_factor) < 0 || o.warmup_factor == 0)
				return usage("--warmup-factor %s: a number of slices, 1 or more", optarg);
			break;
		case 'T':
			if (number(optarg, &o.thread) < 0)
				return usage("--thread %s: a thread id", optarg);
			o.has_thread = 1;
			break;
		case 'f': format = optarg; break;
		case 'C': o.check = 1; break;
		case 'D':
			if (distance(optarg, &o.max_distance) < 0)
				return usage("--max-distance %s: a BBV distance, 0 to 2", optarg);
			o.has_max_distance = 1;
			break;
		case 'h':
			fputs(help, stdout);
			return DCFG_EXIT_OK;
		case 'V':
			printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION);
			return DCFG_EXIT_OK;
		default:
			fputs(help, stderr);
			return DCFG_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage("one PROFILE expected%s", NULL);
	f.profile = argv[optind];
	if ((rc = combination(&f, &o, format)) != DCFG_EXIT_OK)
		return rc;
	inputs = (const char *[]){ f.profile, f.simpoints, f.weights, f.labels, f.dcfg };
	for (i = 0; i < 5; i++)
		stdin_users += inputs[i] && !strcmp(inputs[i], "-");
	if (stdin_users > 1)
		return usage("only one input can be standard input%s", NULL);
	if (dcfg_cli_check_output(prog, out_path, inputs, 5) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_setup(&io, prog, f.dcfg, DCFG_KEEP_ALL, out_path, DCFG_PROGRESS_OFF) < 0)
		return DCFG_EXIT_USAGE;
	o.dcfg = io.dcfg;
	rc = dcfg_regions_run(&f, &o, io.out, &err);
	if (rc == 1) {   /* the check failed: the table is written, and says by how much */
		rc = dcfg_cli_finish(&io, 0, &err, 0);
		dcfg_cli_error(prog, &err);
		return rc == DCFG_EXIT_OK ? DCFG_EXIT_CHECK : rc;
	}
	return dcfg_cli_finish(&io, rc, &err, 0);
}
