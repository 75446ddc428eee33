/* dcfg-count: a stream, or a DCFG's own counts, aggregated; or basic-block vectors. */
#include <stdio.h>
#include <string.h>

#include <dcfg/count.h>
#include "cli/count_stream.h"
#include "count/count_merge.h"
#include "common/json.h"
#include "cli/stagecli.h"
#include "cli/usage.h"

static const char *prog = "dcfg-count";
static const char help_head[] =
    "usage: dcfg-count --dcfg FILE [--by KIND] [--top N] [-f FORMAT] [-o FILE]\n"
    "                  [STREAM]\n"
    "       dcfg-count --dcfg FILE --from-dcfg [--by KIND] [--top N] [-f FORMAT]\n"
    "       dcfg-count --dcfg FILE --bbv INTERVAL [STREAM]\n"
    "       dcfg-count --merge [--top N] [-f FORMAT] [--dcfg FILE] [-o FILE] TABLE...\n"
    "Count executions and instructions by edge, block, routine, loop, image, type,\n"
    "thread, source line or source file; or write SimPoint basic-block vectors;\n"
    "or merge the tables (or vectors) of shards of one trace into the whole's.\n"
    "  -d, --dcfg FILE      the DCFG the stream's edges come from\n"
    "  -b, --by KIND        ";
/* here the kinds (<dcfg/count.h>), wrapped to this column */
#define HELP_INDENT 23
static const char help_tail[] =
    "\n"
    "  -n, --top N          only the first N rows of each process\n"
    "  -f, --format FORMAT  tsv (default), csv, json or table (aligned, for people)\n"
    "      --from-dcfg      count from the DCFG's own edge counts, not a stream\n"
    "      --bbv INTERVAL   basic-block vectors, one per INTERVAL instructions of a\n"
    "                       thread, placed by the stream's chunk markers\n"
    "      --merge          add up tables that dcfg-count wrote for shards\n"
    "  -o, --output FILE    write to FILE\n"
    "      --progress       show progress on standard error\n"
    "  -q, --quiet          never show progress\n"
    "  -h, --help           print this help\n"
    "  -V, --version        print the version\n";

/* The kinds' names: "edge, block, ..." with LAST before the last, wrapped at INDENT unless -1. */
static void
kinds(struct dcfg_cli_text *t, const char *last, int indent, enum dcfg_count_by marked)
{
	char item[64];
	int i;

	for (i = 0; i < DCFG_BY_KINDS; i++) {
		snprintf(item, sizeof item, "%s%s", dcfg_count_by_name((enum dcfg_count_by)i),
		    i == (int)marked ? " (default)" : "");
		dcfg_cli_text_item(t, i == 0 ? NULL : i == DCFG_BY_KINDS - 1 ? last : ", ", item,
		    i == DCFG_BY_KINDS - 1, indent);
	}
}

static int
number(const char *opt, const char *arg, uint64_t *v)
{
	const char *why;

	if (dcfg_parse_c_integer(arg, strlen(arg), v, &why) < 0 || *v == 0) {
		fprintf(stderr, "%s: %s %s: a number above 0 is needed\n", prog, opt, DCFG_CLI_SHOWN(arg));
		return -1;
	}
	return 0;
}

/* --merge: the tables are the arguments; the kind is theirs. */
static int
merge_tables(int argc, char **argv, const struct dcfg_stage_args *a, const struct dcfg_count_options *o,
    int kind_given, int format_given, const char *help)
{
	struct dcfg_count_merge_options mo = { .top = o->top, .format = o->format,
		.format_given = format_given };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int rc;

	if (kind_given) {
		fprintf(stderr, "%s: --merge takes the kind from the tables: no --by, --bbv or "
		    "--from-dcfg\n", prog);
		return DCFG_EXIT_USAGE;
	}
	if (optind == argc) {
		fprintf(stderr, "%s: --merge needs the tables to merge\n%s", prog, help);
		return DCFG_EXIT_USAGE;
	}
	if (dcfg_cli_check_output(prog, a->out_path, (const char *const *)argv + optind,
	    (size_t)(argc - optind)) < 0 ||
	    dcfg_cli_check_output(prog, a->out_path, &a->dcfg_path, 1) < 0)
		return DCFG_EXIT_USAGE;
	/* the main input is the first table, as a stream is the other commands' */
	if (dcfg_cli_setup(&io, prog, a->dcfg_path, 0, a->out_path,
	    dcfg_progress_mode_for(a->mode, argv[optind])) < 0)
		return DCFG_EXIT_USAGE;
	if (io.dcfg) {
		mo.check_dcfg = 1;
		mo.crc32 = io.dcfg->crc32;
		mo.bytes = io.dcfg->bytes;
	}
	rc = dcfg_count_merge(argv + optind, (size_t)(argc - optind), &mo, io.out, &err);
	return dcfg_cli_finish(&io, rc, &err, 0);
}

int
main(int argc, char **argv)
{
	enum { OPT_FROM = 256, OPT_BBV, OPT_MERGE };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "by", required_argument, NULL, 'b' },
		{ "top", required_argument, NULL, 'n' },
		{ "from-dcfg", no_argument, NULL, OPT_FROM },
		{ "bbv", required_argument, NULL, OPT_BBV },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_count_options o = { .by = DCFG_BY_DEFAULT };
	struct dcfg_stage s = { 0 };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	struct dcfg_cli_text h = { .len = 0 };
	const char *help;
	int c, from_dcfg = 0, merge = 0, by_given = 0, format_given = 0, rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	dcfg_cli_text_add(&h, help_head);
	kinds(&h, ", ", HELP_INDENT, o.by);
	dcfg_cli_text_add(&h, help_tail);
	help = h.buf;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "b:n:f:", longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a)) {
			if (a.stop)
				return a.status;
			continue;
		}
		switch (c) {
		case 'b':
			if (dcfg_count_by_parse(optarg, &o.by) < 0) {
				struct dcfg_cli_text names = { .len = 0 };
				kinds(&names, " or ", -1, DCFG_BY_KINDS);
				fprintf(stderr, "%s: --by %s: not %s\n", prog, DCFG_CLI_SHOWN(optarg),
				    names.buf);
				return DCFG_EXIT_USAGE;
			}
			by_given = 1;
			break;
		case 'n':
			if (number("--top", optarg, &o.top) < 0)
				return DCFG_EXIT_USAGE;
			break;
		case 'f':
			if (dcfg_table_format_parse(optarg, &o.format) < 0) {
				fprintf(stderr, "%s: --format %s: not %s\n", prog, DCFG_CLI_SHOWN(optarg),
				    DCFG_TABLE_FORMAT_NAMES);
				return DCFG_EXIT_USAGE;
			}
			format_given = 1;
			break;
		case OPT_FROM: from_dcfg = 1; break;
		case OPT_MERGE: merge = 1; break;
		case OPT_BBV:
			if (number("--bbv", optarg, &o.bbv) < 0)
				return DCFG_EXIT_USAGE;
			break;
		}
	}
	if (format_given && o.bbv) {
		fprintf(stderr, "%s: --bbv writes SimPoint's vectors, in their one format: no --format\n",
		    prog);
		return DCFG_EXIT_USAGE;
	}
	if (merge)
		return merge_tables(argc, argv, &a, &o, by_given || from_dcfg || o.bbv, format_given,
		    help);
	if (dcfg_stage_finish_args(argc, argv, prog, help, &a, 1) < 0)
		return DCFG_EXIT_USAGE;
	if (from_dcfg && (o.bbv || optind < argc)) {
		fprintf(stderr, "%s: --from-dcfg reads no stream (and makes no vectors)\n", prog);
		return DCFG_EXIT_USAGE;
	}
	if (from_dcfg)   /* the DCFG is the main input */
		a.mode = dcfg_progress_mode_for(a.option, a.dcfg_path);
	if (dcfg_cli_check_output(prog, a.out_path, (const char *[]){ a.dcfg_path,
	    from_dcfg ? NULL : a.stream }, 2) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_setup(&io, prog, a.dcfg_path, dcfg_count_by_keep(o.by), a.out_path,
	    a.mode) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_stage_check_tables(prog, a.dcfg_path, io.dcfg, 1, 1) < 0) {
		dcfg_cli_discard(&io);
		return DCFG_EXIT_USAGE;
	}
	if (from_dcfg) {
		rc = dcfg_count_dcfg(io.dcfg, io.out, &o, &err, a.dcfg_path);
		return dcfg_cli_finish(&io, rc, &err, 0);
	}
	s.dcfg = io.dcfg;
	s.progress = dcfg_progress_bytes;
	s.progress_ctx = &io.progress;
	rc = dcfg_count_stream(&s, io.out, a.stream, &o, &err);
	return dcfg_cli_finish(&io, rc, &err, 1);
}
