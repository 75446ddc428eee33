/* dcfg-convert: a DCFG (and its trace) in the formats other tools read. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "json.h"
#include "stagecli.h"

static const char *prog = "dcfg-convert";
static const char help[] =
    "usage: dcfg-convert --to FORMAT --dcfg FILE [--trace FILE] [-p PID]\n"
    "                    [-o FILE | --out-dir DIR] [--separate-threads] [--cmd TEXT]\n"
    "Write a DCFG as a profile or graph other tools read.\n"
    "  -f, --to FORMAT        callgrind (KCachegrind, callgrind_annotate)\n"
    "  -d, --dcfg FILE        the DCFG\n"
    "  -T, --trace FILE       its DCFG-trace: exact inclusive costs of calls\n"
    "  -p, --pid PID          the process to convert\n"
    "  -o, --output FILE      write to FILE\n"
    "      --out-dir DIR      write DIR/callgrind.out.PID for each process\n"
    "      --separate-threads one file per thread, DIR/callgrind.out.PID-TT\n"
    "      --cmd TEXT         the command line, for the profile's header\n"
    "      --progress         show progress on standard error\n"
    "  -q, --quiet            never show progress\n"
    "  -h, --help             print this help\n"
    "  -V, --version          print the version\n";

static int
usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return DCFG_EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	enum { OPT_OUT_DIR = 256, OPT_SEPARATE, OPT_CMD };
	static const struct option longopts[] = {
		DCFG_STAGE_LONGOPTS,
		{ "to", required_argument, NULL, 'f' },
		{ "trace", required_argument, NULL, 'T' },
		{ "pid", required_argument, NULL, 'p' },
		{ "out-dir", required_argument, NULL, OPT_OUT_DIR },
		{ "separate-threads", no_argument, NULL, OPT_SEPARATE },
		{ "cmd", required_argument, NULL, OPT_CMD },
		{ NULL, 0, NULL, 0 }
	};
	struct dcfg_stage_args a = { .mode = DCFG_PROGRESS_AUTO };
	struct dcfg_convert_options o = { .creator = "dcfg-convert " DCFG_VERSION };
	const struct dcfg_format *format = NULL;
	const char *to = NULL, *why;
	struct dcfg_convert c;
	struct dcfg_cli_io io;
	struct dcfg_error err;
	struct stat st;
	int ch, rc, status, regular;

	dcfg_cli_start();
	while ((ch = getopt_long(argc, argv, DCFG_STAGE_SHORTOPTS "f:T:p:", longopts, NULL)) != -1) {
		if (dcfg_stage_option(ch, prog, help, &a))
			continue;
		switch (ch) {
		case 'f': to = optarg; break;
		case 'T': o.trace_path = optarg; break;
		case 'p':
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &o.pid, &why) < 0)
				return usage("-p %s: not a process id", optarg);
			o.has_pid = 1;
			break;
		case OPT_OUT_DIR: o.out_dir = optarg; break;
		case OPT_SEPARATE: o.separate_threads = 1; break;
		case OPT_CMD: o.cmd = optarg; break;
		}
	}
	if (optind < argc)
		return usage("unexpected argument %s", argv[optind]);
	if (to == NULL)
		return usage("--to FORMAT is needed%s", "");
	if ((format = dcfg_format_find(to)) == NULL) {
		fprintf(stderr, "%s: --to %s: not a format (%s)\n", prog, to, dcfg_format_names());
		return DCFG_EXIT_USAGE;
	}
	if (a.dcfg_path == NULL)
		return usage("--dcfg FILE is needed%s", "");
	if (a.out_path && o.out_dir)
		return usage("-o and --out-dir cannot be used together%s", "");
	if (o.separate_threads && o.out_dir == NULL)
		return usage("--separate-threads needs --out-dir%s", "");
	if (o.trace_path && strcmp(a.dcfg_path, "-") == 0 && strcmp(o.trace_path, "-") == 0)
		return usage("only one input can be standard input%s", "");
	o.dcfg_path = a.dcfg_path;

	if (dcfg_cli_setup(&io, prog, a.dcfg_path, DCFG_KEEP_ALL, a.out_path, a.mode) < 0)
		return DCFG_EXIT_USAGE;
	if (dcfg_stage_check_tables(prog, a.dcfg_path, io.dcfg, 1, 1) < 0) {
		dcfg_cli_finish(&io, 0, &err, 0);
		return DCFG_EXIT_USAGE;
	}
	o.progress = dcfg_progress_bytes;
	o.progress_ctx = &io.progress;
	c.d = io.dcfg;
	c.o = &o;
	c.out = io.out;
	rc = format->run(&c, &err);
	regular = a.out_path && fstat(io.out->fd, &st) == 0 && S_ISREG(st.st_mode);
	status = dcfg_cli_finish(&io, rc < 0 ? -1 : 0, &err, 0);
	/* A profile cut short must not pass for a whole one (but never unlink /dev/null). */
	if (status != DCFG_EXIT_OK && regular)
		unlink(a.out_path);
	return rc == -2 ? DCFG_EXIT_CHECK : status;
}
