/* dcfg-convert: a DCFG (and its trace) in the formats other tools read. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "convert/convert.h"
#include "convert/bolt.h"
#include "record/elf_functions.h"
#include "common/json.h"
#include "cli/stagecli.h"
#include "cli/usage.h"

static const char *prog = "dcfg-convert";
static const char help_head[] =
    "usage: dcfg-convert --to FORMAT --dcfg FILE [--trace FILE] [-p PID]\n"
    "                    [-o FILE | --out-dir DIR] [--separate-threads] [--cmd TEXT]\n"
    "                    [--keep-stubs]\n"
    "                    [--cpuspeed MHZ] [--routine NAME|ID]... [--node ID]...\n"
    "                    [--min-count N] [--all-edges] [--image NAME] [--binary FILE]\n"
    "Write a DCFG as a profile or graph other tools read.\n"
    "  -f, --to FORMAT        ";
/* here the formats (convert.h), wrapped to this column */
#define HELP_INDENT 25
static const char help_tail[] =
    "\n"
    "  -d, --dcfg FILE        the DCFG\n"
    "  -T, --trace FILE       its DCFG-trace: exact inclusive costs of calls\n"
    "  -p, --pid PID          the process to convert\n"
    "  -o, --output FILE      write to FILE\n"
    "      --out-dir DIR      write DIR/FORMAT.out.PID for each process\n"
    "                         (dcpi: DIR/IMAGE)\n"
    "      --separate-threads one file per thread, DIR/FORMAT.out.PID-TT\n"
    "      --cmd TEXT         the command line, for the profile's header\n"
    "      --keep-stubs       show calls into PLT stubs as calls into the stubs\n"
    "      --cpuspeed MHZ     dcpi: the processor's clock, for the header\n"
    "      --routine NAME|ID  dot: a routine's blocks, by name or entry node id\n"
    "      --node ID          dot: the routine that holds block ID\n"
    "      --min-count N      dot: leave out what ran fewer than N times\n"
    "      --all-edges        dot: draw the edges that never ran, and what only\n"
    "                         they reach\n"
    "      --image NAME       bolt: the image by path or base name, else the program\n"
    "      --binary FILE      bolt: the image's binary, if not where the DCFG says\n"
    "      --progress         show progress on standard error\n"
    "  -q, --quiet            never show progress\n"
    "  -h, --help             print this help\n"
    "  -V, --version          print the version\n";

/* The formats' names, joined by commas: with what each is, wrapped, for --help. */
static void
format_list(struct dcfg_cli_text *t, int help)
{
	const struct dcfg_format *f;
	char item[128];
	size_t i;

	for (i = 0; (f = dcfg_format_at(i)) != NULL; i++) {
		if (help && f->about)
			snprintf(item, sizeof item, "%s (%s)", f->name, f->about);
		else
			snprintf(item, sizeof item, "%s", f->name);
		dcfg_cli_text_item(t, i == 0 ? NULL : ", ", item, dcfg_format_at(i + 1) == NULL,
		    help ? HELP_INDENT : -1);
	}
}

static int
usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, DCFG_CLI_SHOWN(arg));
	fputc('\n', stderr);
	return DCFG_EXIT_USAGE;
}

/* The first option given that FORMAT has no use for, or NULL. */
static const char *
unused_option(unsigned uses, const struct dcfg_convert_options *o, int cpuspeed, int min_count)
{
	/* a routine's blocks count the same with or without the trace's replay */
	if ((uses & DCFG_FORMAT_ROUTINE) && (o->n_routines || o->n_nodes) && o->trace_path)
		return "--trace";
	if (!(uses & DCFG_FORMAT_TRACE)) {
		if (o->trace_path)
			return "--trace";
		if (o->separate_threads)
			return "--separate-threads";
		if (o->cmd)
			return "--cmd";
	}
	if (!(uses & (DCFG_FORMAT_TRACE | DCFG_FORMAT_ROUTINE)) && o->keep_stubs)
		return "--keep-stubs";
	if (!(uses & DCFG_FORMAT_OUT_DIR) && o->out_dir)
		return "--out-dir";
	if (!(uses & DCFG_FORMAT_CPUSPEED) && cpuspeed)
		return "--cpuspeed";
	if (!(uses & DCFG_FORMAT_ROUTINE) && o->n_routines)
		return "--routine";
	if (!(uses & DCFG_FORMAT_ROUTINE) && o->n_nodes)
		return "--node";
	if (!(uses & DCFG_FORMAT_ROUTINE) && min_count)
		return "--min-count";
	if (!(uses & DCFG_FORMAT_ROUTINE) && o->all_edges)
		return "--all-edges";
	if (!(uses & DCFG_FORMAT_IMAGE) && o->image)
		return "--image";
	if (!(uses & DCFG_FORMAT_IMAGE) && o->binary)
		return "--binary";
	return NULL;
}

/* SOURCE_DATE_EPOCH (decimal seconds) when set, for reproducible output; else now. */
static int
epoch(int64_t *t)
{
	const char *s = getenv("SOURCE_DATE_EPOCH"), *p;
	uint64_t v = 0;

	if (s == NULL) {
		*t = (int64_t)time(NULL);
		return 0;
	}
	for (p = s; *p >= '0' && *p <= '9' && v <= (uint64_t)INT64_MAX / 10; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p == s || *p != '\0' || v > (uint64_t)INT64_MAX) {
		fprintf(stderr, "%s: SOURCE_DATE_EPOCH=%s: not a number of seconds\n", prog, DCFG_CLI_SHOWN(s));
		return -1;
	}
	*t = (int64_t)v;
	return 0;
}

/* dot's and bolt's options, numbered apart from the others' enum so that each part adds its own line */
enum { OPT_ALL_EDGES = 600 };
enum { OPT_IMAGE = 700, OPT_BINARY };

/* --routine and --node, each as often as given: room for every argument. */
struct chosen {
	const char **routines;
	uint64_t *nodes;
};

/* What the command line says. */
struct cmdline {
	struct dcfg_stage_args a;
	struct dcfg_convert_options o;
	const char *to;
	int has_cpuspeed, has_min_count;
};

/* What the steps of convert() return when the command goes on (else its exit status). */
#define GO_ON (-1)

static int
parse_options(int argc, char **argv, const char *help, struct cmdline *cl,
    struct chosen *ch_list)
{
	enum { OPT_OUT_DIR = 256, OPT_SEPARATE, OPT_CMD, OPT_CPUSPEED, OPT_ROUTINE, OPT_NODE,
	    OPT_MIN_COUNT };
	enum { OPT_KEEP_STUBS = 512 };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "to", required_argument, NULL, 'f' },
		{ "trace", required_argument, NULL, 'T' },
		{ "pid", required_argument, NULL, 'p' },
		{ "out-dir", required_argument, NULL, OPT_OUT_DIR },
		{ "separate-threads", no_argument, NULL, OPT_SEPARATE },
		{ "keep-stubs", no_argument, NULL, OPT_KEEP_STUBS },
		{ "cmd", required_argument, NULL, OPT_CMD },
		{ "cpuspeed", required_argument, NULL, OPT_CPUSPEED },
		{ "routine", required_argument, NULL, OPT_ROUTINE },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "min-count", required_argument, NULL, OPT_MIN_COUNT },
		{ "all-edges", no_argument, NULL, OPT_ALL_EDGES },
		{ "image", required_argument, NULL, OPT_IMAGE },
		{ "binary", required_argument, NULL, OPT_BINARY },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_stage_args *a = &cl->a;
	struct dcfg_convert_options *o = &cl->o;
	const char *why;
	int ch;

	while ((ch = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "f:T:p:", longopts, NULL)) != -1) {
		if (dcfg_stage_option(ch, prog, help, a)) {
			if (a->stop)
				return a->status;
			continue;
		}
		switch (ch) {
		case 'f': cl->to = optarg; break;
		case 'T': o->trace_path = optarg; break;
		case 'p':
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &o->pid, &why) < 0)
				return usage("-p %s: not a process id", optarg);
			o->has_pid = 1;
			break;
		case OPT_OUT_DIR: o->out_dir = optarg; break;
		case OPT_SEPARATE: o->separate_threads = 1; break;
		case OPT_KEEP_STUBS: o->keep_stubs = 1; break;
		case OPT_CMD: o->cmd = optarg; break;
		case OPT_CPUSPEED:
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &o->cpuspeed, &why) < 0)
				return usage("--cpuspeed %s: not a number", optarg);
			cl->has_cpuspeed = 1;
			break;
		case OPT_ROUTINE: ch_list->routines[o->n_routines++] = optarg; break;
		case OPT_NODE:
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &ch_list->nodes[o->n_nodes],
			    &why) < 0)
				return usage("--node %s: not a number", optarg);
			o->n_nodes++;
			break;
		case OPT_MIN_COUNT:
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &o->min_count, &why) < 0)
				return usage("--min-count %s: not a number", optarg);
			cl->has_min_count = 1;
			break;
		case OPT_ALL_EDGES: o->all_edges = 1; break;
		case OPT_IMAGE: o->image = optarg; break;
		case OPT_BINARY: o->binary = optarg; break;
		}
	}
	if (optind < argc)
		return usage("unexpected argument %s", argv[optind]);
	o->routines = ch_list->routines;
	o->nodes = ch_list->nodes;
	return GO_ON;
}

/* The format --to names, in *FORMAT, and whether the options given fit it and each other. */
static int
check_options(struct cmdline *cl, const struct dcfg_format **format)
{
	struct dcfg_convert_options *o = &cl->o;
	const struct dcfg_format *f;
	const char *bad;

	if (cl->to == NULL)
		return usage("--to FORMAT is needed%s", "");
	if ((f = *format = dcfg_format_find(cl->to)) == NULL) {
		struct dcfg_cli_text names = { .len = 0 };
		format_list(&names, 0);
		fprintf(stderr, "%s: --to %s: not a format (%s)\n", prog, DCFG_CLI_SHOWN(cl->to),
		    names.buf);
		return DCFG_EXIT_USAGE;
	}
	if (cl->a.dcfg_path == NULL)
		return usage("--dcfg FILE is needed%s", "");
	if ((bad = unused_option(f->uses, o, cl->has_cpuspeed, cl->has_min_count)) != NULL) {
		fprintf(stderr, "%s: %s is not used by --to %s%s\n", prog, bad, f->name,
		    (f->uses & DCFG_FORMAT_ROUTINE) && strcmp(bad, "--trace") == 0 ?
		    (o->n_routines ? " --routine" : " --node") : "");
		return DCFG_EXIT_USAGE;
	}
	if (cl->a.out_path && o->out_dir)
		return usage("-o and --out-dir cannot be used together%s", "");
	if ((f->uses & DCFG_FORMAT_NEEDS_DIR) && o->out_dir == NULL) {
		fprintf(stderr, "%s: --to %s needs --out-dir\n", prog, f->name);
		return DCFG_EXIT_USAGE;
	}
	if (o->separate_threads && o->out_dir == NULL)
		return usage("--separate-threads needs --out-dir%s", "");
	if ((f->uses & DCFG_FORMAT_CPUSPEED) && epoch(&o->epoch) < 0)
		return DCFG_EXIT_USAGE;
	if (o->trace_path && strcmp(cl->a.dcfg_path, "-") == 0 && strcmp(o->trace_path, "-") == 0)
		return usage("only one input can be standard input%s", "");
	return GO_ON;
}

/*
 * bolt's function table, from lib/record's ELF reader. The DCFG's own
 * name of the binary may be of another machine: then --binary is the way.
 */
static int
bolt_functions(void *ctx, const char *binary, struct dcfg_bolt_functions *t,
    struct dcfg_error *err)
{
	const struct dcfg_convert_options *o = ctx;

	if (o->binary == NULL && access(binary, R_OK) != 0)
		return dcfg_error_set(err, binary, "cannot read the binary the DCFG names for the "
		    "image (%s): give it with --binary FILE", strerror(errno));
	return dcfg_rec_bolt_functions(binary, t, err);
}

/* Reads the inputs, writes FORMAT, and says how it went as an exit status. */
static int
write_format(struct cmdline *cl, const struct dcfg_format *format)
{
	struct dcfg_stage_args *a = &cl->a;
	struct dcfg_convert_options *o = &cl->o;
	struct dcfg_convert c;
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int rc, status;

	o->dcfg_path = a->dcfg_path;
	/* the main input: the trace, when there is one */
	a->mode = dcfg_progress_mode_for(a->mode, o->trace_path ? o->trace_path : a->dcfg_path);
	if (dcfg_cli_check_output(prog, a->out_path, (const char *[]){ a->dcfg_path, o->trace_path },
	    2) < 0 || dcfg_cli_setup(&io, prog, a->dcfg_path, DCFG_KEEP_ALL, a->out_path, a->mode) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_stage_check_tables(prog, a->dcfg_path, io.dcfg, 1, 1) < 0) {
		dcfg_cli_discard(&io);
		return DCFG_EXIT_USAGE;
	}
	o->progress = dcfg_progress_bytes;
	o->progress_ctx = &io.progress;
	o->warning = dcfg_cli_warning;   /* what the output leaves out */
	o->warning_ctx = (void *)prog;
	o->bolt_functions = bolt_functions;
	o->bolt_functions_ctx = o;
	c.d = io.dcfg;
	c.o = o;
	c.out = io.out;
	rc = format->run(&c, &err);
	/* a profile cut short, or of inputs that disagree, is not written (dcfg_cli_finish) */
	status = dcfg_cli_finish(&io, rc < 0 ? -1 : 0, &err, 0);
	return rc == -2 ? DCFG_EXIT_CHECK : status;
}

static int
convert(int argc, char **argv, struct chosen *ch_list)
{
	struct cmdline cl = { .a = { .mode = DCFG_PROGRESS_AUTO },
	    .o = { .creator = "dcfg-convert " DCFG_VERSION } };
	const struct dcfg_format *format = NULL;
	struct dcfg_cli_text help = { .len = 0 };
	int rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	dcfg_cli_text_add(&help, help_head);
	format_list(&help, 1);
	dcfg_cli_text_add(&help, help_tail);
	if ((rc = parse_options(argc, argv, help.buf, &cl, ch_list)) != GO_ON ||
	    (rc = check_options(&cl, &format)) != GO_ON)
		return rc;
	return write_format(&cl, format);
}

int
main(int argc, char **argv)
{
	struct chosen ch_list;
	int status;

	ch_list.routines = malloc(((size_t)argc + 1) * sizeof *ch_list.routines);
	ch_list.nodes = malloc(((size_t)argc + 1) * sizeof *ch_list.nodes);
	if (ch_list.routines == NULL || ch_list.nodes == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		status = DCFG_EXIT_USAGE;
	} else {
		status = convert(argc, argv, &ch_list);
	}
	free(ch_list.routines);
	free(ch_list.nodes);
	return status;
}
