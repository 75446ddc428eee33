/* dcfg-expand: the edges a DCFG-trace records, in order, as an edge stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand/expand.h"
#include "common/json.h"
#include "expand/plan.h"
#include "cli/stagecli.h"
#include "stream/provenance.h"

#define MAX_IDS 1024

static const char *prog = "dcfg-expand";

static const char help[] =
	    "usage: dcfg-expand [-p PID] [-t TID] [--chunks] [--runs]\n"
	    "                   [--list | --count [-f FORMAT]]\n"
	    "                   [--from-icount N] [--to-icount N] [--dcfg FILE]\n"
	    "                   [--shard K/N [--align INTERVAL] [--of-process P,...]\n"
	    "                   [--of-thread T,...]] [-o FILE]\n"
	    "                   [--progress | --quiet] [TRACE]\n"
	    "       dcfg-expand --plan N [--align INTERVAL --dcfg FILE] [-p PID] [-t TID]\n"
	    "                   [-o FILE] [--progress | --quiet] [TRACE]\n"
	    "Print the edges a DCFG-trace records, in order (- or no TRACE: standard input).\n"
	    "  -p, --pid PID        only this process (repeatable)\n"
	    "  -t, --thread TID     only this thread (repeatable)\n"
	    "      --chunks         mark where each chunk starts\n"
	    "      --runs           write repeats that decode alike once, as runs\n"
	    "      --list           print the chunk table, decoding nothing\n"
	    "      --count          print per-thread edge and instruction totals\n"
	    "  -f, --format FORMAT  --count's format: tsv (the default), csv, json or table\n"
	    "      --from-icount N  start of the instruction window, per thread\n"
	    "      --to-icount N    end of the window (not included)\n"
	    "  -d, --dcfg FILE      the paired DCFG: cut the window at the exact edge\n"
	    "      --shard K/N      the stream is shard K of N that cover the trace: record\n"
	    "                       its selection and the trace in it (--plan writes this)\n"
	    "      --plan N         print the options of at most N balanced shards, one line\n"
	    "                       each, from the chunk table (man page: SHARDS)\n"
	    "      --align INTERVAL with --plan: cut at multiples of INTERVAL instructions,\n"
	    "                       inside chunks too (exact windows: needs --dcfg);\n"
	    "                       with --shard: the shard's plan was (--plan writes this)\n"
	    "      --of-process P,... with --shard: the plan was of these processes (its -p)\n"
	    "      --of-thread T,...  with --shard: the plan was of these threads (its -t)\n"
	    "  -o, --output FILE    write to FILE\n"
	    "      --progress       show progress on standard error\n"
	    "  -q, --quiet          never show progress\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n";

static int
number(const char *opt, const char *arg, uint64_t *v)
{
	const char *why;

	if (dcfg_parse_c_integer(arg, strlen(arg), v, &why) < 0) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, DCFG_CLI_SHOWN(arg), why);
		return -1;
	}
	return 0;
}

/* --shard K/N: 1 <= K <= N, both decimal. */
static int
shard_arg(const char *arg, struct dcfg_expand_options *opt)
{
	const char *slash = strchr(arg, '/'), *why;

	/* no leading 0: K and N are at least 1, and "010" is not read as octal */
	if (slash == NULL || slash == arg || arg[0] == '0' || slash[1] == '0' || strspn(arg, "0123456789") != (size_t)(slash - arg) ||
	    slash[1] == '\0' || strspn(slash + 1, "0123456789") != strlen(slash + 1) ||
	    dcfg_parse_c_integer(arg, (size_t)(slash - arg), &opt->shard, &why) < 0 ||
	    dcfg_parse_c_integer(slash + 1, strlen(slash + 1), &opt->shards, &why) < 0 ||
	    opt->shard == 0 || opt->shard > opt->shards) {
		fprintf(stderr, "%s: --shard %s: not K/N with 1 <= K <= N\n", prog, DCFG_CLI_SHOWN(arg));
		return -1;
	}
	return 0;
}

/* --of-process ([0]) and --of-thread ([1]): the selection of a shard's plan. */
struct plan_of {
	uint64_t *ids[2];
	size_t n[2];
	const char *arg[2];     /* as given */
};

static const char *const of_opt[2] = { "--of-process", "--of-thread" };

/* One of them, THREADS or not, as --plan writes it, once. */
static int
plan_of_arg(struct plan_of *of, int threads, const char *arg)
{
	if (of->arg[threads] != NULL) {
		fprintf(stderr, "%s: %s given twice: it is one list, ids separated by commas\n", prog,
		    of_opt[threads]);
		return -1;
	}
	of->arg[threads] = arg;
	if (dcfg_ids_parse(arg, strlen(arg), &of->ids[threads], &of->n[threads]) < 0) {
		fprintf(stderr, "%s: %s %s: not ids in decimal, ascending and distinct, separated "
		    "by commas (as --plan writes them)\n", prog, of_opt[threads], DCFG_CLI_SHOWN(arg));
		return -1;
	}
	return 0;
}

/*
 * A shard of a plan of a selection selects within it: each of its -p (or
 * -t, THREADS) V[0..N) is among the plan's, and some are given.
 */
static int
inside_plan(const struct plan_of *of, int threads, const uint64_t *v, size_t n)
{
	const char *opt = threads ? "-t" : "-p", *shown;
	size_t i;

	if (of->n[threads] == 0)
		return 0;
	shown = DCFG_CLI_SHOWN(of->arg[threads]);
	if (n == 0) {
		fprintf(stderr, "%s: %s %s without %s: the shard would select every %s, not only "
		    "those of its plan\n", prog, of_opt[threads], shown, opt,
		    threads ? "thread" : "process");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!dcfg_expand_selects(of->ids[threads], of->n[threads], v[i])) {
			fprintf(stderr, "%s: %s %llu: not in the selection of the shard's plan (%s %s): "
			    "a shard selects within what its plan did\n", prog, opt,
			    (unsigned long long)v[i], of_opt[threads], shown);
			return -1;
		}
	return 0;
}

/*
 * A shard's shape beyond K/N, as the plan's lines give it: --align
 * (ALIGN), whose multiples the window's ends are, and the plan's
 * selection OF, which -p and -t lie in. Set in OPT; -1 after a message.
 */
static int
shard_shape(struct dcfg_expand_options *opt, uint64_t align, int has_from, int has_to,
    const struct plan_of *of)
{
	if (align && !opt->shards) {
		fprintf(stderr, "%s: --align needs --plan or --shard: it places the cuts of a plan, "
		    "whose shards record it\n", prog);
		return -1;
	}
	/* a shard of an aligned plan: its window is cut at multiples of the interval */
	if (align && ((has_from && opt->from % align) || (has_to && opt->to % align))) {
		fprintf(stderr, "%s: --align %llu: the window's %s-icount is not a multiple of it\n",
		    prog, (unsigned long long)align, has_from && opt->from % align ? "from" : "to");
		return -1;
	}
	if ((of->arg[0] || of->arg[1]) && !opt->shards) {
		fprintf(stderr, "%s: %s needs --shard: it names what the shard's plan selected\n",
		    prog, of_opt[of->arg[0] == NULL]);
		return -1;
	}
	if (inside_plan(of, 0, opt->pids, opt->n_pids) < 0 ||
	    inside_plan(of, 1, opt->tids, opt->n_tids) < 0)
		return -1;
	opt->align = align;
	opt->of_pids = of->ids[0];
	opt->n_of_pids = of->n[0];
	opt->of_tids = of->ids[1];
	opt->n_of_tids = of->n[1];
	return 0;
}

/*
 * The lines of --plan name the DCFG as given: a word that neither the
 * line's split at spaces nor a shell reading the line unquoted changes.
 */
static int
plain_path(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("._/+,:@%=-", *s)))
			return 0;
	return 1;
}

/* --plan: what combines with it is checked, then the plan is written. */
static int
plan_main(struct dcfg_plan_options *plan, const struct dcfg_expand_options *opt,
    const struct dcfg_stage_args *a, const char *conflict)
{
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int rc;

	if (conflict) {
		fprintf(stderr, "%s: --plan cannot be used with %s\n", prog, conflict);
		return DCFG_EXIT_USAGE;
	}
	if (plan->align && a->dcfg_path == NULL) {
		fprintf(stderr, "%s: --align needs --dcfg: only an exact window cuts inside a chunk\n",
		    prog);
		return DCFG_EXIT_USAGE;
	}
	if (!plan->align && a->dcfg_path) {
		fprintf(stderr, "%s: --plan uses --dcfg only with --align: cuts between chunks need no DCFG\n",
		    prog);
		return DCFG_EXIT_USAGE;
	}
	if (plan->align && strcmp(a->dcfg_path, "-") == 0) {
		fprintf(stderr, "%s: --plan writes the DCFG on every line: --dcfg must name a file\n",
		    prog);
		return DCFG_EXIT_USAGE;
	}
	if (plan->align && !plain_path(a->dcfg_path)) {
		fprintf(stderr, "%s: --dcfg %s: --plan writes the path on every line, so it may hold "
		    "only letters, digits and . _ / + , : @ %% = -\n", prog, DCFG_CLI_SHOWN(a->dcfg_path));
		return DCFG_EXIT_USAGE;
	}
	plan->pids = opt->pids;
	plan->n_pids = opt->n_pids;
	plan->tids = opt->tids;
	plan->n_tids = opt->n_tids;
	plan->dcfg_path = a->dcfg_path;
	/* the DCFG is read for its processes only: each must be there */
	if (dcfg_cli_check_output(prog, a->out_path, (const char *[]){ a->dcfg_path, a->stream },
	    2) < 0 || dcfg_cli_setup(&io, prog, a->dcfg_path, 0, a->out_path, a->mode) < 0)
		return DCFG_EXIT_USAGE;
	plan->dcfg = io.dcfg;
	plan->progress = dcfg_progress_bytes;
	plan->progress_ctx = &io.progress;
	rc = dcfg_plan(a->stream, plan, io.out, &err);
	/* a plan is a document: nothing of it is written after an error */
	return dcfg_cli_finish(&io, rc, &err, 0);
}

int
main(int argc, char **argv)
{
	enum { OPT_CHUNKS = 256, OPT_LIST, OPT_COUNT, OPT_FROM, OPT_TO, OPT_RUNS, OPT_PLAN,
	    OPT_ALIGN, OPT_SHARD, OPT_OF_PROCESS, OPT_OF_THREAD };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "pid", required_argument, NULL, 'p' },
		{ "thread", required_argument, NULL, 't' },
		{ "chunks", no_argument, NULL, OPT_CHUNKS },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "count", no_argument, NULL, OPT_COUNT },
		{ "format", required_argument, NULL, 'f' },
		{ "runs", no_argument, NULL, OPT_RUNS },
		{ "from-icount", required_argument, NULL, OPT_FROM },
		{ "to-icount", required_argument, NULL, OPT_TO },
		{ "plan", required_argument, NULL, OPT_PLAN },
		{ "align", required_argument, NULL, OPT_ALIGN },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "of-process", required_argument, NULL, OPT_OF_PROCESS },
		{ "of-thread", required_argument, NULL, OPT_OF_THREAD },
		{ NULL, 0, NULL, 0 }
	};
	static uint64_t pids[MAX_IDS], tids[MAX_IDS];
	static struct plan_of of;   /* kept to the end, as the -p and -t are */
	struct dcfg_expand_options opt = { .mode = DCFG_EXPAND_EDGES, .pids = pids, .tids = tids };
	struct dcfg_plan_options plan = { 0 };
	const char *conflict = NULL, *format = NULL;
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_cli_io io;
	struct dcfg_error err;
	int c, has_from = 0, has_to = 0, rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	opt.to = UINT64_MAX;
	while ((c = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "p:t:f:", longopts, NULL)) != -1) {
		if (dcfg_stage_option(c, prog, help, &a)) {
			if (a.stop)
				return a.status;
			continue;
		}
		switch (c) {
		case 'p':
		case 't':
			if ((c == 'p' ? opt.n_pids : opt.n_tids) == MAX_IDS) {
				fprintf(stderr, "%s: at most %d of -%c\n", prog, MAX_IDS, c);
				return DCFG_EXIT_USAGE;
			}
			if (number(c == 'p' ? "-p" : "-t", optarg,
			    c == 'p' ? &pids[opt.n_pids++] : &tids[opt.n_tids++]) < 0)
				return DCFG_EXIT_USAGE;
			break;
		case 'f': format = optarg; break;
		case OPT_CHUNKS: opt.chunks = 1; conflict = "--chunks"; break;
		case OPT_LIST: opt.mode = DCFG_EXPAND_LIST; conflict = "--list"; break;
		case OPT_COUNT: opt.mode = DCFG_EXPAND_COUNT; conflict = "--count"; break;
		case OPT_RUNS: opt.runs = 1; conflict = "--runs"; break;
		case OPT_PLAN:
			if (number("--plan", optarg, &plan.lines) < 0)
				return DCFG_EXIT_USAGE;
			if (plan.lines == 0) {
				fprintf(stderr, "%s: --plan %s: a plan has at least 1 line\n", prog, DCFG_CLI_SHOWN(optarg));
				return DCFG_EXIT_USAGE;
			}
			break;
		case OPT_ALIGN:
			if (number("--align", optarg, &plan.align) < 0)
				return DCFG_EXIT_USAGE;
			if (plan.align == 0) {
				fprintf(stderr, "%s: --align %s: the interval is at least 1 instruction\n",
				    prog, DCFG_CLI_SHOWN(optarg));
				return DCFG_EXIT_USAGE;
			}
			break;
		case OPT_SHARD:
			if (shard_arg(optarg, &opt) < 0)
				return DCFG_EXIT_USAGE;
			conflict = "--shard";
			break;
		case OPT_OF_PROCESS:
		case OPT_OF_THREAD:
			if (plan_of_arg(&of, c == OPT_OF_THREAD, optarg) < 0)
				return DCFG_EXIT_USAGE;
			conflict = of_opt[c == OPT_OF_THREAD];
			break;
		case OPT_FROM:
			if (number("--from-icount", optarg, &opt.from) < 0)
				return DCFG_EXIT_USAGE;
			has_from = 1;
			conflict = "--from-icount";
			break;
		case OPT_TO:
			if (number("--to-icount", optarg, &opt.to) < 0)
				return DCFG_EXIT_USAGE;
			has_to = 1;
			conflict = "--to-icount";
			break;
		}
	}
	if (dcfg_stage_finish_args(argc, argv, prog, help, &a, 0) < 0)
		return DCFG_EXIT_USAGE;
	if (format && opt.mode != DCFG_EXPAND_COUNT) {
		fprintf(stderr, "%s: --format is --count's: the stream and the chunk table have "
		    "their own formats\n", prog);
		return DCFG_EXIT_USAGE;
	}
	if (format && dcfg_table_format_parse(format, &opt.format) < 0) {
		fprintf(stderr, "%s: --format %s: not %s\n", prog, DCFG_CLI_SHOWN(format),
		    DCFG_TABLE_FORMAT_NAMES);
		return DCFG_EXIT_USAGE;
	}
	/* tsv is today's output, byte for byte: the writer's head line is not in it */
	opt.tabled = format && opt.format != DCFG_TABLE_TSV;
	if (plan.lines)
		return plan_main(&plan, &opt, &a, conflict);
	if (shard_shape(&opt, plan.align, has_from, has_to, &of) < 0)
		return DCFG_EXIT_USAGE;
	if (has_from && has_to && opt.from >= opt.to) {
		fprintf(stderr, "%s: --from-icount must be below --to-icount\n", prog);
		return DCFG_EXIT_USAGE;
	}
	opt.window = has_from || has_to;
	if (dcfg_cli_check_output(prog, a.out_path, (const char *[]){ a.dcfg_path, a.stream }, 2) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_cli_setup(&io, prog, a.dcfg_path, DCFG_KEEP_BLOCKS | DCFG_KEEP_EDGES,
	    a.out_path, a.mode) < 0)
		return DCFG_EXIT_USAGE;
	opt.dcfg = io.dcfg;
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = &io.progress;
	rc = dcfg_expand(a.stream, &opt, io.out, &err);
	return dcfg_cli_finish(&io, rc, &err, 1);
}
