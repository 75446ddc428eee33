/* dcfg-record: a program run under QEMU, written as a DCFG and its DCFG-trace. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"
#include "record/run.h"
#include "common/json.h"
#include "cli/cli.h"

#ifndef DCFG_PLUGIN_PATH
#define DCFG_PLUGIN_PATH NULL
#endif

/*
 * 10^7 instructions a chunk: a window (dcfg-expand --from-icount) or a
 * shard of a plan (--plan) starts decoding at a chunk's start, so a chunk
 * is a tenth of the 10^8-instruction slices sampled simulation uses at
 * most; and a chunk's own cost (its row, its first edge) is nothing
 * beside the million or more edges it holds.
 */
#define DEFAULT_CHUNK_INSTRS 10000000ull

static const char *prog = "dcfg-record";
static const char help[] =
    "usage: dcfg-record [options] [--] PROGRAM [ARGS...]\n"
    "Run PROGRAM under QEMU and write its DCFG and DCFG-trace, PREFIX.dcfg.json.bz2\n"
    "and PREFIX.trace.json.bz2. Its input, output and exit status pass through.\n"
    "  -o, --output PREFIX  the files' prefix (default: the program's base name)\n"
    "      --no-trace       write the DCFG alone\n"
    "      --skip N         record from each thread's instruction N on\n"
    "      --length N       record N instructions of each thread at most\n"
    "      --chunk-size N   instructions per trace chunk (default 10000000)\n"
    "      --qemu PATH      the QEMU to run (default: qemu-x86_64 or qemu-aarch64)\n"
    "      --plugin PATH    the recording plugin (default: the one installed)\n"
    "      --progress       show progress on standard error\n"
    "  -q, --quiet          never show progress\n"
    "  -h, --help           print this help\n"
    "  -V, --version        print the version\n";

enum { OPT_NO_TRACE = 256, OPT_SKIP, OPT_LENGTH, OPT_CHUNK, OPT_QEMU, OPT_PLUGIN, OPT_PROGRESS };

struct args {
	const char *prefix, *qemu, *plugin;
	int no_trace, has_skip, has_length;
	uint64_t skip, length, chunk;
	enum dcfg_progress_mode mode;
	char **argv;          /* PROGRAM ARGS... */
};

static int
number(const char *opt, const char *arg, uint64_t *v, int positive)
{
	const char *why = "a number is needed";

	if (dcfg_parse_c_integer(arg, strlen(arg), v, &why) < 0 || (positive && *v == 0)) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, DCFG_CLI_SHOWN(arg),
		    positive ? "a number above 0 is needed" : why);
		return -1;
	}
	return 0;
}

/* 1: go on; 0: --help or --version done; -1: a usage error, said. */
static int
parse(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "length", required_argument, NULL, OPT_LENGTH },
		{ "chunk-size", required_argument, NULL, OPT_CHUNK },
		{ "qemu", required_argument, NULL, OPT_QEMU },
		{ "plugin", required_argument, NULL, OPT_PLUGIN },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	/* "+": the options end at PROGRAM; what follows is the program's own */
	while ((c = getopt_long(argc, argv, "+o:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': a->prefix = optarg; break;
		case OPT_NO_TRACE: a->no_trace = 1; break;
		case OPT_SKIP:
			if (number("--skip", optarg, &a->skip, 0) < 0)
				return -1;
			a->has_skip = 1;
			break;
		case OPT_LENGTH:
			if (number("--length", optarg, &a->length, 1) < 0)
				return -1;
			a->has_length = 1;
			break;
		case OPT_CHUNK:
			if (number("--chunk-size", optarg, &a->chunk, 1) < 0)
				return -1;
			break;
		case OPT_QEMU: a->qemu = optarg; break;
		case OPT_PLUGIN: a->plugin = optarg; break;
		case OPT_PROGRESS: a->mode = DCFG_PROGRESS_ON; break;
		case 'q': a->mode = DCFG_PROGRESS_OFF; break;
		case 'h': fputs(help, stdout); return 0;
		case 'V': printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION); return 0;
		default: fputs(help, stderr); return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: a PROGRAM to record is needed\n%s", prog, help);
		return -1;
	}
	a->argv = argv + optind;
	return 1;
}

/* PREFIX.dcfg.json.bz2 and PREFIX.trace.json.bz2, the prefix by default the program's base name. */
static int
output_names(struct args *a, char **dcfg_path, char **trace_path)
{
	const char *slash;
	size_t len;

	if (a->prefix == NULL)
		a->prefix = (slash = strrchr(a->argv[0], '/')) ? slash + 1 : a->argv[0];
	len = strlen(a->prefix);
	if (len == 0 || a->prefix[len - 1] == '/') {
		fprintf(stderr, "%s: -o %s: a prefix of file names is needed, not a directory\n",
		    prog, DCFG_CLI_SHOWN(a->prefix));
		return -1;
	}
	*dcfg_path = malloc(len + sizeof ".trace.json.bz2");
	*trace_path = malloc(len + sizeof ".trace.json.bz2");
	if (*dcfg_path == NULL || *trace_path == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	sprintf(*dcfg_path, "%s.dcfg.json.bz2", a->prefix);
	sprintf(*trace_path, "%s.trace.json.bz2", a->prefix);
	return 0;
}

/* What is run: the program, QEMU and the plugin, each found; -1 after a message. */
static int
locate(const struct args *a, struct dcfg_rec_run *r, char **program, char **qemu, char **plugin)
{
	struct dcfg_error err;

	if (dcfg_rec_find_program(a->argv[0], program, &err) < 0 ||
	    dcfg_rec_program_arch(*program, a->argv[0], &r->arch, &err) < 0 ||
	    dcfg_rec_find_qemu(a->qemu, r->arch, qemu, &err) < 0 ||
	    dcfg_rec_find_plugin(a->plugin, DCFG_PLUGIN_PATH, plugin, &err) < 0) {
		dcfg_cli_error(prog, &err);
		return -1;
	}
	r->program = *program;
	r->qemu = *qemu;
	r->plugin = *plugin;
	r->argv = a->argv;
	r->has_skip = a->has_skip;
	r->skip = a->skip;
	r->has_length = a->has_length;
	r->length = a->length;
	return 0;
}

static void
on_spooled(void *ctx, uint64_t bytes)
{
	dcfg_progress_update(ctx, bytes, 0);
}

struct build_meter {
	struct dcfg_progress *pg;
	uint64_t last;
	int pass, passes;
};

/* The builder reads the thread files once a pass: a new pass starts from 0 again. */
static void
on_built(void *ctx, uint64_t done, uint64_t total)
{
	struct build_meter *m = ctx;

	if (done < m->last && m->pass < m->passes)
		dcfg_progress_pass(m->pg, ++m->pass, m->passes);
	m->last = done;
	m->pg->sized = total > 0;
	m->pg->size = total;
	dcfg_progress_update(m->pg, done, 0);
}

static int
build(const struct args *a, const struct dcfg_rec_run *r, const char *dcfg_path,
    const char *trace_path, struct dcfg_progress *pg)
{
	struct build_meter m = { pg, 0, 1, a->no_trace ? 1 : 2 };
	struct dcfg_record_build_options o = {
		.spool_dir = r->spool, .dcfg_path = dcfg_path,
		.trace_path = a->no_trace ? NULL : trace_path,
		.chunk_instrs = a->chunk ? a->chunk : DEFAULT_CHUNK_INSTRS,
		.progress = pg->on ? on_built : NULL, .progress_ctx = &m,
		.program_path = r->program,
	};
	struct dcfg_error err;
	int rc;

	dcfg_progress_file(pg, dcfg_path, r->spool, NULL);
	if (m.passes > 1)
		dcfg_progress_pass(pg, 1, m.passes);
	rc = dcfg_record_build(&o, &err);
	dcfg_progress_end(pg);
	if (rc < 0)
		dcfg_cli_error(prog, &err);
	return rc;
}

/* After the program's end: the outputs, or why there are none. The exit status. */
static int
finish(const struct args *a, const struct dcfg_rec_run *r, const struct dcfg_rec_end *end,
    const char *dcfg_path, const char *trace_path, struct dcfg_progress *pg)
{
	char buf[32], process[4096];

	if (!end->exited) {
		fprintf(stderr, "%s: %s: killed by signal %s\n", prog, DCFG_CLI_SHOWN(a->argv[0]),
		    dcfg_rec_signal_name(end->signal, buf, sizeof buf));
		return 128 + end->signal;
	}
	/* the plugin writes it at the program's exit: without it QEMU itself failed */
	snprintf(process, sizeof process, "%s/process", r->spool);
	if (access(process, F_OK) < 0) {
		fprintf(stderr, "%s: %s: QEMU ended with status %d before the program's exit "
		    "was recorded: nothing written\n", prog, DCFG_CLI_SHOWN(r->qemu), end->status);
		return DCFG_EXIT_USAGE;
	}
	if (build(a, r, dcfg_path, trace_path, pg) < 0)
		return DCFG_EXIT_USAGE;
	return end->status;
}

static int
record(const struct args *a, struct dcfg_rec_run *r, const char *dcfg_path,
    const char *trace_path, char **spool)
{
	struct dcfg_progress pg;
	struct dcfg_rec_end end;
	struct dcfg_error err;
	int status;

	dcfg_progress_init(&pg, prog, dcfg_progress_mode_for(a->mode, r->program));
	if (dcfg_rec_spool_make(a->prefix, spool, &err) < 0) {
		dcfg_cli_error(prog, &err);
		return DCFG_EXIT_USAGE;
	}
	r->spool = *spool;
	r->poll = pg.on ? on_spooled : NULL;
	r->poll_ctx = &pg;
	dcfg_progress_file(&pg, a->argv[0], *spool, NULL);
	if (dcfg_rec_run(r, &end, &err) < 0) {
		dcfg_progress_end(&pg);
		dcfg_cli_error(prog, &err);
		status = DCFG_EXIT_USAGE;
	} else {
		dcfg_progress_done(&pg);
		status = finish(a, r, &end, dcfg_path, trace_path, &pg);
	}
	if (dcfg_rec_spool_remove(*spool) < 0) {
		fprintf(stderr, "%s: %s: cannot remove the spool directory\n", prog,
		    DCFG_CLI_SHOWN(*spool));
		status = DCFG_EXIT_USAGE;
	}
	dcfg_rec_guard_end();
	/* interrupted as the program was: die of the same signal, as every command does */
	if (!end.exited && end.signal == end.received &&
	    (end.signal == SIGINT || end.signal == SIGTERM || end.signal == SIGHUP))
		raise(end.signal);
	return status;
}

int
main(int argc, char **argv)
{
	struct args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_rec_run r = { 0 };
	char *program = NULL, *qemu = NULL, *plugin = NULL, *spool = NULL;
	char *dcfg_path = NULL, *trace_path = NULL;
	sigset_t dfl;
	int rc;

	dcfg_rec_inherited_signals(&dfl);
	r.inherited_dfl = &dfl;
	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	if ((rc = parse(argc, argv, &a)) <= 0)
		return rc < 0 ? DCFG_EXIT_USAGE : DCFG_EXIT_OK;
	rc = DCFG_EXIT_USAGE;
	if (output_names(&a, &dcfg_path, &trace_path) < 0 ||
	    locate(&a, &r, &program, &qemu, &plugin) < 0 ||
	    dcfg_cli_check_output(prog, dcfg_path, (const char *[]){ program }, 1) < 0 ||
	    (!a.no_trace &&
	    dcfg_cli_check_output(prog, trace_path, (const char *[]){ program }, 1) < 0))
		goto out;
	rc = record(&a, &r, dcfg_path, trace_path, &spool);
out:
	free(program);
	free(qemu);
	free(plugin);
	free(spool);
	free(dcfg_path);
	free(trace_path);
	return rc;
}
