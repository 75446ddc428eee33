#include "trace_summary.h"

#include <stdlib.h>
#include <string.h>

#include "common/input.h"
#include "common/json.h"
#include "common/kind.h"
#include "trace/seen.h"
#include "common/vec.h"

enum field_id {
	ROOT, MAJOR, MINOR, PROCESSES,
	PR_ID, PR_DICT, PR_TABLE, PR_THREADS, TT_ANY,
	TH_ID, TH_TRACE,
	CH_INSTRS, CH_EDGES, CH_SEQUENCE,
	DCFG_KEY, DCFG_COLUMN   /* a DCFG's (kind.h): a DCFG given by mistake */
};

/* Only what is counted is read; the other columns are skipped unparsed. */
DCFG_JSON_SCHEMA(chunks,
    DCFG_JSON_FIELD("INSTR_COUNT", CH_INSTRS, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("EDGE_COUNT", CH_EDGES, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("EDGE_ID_SEQUENCE", CH_SEQUENCE, DCFG_JSON_STRING, NULL, 1));
DCFG_JSON_SCHEMA(threads,
    DCFG_JSON_FIELD("THREAD_ID", TH_ID, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("TRACE_DATA", TH_TRACE, DCFG_JSON_TABLE, &chunks, 1));
DCFG_JSON_SCHEMA(any, DCFG_JSON_FIELD("", TT_ANY, DCFG_JSON_SKIP, NULL, 0));
DCFG_JSON_SCHEMA(processes,
    DCFG_JSON_FIELD("PROCESS_ID", PR_ID, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("STRING_DICTIONARY", PR_DICT, DCFG_JSON_DICT, NULL, 0),
    DCFG_JSON_FIELD("TRANSITION_TABLE", PR_TABLE, DCFG_JSON_TABLE, &any, 1),
    DCFG_JSON_FIELD("THREAD_DATA", PR_THREADS, DCFG_JSON_TABLE, &threads, 1),
    DCFG_JSON_FIELD("PROCESS_DATA", DCFG_COLUMN, DCFG_JSON_SKIP, NULL, 0));
DCFG_JSON_SCHEMA(top,
    DCFG_JSON_FIELD("MAJOR_VERSION", MAJOR, DCFG_JSON_INT, NULL, 0),
    DCFG_JSON_FIELD("MINOR_VERSION", MINOR, DCFG_JSON_INT, NULL, 0),
    DCFG_JSON_FIELD("PROCESSES", PROCESSES, DCFG_JSON_TABLE, &processes, 0),
    DCFG_JSON_FIELD("FILE_NAMES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0),
    DCFG_JSON_FIELD("EDGE_TYPES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0),
    DCFG_JSON_FIELD("SPECIAL_NODES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0));

static const struct dcfg_json_field root = { "", ROOT, DCFG_JSON_OBJECT, &top, 0 };

struct reader {
	struct dcfg_json *j;
	const struct dcfg_trace_summary_options *opt;
	struct dcfg_trace_summary *s;
	struct dcfg_trace_process_summary p;   /* the row being read */
	int pid_seen, skip;
	struct dcfg_trace_thread_summary th;   /* the thread row being read */
	uint64_t chunk_instrs, chunk_edges;
	int found;                              /* only_pid: the process was there */
	unsigned long dcfg_line, dcfg_column;   /* where the file shows it is a DCFG */
	struct dcfg_seen processes;             /* refused twice, as dcfg_trace_read does */
};

static int
add(uint64_t *to, uint64_t v)
{
	if (*to > UINT64_MAX - v)
		return -1;
	*to += v;
	return 0;
}

static int
add_counts(struct dcfg_trace_counts *to, const struct dcfg_trace_counts *c)
{
	return add(&to->chunks, c->chunks) | add(&to->edges, c->edges) |
	    add(&to->instructions, c->instructions) | add(&to->characters, c->characters);
}

static int
too_big(struct reader *r)
{
	return dcfg_json_fail(r->j, "a count or total does not fit in 64 bits");
}

static int
on_begin(void *ctx, int id)
{
	struct reader *r = ctx;

	if (id == DCFG_KEY) {
		dcfg_json_position(r->j, &r->dcfg_line, &r->dcfg_column);
		return DCFG_JSON_STOP;
	}
	/* -p: the rest of another process is left unread, when its id came first */
	if ((id == PR_DICT || id == PR_TABLE || id == PR_THREADS) && r->skip)
		return DCFG_JSON_DROP;
	return DCFG_JSON_OK;
}

static int
on_row_begin(void *ctx, int table)
{
	struct reader *r = ctx;

	switch (table) {
	case PROCESSES:
		free(r->p.threads);
		memset(&r->p, 0, sizeof r->p);
		r->pid_seen = r->skip = 0;
		break;
	case PR_THREADS:
		memset(&r->th, 0, sizeof r->th);
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_row_end(void *ctx, int table)
{
	struct reader *r = ctx;
	struct dcfg_trace_summary *s = r->s;
	struct dcfg_trace_counts one = { 1, 0, 0, 0 };

	switch (table) {
	case PR_TABLE:
		if (add(&r->p.table_rows, 1) < 0)
			return too_big(r);
		break;
	case TH_TRACE:
		one.edges = r->chunk_edges;
		one.instructions = r->chunk_instrs;
		r->chunk_edges = r->chunk_instrs = 0;
		if (add(&r->th.counts.chunks, 1) < 0 ||
		    add(&r->th.counts.edges, one.edges) < 0 ||
		    add(&r->th.counts.instructions, one.instructions) < 0)
			return too_big(r);
		break;
	case PR_THREADS:
		if (add_counts(&r->p.total, &r->th.counts) < 0)
			return too_big(r);
		if (dcfg_reserve((void **)&r->p.threads, &r->p.cap_threads, r->p.n_threads + 1,
		    sizeof *r->p.threads) < 0)
			return dcfg_json_fail(r->j, "out of memory");
		r->p.threads[r->p.n_threads++] = r->th;
		break;
	case PROCESSES:
		if (r->opt && r->opt->only_pid && r->p.pid != r->opt->pid)
			break;
		r->found = 1;
		if (dcfg_reserve((void **)&s->processes, &s->cap_processes, s->n_processes + 1,
		    sizeof *s->processes) < 0)
			return dcfg_json_fail(r->j, "out of memory");
		s->processes[s->n_processes++] = r->p;
		memset(&r->p, 0, sizeof r->p);
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_integer(void *ctx, int id, uint64_t v)
{
	struct reader *r = ctx;

	switch (id) {
	case MAJOR: r->s->major_version = v; r->s->has_version |= 1; break;
	case MINOR: r->s->minor_version = v; r->s->has_version |= 2; break;
	case PR_ID: {
		struct dcfg_seen_entry *e;
		int found;
		if ((e = dcfg_seen_get(&r->processes, v, &found)) == NULL)
			return dcfg_json_fail(r->j, "out of memory");
		if (found)
			return dcfg_json_fail(r->j, "process %llu is listed twice (first at %lu:%lu): "
			    "a trace has one row a process", (unsigned long long)v, e->line, e->column);
		dcfg_json_position(r->j, &e->line, &e->column);
		r->p.pid = v;
		r->skip = r->opt && r->opt->only_pid && v != r->opt->pid;
		break;
	}
	case TH_ID: r->th.tid = v; break;
	case CH_INSTRS: r->chunk_instrs = v; break;
	case CH_EDGES: r->chunk_edges = v; break;
	}
	return DCFG_JSON_OK;
}

static int
on_string(void *ctx, int id, const char *str, size_t len)
{
	struct reader *r = ctx;

	(void)str;
	if (id == CH_SEQUENCE && add(&r->th.counts.characters, len) < 0)
		return too_big(r);
	return DCFG_JSON_OK;
}

static int
on_entry(void *ctx, int id, const char *key, size_t key_len, const char *value,
    size_t len)
{
	struct reader *r = ctx;

	(void)id, (void)key, (void)key_len, (void)value, (void)len;
	if (add(&r->p.dictionary_entries, 1) < 0)
		return too_big(r);
	return DCFG_JSON_OK;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct reader *r = ctx;

	if (r->opt && r->opt->progress)
		r->opt->progress(r->opt->progress_ctx, bytes);
}

static const struct dcfg_json_handler handler = {
	.begin = on_begin,
	.row_begin = on_row_begin,
	.row_end = on_row_end,
	.integer = on_integer,
	.string = on_string,
	.entry = on_entry,
	.progress = on_progress,
};

int
dcfg_trace_summarize(const char *path, const struct dcfg_trace_summary_options *opt,
    struct dcfg_trace_summary *s, struct dcfg_error *err)
{
	struct reader r;
	struct dcfg_input *in;
	int rc = -1;

	memset(s, 0, sizeof *s);
	memset(&r, 0, sizeof r);
	r.opt = opt;
	r.s = s;
	if ((in = dcfg_input_open(path, err)) == NULL)
		return -1;
	if ((r.j = dcfg_json_new(&root, &handler, &r)) == NULL)
		dcfg_error_set(err, path, "out of memory");
	else
		rc = dcfg_json_parse(r.j, in, err);
	if (rc == 1 && r.dcfg_line > 0)
		rc = dcfg_kind_error(err, dcfg_input_name(in), r.dcfg_line, r.dcfg_column,
		    DCFG_KIND_DCFG, DCFG_KIND_TRACE);
	for (size_t i = 0; rc == 0 && i < s->n_processes; i++) {
		s->threads += s->processes[i].n_threads;
		if (add_counts(&s->total, &s->processes[i].total) < 0)
			rc = dcfg_error_set(err, dcfg_input_name(in),
			    "the total of a count does not fit in 64 bits");
	}
	if (rc == 0 && opt && opt->only_pid && !r.found)
		rc = dcfg_error_set(err, dcfg_input_name(in), "no process with PID %llu",
		    (unsigned long long)opt->pid);
	dcfg_json_free(r.j);
	dcfg_input_close(in);
	free(r.p.threads);
	dcfg_seen_free(&r.processes);
	if (rc < 0)
		dcfg_trace_summary_free(s);
	return rc < 0 ? -1 : 0;
}

void
dcfg_trace_summary_free(struct dcfg_trace_summary *s)
{
	size_t i;

	for (i = 0; i < s->n_processes; i++)
		free(s->processes[i].threads);
	free(s->processes);
	memset(s, 0, sizeof *s);
}

/* 6 bits a character over the edges, two decimals rounded half up, exactly. */
static void
out_bits(struct dcfg_output *out, const struct dcfg_trace_counts *c, int json)
{
	unsigned __int128 hundredths, whole;
	char digits[48];
	int n = 0;

	if (c->edges == 0) {
		dcfg_out_str(out, json ? "null" : "none");
		return;
	}
	hundredths = ((unsigned __int128)c->characters * 1200 + c->edges) /
	    ((unsigned __int128)c->edges * 2);
	/* up to 6 x 2^64: more than a uint64_t */
	whole = hundredths / 100;
	do
		digits[n++] = (char)('0' + (unsigned)(whole % 10));
	while ((whole /= 10) > 0);
	while (n > 0)
		dcfg_out_char(out, digits[--n]);
	dcfg_out_char(out, '.');
	dcfg_out_char(out, (char)('0' + (unsigned)(hundredths % 100) / 10));
	dcfg_out_char(out, (char)('0' + (unsigned)(hundredths % 10)));
}

static void
pair(struct dcfg_output *out, const char *sep, const char *name, uint64_t v)
{
	dcfg_out_str(out, sep);
	dcfg_out_str(out, name);
	dcfg_out_u64(out, v);
}

/* The counts as text ("chunks 3 edges ...", or one "  name: value" a line) or JSON members. */
static void
out_counts(struct dcfg_output *out, const struct dcfg_trace_counts *c, int style)
{
	static const char *names[3][5] = {
		{ " chunks ", " edges ", " instructions ", " sequence characters ", " bits per edge " },
		{ "\n  chunks: ", "\n  edges: ", "\n  instructions: ",
		  "\n  sequence characters: ", "\n  bits per edge: " },
		{ ",\"chunks\":", ",\"edges\":", ",\"instructions\":",
		  ",\"sequence_characters\":", ",\"bits_per_edge\":" },
	};
	const char *const *n = names[style];

	pair(out, "", n[0], c->chunks);
	pair(out, "", n[1], c->edges);
	pair(out, "", n[2], c->instructions);
	pair(out, "", n[3], c->characters);
	dcfg_out_str(out, n[4]);
	out_bits(out, c, style == 2);
}

static void
out_version(struct dcfg_output *out, const struct dcfg_trace_summary *s, int json)
{
	if (s->has_version != 3) {
		dcfg_out_str(out, json ? "null" : "unknown");
		return;
	}
	if (json)
		dcfg_out_char(out, '"');
	dcfg_out_u64(out, s->major_version);
	dcfg_out_char(out, '.');
	if (s->minor_version < 10)
		dcfg_out_char(out, '0');
	dcfg_out_u64(out, s->minor_version);
	if (json)
		dcfg_out_char(out, '"');
}

void
dcfg_trace_summary_write(struct dcfg_output *out, const struct dcfg_trace_summary *s,
    int json)
{
	size_t i, k;

	dcfg_out_str(out, json ? "{\"kind\":\"DCFG-trace\",\"version\":" :
	    "kind: DCFG-trace\nversion: ");
	out_version(out, s, json);
	dcfg_out_str(out, json ? ",\"processes\":[" : "\n");
	for (i = 0; i < s->n_processes; i++) {
		const struct dcfg_trace_process_summary *p = &s->processes[i];
		if (json) {
			pair(out, i > 0 ? ",{" : "{", "\"pid\":", p->pid);
			pair(out, "", ",\"threads\":", p->n_threads);
			out_counts(out, &p->total, 2);
			pair(out, "", ",\"dictionary_entries\":", p->dictionary_entries);
			pair(out, "", ",\"transition_table_rows\":", p->table_rows);
			dcfg_out_str(out, ",\"per_thread\":[");
			for (k = 0; k < p->n_threads; k++) {
				pair(out, k > 0 ? ",{" : "{", "\"tid\":", p->threads[k].tid);
				out_counts(out, &p->threads[k].counts, 2);
				dcfg_out_char(out, '}');
			}
			dcfg_out_str(out, "]}");
			continue;
		}
		pair(out, "", "process: ", p->pid);
		pair(out, "", "\n  threads: ", p->n_threads);
		out_counts(out, &p->total, 1);
		pair(out, "", "\n  dictionary entries: ", p->dictionary_entries);
		pair(out, "", "\n  transition table rows: ", p->table_rows);
		for (k = 0; k < p->n_threads; k++) {
			pair(out, "", "\n  thread ", p->threads[k].tid);
			dcfg_out_char(out, ':');
			out_counts(out, &p->threads[k].counts, 0);
		}
		dcfg_out_char(out, '\n');
	}
	if (json) {
		pair(out, "", "],\"total\":{\"processes\":", s->n_processes);
		pair(out, "", ",\"threads\":", s->threads);
		out_counts(out, &s->total, 2);
		dcfg_out_str(out, "}}\n");
	} else {
		pair(out, "", "total: processes ", s->n_processes);
		pair(out, "", " threads ", s->threads);
		out_counts(out, &s->total, 0);
		dcfg_out_char(out, '\n');
	}
}
