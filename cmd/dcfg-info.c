/* dcfg-info: summarise a DCFG or a DCFG-trace, per process. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "dcfg/model.h"
#include "common/json.h"
#include "common/kind.h"
#include "common/output.h"
#include "info/info_table.h"
#include "info/listing.h"
#include "info/summary.h"
#include "info/trace_summary.h"

static const char *prog = "dcfg-info";

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: dcfg-info [-p PID] [-f FORMAT | --json] [--progress | --quiet] [FILE]\n"
	    "       dcfg-info --list routines|images|loops [-p PID] [-f FORMAT] [FILE]\n"
	    "Summarise a DCFG or a DCFG-trace (plain, gzip or bzip2; - or no FILE:\n"
	    "standard input), or list a DCFG's routines, images or loops with their counts.\n"
	    "  -p, --pid PID        only this process\n"
	    "  -l, --list KIND      list every routine, image or loop, with its counts\n"
	    "  -f, --format FORMAT  text (the summary's default), tsv (the list's), csv,\n"
	    "                       json or table\n"
	    "  -j, --json           print JSON (--format json)\n"
	    "      --progress       show progress on standard error\n"
	    "  -q, --quiet          never show progress\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

/* What --format and --list ask for. */
struct request {
	int text;                  /* the summary as text (or, with json, as today's JSON) */
	int json;
	enum dcfg_table_format table;   /* else: through the table writer */
	enum dcfg_list_kind list;
};

/* The listings of every process (or ONLY's) through T. 0, or -1 with ERR set. */
static int
list(struct dcfg_table *t, const struct dcfg *d, const struct dcfg_process *only,
    enum dcfg_list_kind kind, const char *file, struct dcfg_error *err)
{
	struct dcfg_listing l;
	size_t i;

	dcfg_info_table_list_head(t, d, kind);
	for (i = 0; i < d->n_processes; i++) {
		if (only && &d->processes[i] != only)
			continue;
		if (dcfg_listing_make(&l, d, &d->processes[i], kind, file, err) < 0) {
			dcfg_listing_free(&l);
			return -1;
		}
		dcfg_info_table_listing(t, &l);
		dcfg_listing_free(&l);
	}
	return 0;
}

/* 0, or -1 with ERR set. */
static int
print(const char *file, const struct dcfg *d, const struct dcfg_process *only,
    const struct dcfg_trace_summary *ts, const struct request *rq, struct dcfg_error *err)
{
	struct dcfg_output out;
	struct dcfg_table t;
	int rc = 0;

	if (dcfg_output_open(&out, NULL, err) < 0)
		return -1;
	if (rq->text && ts) {
		dcfg_trace_summary_write(&out, ts, rq->json);
	} else if (rq->text) {
		rc = dcfg_summary_write(&out, d, only, rq->json, file, err);
	} else {
		dcfg_table_open(&t, &out, rq->table, prog, DCFG_INFO_TABLE_VERSION);
		if (ts)
			dcfg_info_table_trace(&t, ts);
		else if (rq->list != DCFG_LIST_NONE)
			rc = list(&t, d, only, rq->list, file, err);
		else
			rc = dcfg_info_table_summary(&t, d, only, file, err);
		if (rc < 0)
			dcfg_table_free(&t);
		else if (dcfg_table_close(&t) < 0)
			rc = dcfg_error_set(err, file, "out of memory");
	}
	if (rc < 0) {
		struct dcfg_error ignored;
		dcfg_output_close(&out, &ignored);
		return -1;
	}
	return dcfg_output_close(&out, err);
}

/* The summary of a DCFG-trace or a DCFG, by KIND. 0, or -1 with ERR set. */
static int
summarize(const char *file, enum dcfg_kind kind, int have_pid, uint64_t pid,
    const struct request *rq, struct dcfg_progress *pg, struct dcfg_error *err)
{
	/*
	 * The summary reads neither symbols, source lines nor per-thread edge
	 * counts, nor looks anything up by address; the tables it does not keep
	 * are still checked, so that a DCFG is refused for what it always was.
	 */
	struct dcfg_load_options opt = { .keep = (DCFG_KEEP_ALL & ~(DCFG_KEEP_SYMBOLS |
	    DCFG_KEEP_SOURCE | DCFG_KEEP_EDGE_COUNTS)) | DCFG_LOAD_CHECK_DROPPED |
	    DCFG_LOAD_NO_ADDR_LOOKUPS | DCFG_LOAD_NO_IDENTITY };
	struct dcfg_trace_summary_options topt = { .only_pid = have_pid, .pid = pid };
	struct dcfg_trace_summary ts;
	const struct dcfg_process *only = NULL;
	struct dcfg *d;
	int rc;

	if (kind == DCFG_KIND_STREAM || kind == DCFG_KIND_OTHER)
		return dcfg_kind_error(err, file, 1, 1, kind, DCFG_KIND_UNKNOWN);
	if (kind == DCFG_KIND_EMPTY)
		return dcfg_kind_error(err, file, 0, 0, kind, DCFG_KIND_UNKNOWN);
	if (kind == DCFG_KIND_TRACE && rq->list != DCFG_LIST_NONE)
		return dcfg_error_set(err, file, "this is a DCFG-trace: --list lists a DCFG's "
		    "routines, images and loops");
	/* A listing names routines and places loops: symbols, source lines and address lookups. */
	if (rq->list != DCFG_LIST_NONE)
		opt.keep = dcfg_list_keep(rq->list) | DCFG_LOAD_CHECK_DROPPED;
	dcfg_progress_file(pg, NULL, file, NULL);
	if (kind == DCFG_KIND_TRACE) {
		topt.progress = dcfg_progress_bytes;
		topt.progress_ctx = pg;
		rc = dcfg_trace_summarize(file, &topt, &ts, err);
		dcfg_progress_end(pg);
		if (rc < 0)
			return -1;
		rc = print(file, NULL, NULL, &ts, rq, err);
		dcfg_trace_summary_free(&ts);
		return rc;
	}
	opt.progress = dcfg_progress_bytes;
	opt.progress_ctx = pg;
	d = dcfg_load(file, &opt, err);
	dcfg_progress_end(pg);
	if (d == NULL)
		return -1;
	if (have_pid && (only = dcfg_find_process(d, pid)) == NULL) {
		dcfg_free(d);
		return dcfg_error_set(err, file, "no process with PID %llu",
		    (unsigned long long)pid);
	}
	/* Without edges every count would read 0, true or not (the summary falls back to COUNT). */
	if (rq->list != DCFG_LIST_NONE && d->n_edges == 0) {
		dcfg_free(d);
		return dcfg_error_set(err, file, "the DCFG has no EDGES table: --list counts "
		    "from the edges, as dcfg-count does");
	}
	rc = print(file, d, only, NULL, rq, err);
	dcfg_free(d);
	return rc;
}

/*
 * --format (or --json) into RQ: text and json are the summary's own reports,
 * the others the table writer's; a listing is a table (tsv by default).
 */
static int
format_request(const char *format, struct request *rq)
{
	if (format == NULL && rq->list == DCFG_LIST_NONE)
		return 0;
	if (format && rq->list == DCFG_LIST_NONE && strcmp(format, "text") == 0)
		return 0;
	if (format && rq->list == DCFG_LIST_NONE && strcmp(format, "json") == 0) {
		rq->json = 1;
		return 0;
	}
	rq->text = 0;
	if (format == NULL) {
		rq->table = DCFG_TABLE_TSV;
		return 0;
	}
	if (dcfg_table_format_parse(format, &rq->table) == 0)
		return 0;
	fprintf(stderr, "%s: --format %s: not %s%s\n", prog, DCFG_CLI_SHOWN(format),
	    rq->list == DCFG_LIST_NONE ? "text, " : "", DCFG_TABLE_FORMAT_NAMES);
	return -1;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "list", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum dcfg_progress_mode mode = DCFG_PROGRESS_AUTO;
	struct dcfg_kind_replay *replay;
	struct dcfg_progress pg;
	struct dcfg_error err, input_err;
	enum dcfg_kind kind;
	const char *file, *why;
	struct request rq = { .text = 1 };
	const char *format = NULL;
	uint64_t pid = 0;
	int c, have_pid = 0, rc;

	if ((rc = dcfg_cli_start()) != DCFG_EXIT_OK)
		return rc;
	while ((c = getopt_long(argc, argv, "p:jl:f:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (dcfg_parse_c_integer(optarg, strlen(optarg), &pid, &why) < 0) {
				fprintf(stderr, "%s: -p %s: %s\n", prog, DCFG_CLI_SHOWN(optarg), why);
				return DCFG_EXIT_USAGE;
			}
			have_pid = 1;
			break;
		case 'j': format = "json"; break;
		case 'f': format = optarg; break;
		case 'l':
			if (dcfg_list_kind_parse(optarg, &rq.list) < 0) {
				fprintf(stderr, "%s: --list %s: not routines, images or loops\n", prog,
				    DCFG_CLI_SHOWN(optarg));
				return DCFG_EXIT_USAGE;
			}
			break;
		case 'P': mode = DCFG_PROGRESS_ON; break;
		case 'q': mode = DCFG_PROGRESS_OFF; break;
		case 'h': usage(stdout); return DCFG_EXIT_OK;
		case 'V': printf("%s (dcfg-tools) %s\n", prog, DCFG_VERSION); return DCFG_EXIT_OK;
		default: usage(stderr); return DCFG_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "%s: one FILE at most\n", prog);
		usage(stderr);
		return DCFG_EXIT_USAGE;
	}
	file = optind < argc ? argv[optind] : "-";
	if (format_request(format, &rq) < 0)
		return DCFG_EXIT_USAGE;

	dcfg_progress_init(&pg, prog, dcfg_progress_mode_for(mode, file));
	/* A trace is summarised in a pass of its own: which one is known first. */
	if (dcfg_kind_probe(file, &kind, &replay, &err) < 0) {
		dcfg_progress_end(&pg);
		dcfg_cli_error(prog, &err);
		return DCFG_EXIT_USAGE;
	}
	rc = summarize(file, kind, have_pid, pid, &rq, &pg, &err);
	/* A corrupt compressed standard input is its own error, not the early end it caused. */
	if (dcfg_kind_replay_end(replay, &input_err) < 0) {
		rc = -1;
		err = input_err;
	}
	if (rc < 0) {
		dcfg_cli_error(prog, &err);
		return DCFG_EXIT_USAGE;
	}
	return DCFG_EXIT_OK;
}
