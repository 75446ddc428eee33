#include "trace_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/input.h"
#include "common/json.h"
#include "common/kind.h"
#include "sequence.h"
#include "ttable.h"
#include "common/vec.h"

enum field_id {
	ROOT, MAJOR, MINOR, PROCESSES,
	PR_ID, PR_DICT, PR_TABLE, PR_THREADS,
	TT_CURRENT, TT_CODE, TT_NEXT,
	TH_ID, TH_TRACE,
	CH_PRECEDING, CH_INSTRS, CH_EDGES, CH_FIRST, CH_SEQUENCE,
	DCFG_KEY, DCFG_COLUMN   /* a DCFG's (kind.h): a DCFG given by mistake */
};

DCFG_JSON_SCHEMA(chunks,
    DCFG_JSON_FIELD("PRECEDING_INSTR_COUNT", CH_PRECEDING, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("INSTR_COUNT", CH_INSTRS, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("EDGE_COUNT", CH_EDGES, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("FIRST_EDGE_ID", CH_FIRST, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("EDGE_ID_SEQUENCE", CH_SEQUENCE, DCFG_JSON_STRING, NULL, 1));
DCFG_JSON_SCHEMA(threads,
    DCFG_JSON_FIELD("THREAD_ID", TH_ID, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("TRACE_DATA", TH_TRACE, DCFG_JSON_TABLE, &chunks, 1));
DCFG_JSON_SCHEMA(transitions,
    DCFG_JSON_FIELD("CURRENT_EDGE_ID", TT_CURRENT, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("TRANSITION_CODE", TT_CODE, DCFG_JSON_STRING, NULL, 1),
    DCFG_JSON_FIELD("NEXT_EDGE_IDS", TT_NEXT, DCFG_JSON_INT_ARRAY, NULL, 1));
/* Required, but checked in on_header: a DCFG's PROCESSES has neither. */
DCFG_JSON_SCHEMA(processes,
    DCFG_JSON_FIELD("PROCESS_ID", PR_ID, DCFG_JSON_INT, NULL, 1),
    DCFG_JSON_FIELD("STRING_DICTIONARY", PR_DICT, DCFG_JSON_DICT, NULL, 0),
    DCFG_JSON_FIELD("TRANSITION_TABLE", PR_TABLE, DCFG_JSON_TABLE, &transitions, 0),
    DCFG_JSON_FIELD("THREAD_DATA", PR_THREADS, DCFG_JSON_TABLE, &threads, 0),
    DCFG_JSON_FIELD("PROCESS_DATA", DCFG_COLUMN, DCFG_JSON_SKIP, NULL, 0));
DCFG_JSON_SCHEMA(any, DCFG_JSON_FIELD("", DCFG_KEY, DCFG_JSON_SKIP, NULL, 0));
DCFG_JSON_SCHEMA(top,
    DCFG_JSON_FIELD("MAJOR_VERSION", MAJOR, DCFG_JSON_INT, NULL, 0),
    DCFG_JSON_FIELD("MINOR_VERSION", MINOR, DCFG_JSON_INT, NULL, 0),
    DCFG_JSON_FIELD("PROCESSES", PROCESSES, DCFG_JSON_TABLE, &processes, 0),
    DCFG_JSON_FIELD("FILE_NAMES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0),
    DCFG_JSON_FIELD("EDGE_TYPES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0),
    DCFG_JSON_FIELD("SPECIAL_NODES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0));

static const struct dcfg_json_field root = { "", ROOT, DCFG_JSON_OBJECT, &top, 0 };


/* The mandated order of the keys (1, 2, 3) and of each table's columns. */
static void
top_key(struct dcfg_trace *t, int rank)
{
	if (rank < t->top_rank && t->h->order && !t->top_said) {
		t->top_said = 1;
		t->h->order(t->ctx,
		    "the top-level keys are not in the order MAJOR_VERSION, MINOR_VERSION, PROCESSES");
	}
	if (rank > t->top_rank)
		t->top_rank = rank;
}

static void
column_order(struct dcfg_trace *t, const char *table, const int *ids, int n)
{
	char what[120];
	int i, last = -1, pos;

	for (i = 0; i < n; i++) {
		if ((pos = dcfg_json_column(t->j, ids[i])) < 0)
			continue;
		if (pos < last && t->h->order) {
			snprintf(what, sizeof what, "the columns of %s are not in the specified order", table);
			t->h->order(t->ctx, what);
			return;
		}
		last = pos;
	}
}

static int
need_order(struct dcfg_trace *t, int later, int earlier, const char *later_name,
    const char *earlier_name)
{
	unsigned long line, column;
	int a = dcfg_json_column(t->j, later), b = dcfg_json_column(t->j, earlier);

	if (a < 0 || b < 0 || b < a)
		return 0;
	dcfg_json_header_position(t->j, &line, &column);
	t->data_error = 1;
	return dcfg_json_fail_at(t->j, line, column,
	    "%s comes before %s: the trace cannot be read in one pass",
	    later_name, earlier_name);
}

static int
on_header(void *ctx, int table)
{
	struct dcfg_trace *t = ctx;

	static const int pr[] = { PR_ID, PR_DICT, PR_TABLE, PR_THREADS };
	static const int tt[] = { TT_CURRENT, TT_CODE, TT_NEXT };
	static const int th[] = { TH_ID, TH_TRACE };
	static const int ch[] = { CH_PRECEDING, CH_INSTRS, CH_EDGES, CH_FIRST, CH_SEQUENCE };

	if (table == PROCESSES && (dcfg_json_column(t->j, PR_TABLE) < 0 ||
	    dcfg_json_column(t->j, PR_THREADS) < 0)) {
		unsigned long line, column;
		dcfg_json_header_position(t->j, &line, &column);
		if (dcfg_json_column(t->j, DCFG_COLUMN) >= 0) {
			t->dcfg_line = line;
			t->dcfg_column = column;
			return DCFG_JSON_STOP;
		}
		return dcfg_json_fail_at(t->j, line, column, "the header has no %s column",
		    dcfg_json_column(t->j, PR_TABLE) < 0 ? "TRANSITION_TABLE" : "THREAD_DATA");
	}
	if (table == PROCESSES)
		column_order(t, "PROCESSES", pr, 4);
	else if (table == PR_TABLE)
		column_order(t, "TRANSITION_TABLE", tt, 3);
	else if (table == PR_THREADS)
		column_order(t, "THREAD_DATA", th, 2);
	else if (table == TH_TRACE)
		column_order(t, "TRACE_DATA", ch, 5);
	if (table == PROCESSES &&
	    (need_order(t, PR_THREADS, PR_TABLE, "THREAD_DATA", "TRANSITION_TABLE") < 0 ||
	    need_order(t, PR_THREADS, PR_DICT, "THREAD_DATA", "STRING_DICTIONARY") < 0 ||
	    need_order(t, PR_THREADS, PR_ID, "THREAD_DATA", "PROCESS_ID") < 0))
		return DCFG_JSON_ERROR;
	if (table == PR_THREADS &&
	    need_order(t, TH_TRACE, TH_ID, "TRACE_DATA", "THREAD_ID") < 0)
		return DCFG_JSON_ERROR;
	return DCFG_JSON_OK;
}

static int
on_begin(void *ctx, int id)
{
	struct dcfg_trace *t = ctx;

	switch (id) {
	case DCFG_KEY:
		dcfg_json_position(t->j, &t->dcfg_line, &t->dcfg_column);
		return DCFG_JSON_STOP;
	case PROCESSES:
		top_key(t, 3);
		break;
	case PR_TABLE:
		t->process_has |= 1;
		dcfg_ttable_reset(&t->table);
		break;
	case PR_THREADS:
		t->process_has |= 2;
		return t->skip_process ? DCFG_JSON_DROP : DCFG_JSON_OK;
	case TH_TRACE:
		t->chunks = 0;
		return t->skip_thread ? DCFG_JSON_DROP : DCFG_JSON_OK;
	}
	return DCFG_JSON_OK;
}

/* A dictionary that is not well formed is reported at the value at fault. */
static int
finish_dict(struct dcfg_trace *t)
{
	struct dcfg_seqerr err;
	size_t i;

	if (dcfg_dict_finish(&t->dict, &err, &i) == 0)
		return DCFG_JSON_OK;
	const struct dcfg_dict_entry *e = &t->dict.entries[i];
	int klen = e->key_len > 64 ? 64 : (int)e->key_len;
	t->data_error = 1;
	if (err.at == DCFG_SEQ_NONE)
		return dcfg_json_fail_at(t->j, t->dict_places[2 * i], t->dict_places[2 * i + 1],
		    "key \"%.*s\" %s", klen, t->dict.pool + e->key, err.msg);
	return dcfg_json_fail_at(t->j, t->dict_places[2 * i], t->dict_places[2 * i + 1],
	    "key \"%.*s\" character %lu: %s", klen, t->dict.pool + e->key,
	    (unsigned long)err.at + 1, err.msg);
}

static int
on_end(void *ctx, int id)
{
	struct dcfg_trace *t = ctx;
	char msg[200];

	switch (id) {
	case PR_DICT:
		return finish_dict(t);
	case PR_TABLE:
		if (dcfg_ttable_finish(&t->table, msg, sizeof msg) < 0)
			return DATA_FAIL(t, "%s", msg);
		break;
	case TT_NEXT:
		if (t->n_next == 0) {
			unsigned long line, column;
			dcfg_json_value_position(t->j, &line, &column);
			t->data_error = 1;
			return dcfg_json_fail_at(t->j, line, column,
			    "at least one edge id is needed");
		}
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_row_begin(void *ctx, int table)
{
	struct dcfg_trace *t = ctx;

	switch (table) {
	case PROCESSES:
		dcfg_dict_reset(&t->dict);
		dcfg_ttable_reset(&t->table);
		t->skip_process = 0;
		t->process_has = 0;
		dcfg_seen_clear(&t->threads);
		break;
	case PR_TABLE:
		t->code_len = 0;
		t->n_next = 0;
		break;
	case PR_THREADS:
		t->skip_thread = 0;
		break;
	case TH_TRACE:
		memset(&t->chunk.info, 0, sizeof t->chunk.info);
		t->chunk.info.pid = t->pid;
		t->chunk.info.tid = t->tid;
		t->chunk.info.index = t->chunks++;
		t->have = 0;
		t->seq_pending = 0;
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_row_end(void *ctx, int table)
{
	struct dcfg_trace *t = ctx;
	const char *why;

	switch (table) {
	case PROCESSES:
		if ((t->process_has & 3) != 3) {
			unsigned long line, column;
			dcfg_json_value_position(t->j, &line, &column);
			return dcfg_json_fail_at(t->j, line, column, "row has no value for %s",
			    t->process_has & 1 ? "THREAD_DATA" : "TRANSITION_TABLE");
		}
		break;
	case PR_TABLE:
		if (dcfg_ttable_add(&t->table, t->current, t->code, t->code_len,
		    t->next, t->n_next, &why) < 0)
			return DATA_FAIL(t, "%s", why);
		break;
	case TH_TRACE:
		if (t->seq_pending)
			return dcfg_trace_process_chunk(t, t->seq_copy, t->chunk.info.sequence_length);
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_integer(void *ctx, int id, uint64_t v)
{
	struct dcfg_trace *t = ctx;
	struct dcfg_chunk_info *ci = &t->chunk.info;
	int rc;

	switch (id) {
	case MAJOR: top_key(t, 1); break;
	case MINOR: top_key(t, 2); break;
	case PR_ID:
		if ((rc = dcfg_trace_process_once(t, v)) != DCFG_JSON_OK)
			return rc;
		t->pid = v;
		rc = t->h->process ? t->h->process(t->ctx, t, v) : DCFG_TRACE_OK;
		t->skip_process = rc == DCFG_TRACE_SKIP;
		return dcfg_trace_answer(rc);
	case TH_ID:
		if ((rc = dcfg_trace_thread_row(t, v)) != DCFG_JSON_OK)
			return rc;
		t->tid = v;
		rc = t->h->thread ? t->h->thread(t->ctx, t, t->pid, v) : DCFG_TRACE_OK;
		t->skip_thread = rc == DCFG_TRACE_SKIP;
		return dcfg_trace_answer(rc);
	case TT_CURRENT:
	case TT_NEXT:
	case CH_FIRST:
		if (v > UINT32_MAX)
			return dcfg_json_fail(t->j, "id does not fit in 32 bits");
		if (id != CH_FIRST && (v == 0 || v > ID_MAX))
			return DATA_FAIL(t, "edge id %llu " RESERVED, (unsigned long long)v);
		if (id == TT_CURRENT) {
			t->current = (uint32_t)v;
		} else if (id == CH_FIRST) {
			/* reserved only if the chunk has edges */
			ci->first_edge_id = (uint32_t)v;
			dcfg_json_position(t->j, &t->first_line, &t->first_column);
			t->have |= 1u << 3;
			if (t->have & (1u << 2))
				return dcfg_trace_first_edge_conforms(t);
		} else {
			if (dcfg_reserve((void **)&t->next, &t->cap_next, t->n_next + 1,
			    sizeof *t->next) < 0)
				return dcfg_json_fail(t->j, "out of memory");
			t->next[t->n_next++] = (uint32_t)v;
		}
		break;
	case CH_PRECEDING:
		ci->preceding_instr_count = v;
		t->have |= 1u << 0;
		return dcfg_trace_preceding_conforms(t);
	case CH_INSTRS: ci->instr_count = v; t->have |= 1u << 1; break;
	case CH_EDGES: ci->edge_count = v; t->have |= 1u << 2; break;
	}
	return DCFG_JSON_OK;
}

static int
on_string(void *ctx, int id, const char *s, size_t len)
{
	struct dcfg_trace *t = ctx;
	size_t i;

	switch (id) {
	case TT_CODE:
		for (i = 0; i < len; i++)
			if (s[i] != '0' && s[i] != '1')
				return DATA_FAIL(t, "a code has only the characters '0' and '1'");
		if (len > 32)
			return DATA_FAIL(t, "a code has at most 32 bits");
		memcpy(t->code, s, len);
		t->code_len = len;
		break;
	case CH_SEQUENCE:
		dcfg_json_position(t->j, &t->seq_line, &t->seq_column);
		/* In the spec's column order, decode straight from yajl's buffer. */
		if ((t->have & CHUNK_READY) == CHUNK_READY)
			return dcfg_trace_process_chunk(t, s, len);
		if (dcfg_reserve((void **)&t->seq_copy, &t->cap_seq, len + 1, 1) < 0)
			return dcfg_json_fail(t->j, "out of memory");
		memcpy(t->seq_copy, s, len);
		t->chunk.info.sequence_length = len;
		t->seq_pending = 1;
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_entry(void *ctx, int id, const char *key, size_t key_len, const char *value,
    size_t len)
{
	struct dcfg_trace *t = ctx;
	const char *why;

	(void)id;
	if (dcfg_dict_add(&t->dict, key, key_len, value, len, &why) < 0)
		return DATA_FAIL(t, "key \"%.*s\" %s",
		    (int)(key_len > 64 ? 64 : key_len), key, why);
	if (dcfg_reserve((void **)&t->dict_places, &t->cap_places, 2 * t->dict.n,
	    sizeof *t->dict_places) < 0)
		return dcfg_json_fail(t->j, "out of memory");
	dcfg_json_position(t->j, &t->dict_places[2 * t->dict.n - 2],
	    &t->dict_places[2 * t->dict.n - 1]);
	return DCFG_JSON_OK;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct dcfg_trace *t = ctx;

	if (t->h->progress)
		t->h->progress(t->ctx, bytes);
}

static const struct dcfg_json_handler handler = {
	.begin = on_begin,
	.end = on_end,
	.row_begin = on_row_begin,
	.row_end = on_row_end,
	.integer = on_integer,
	.string = on_string,
	.entry = on_entry,
	.header = on_header,
	.progress = on_progress,
	.wants = DCFG_KIND_TRACE,
};

int
dcfg_trace_read(const char *path, const struct dcfg_trace_handler *h,
    void *ctx, struct dcfg_error *err)
{
	struct dcfg_trace t;
	struct dcfg_input *in;
	int rc = -1;

	memset(&t, 0, sizeof t);
	t.h = h;
	t.ctx = ctx;
	t.chunk.trace = &t;
	dcfg_dict_init(&t.dict);
	dcfg_ttable_init(&t.table);
	dcfg_decoder_init(&t.chunk.dec);
	if ((in = dcfg_input_open(path, err)) == NULL)
		return -1;
	if (h->start)
		h->start(ctx);
	if (h->sum)
		dcfg_input_sum_start(in);
	if ((t.j = dcfg_json_new(&root, &handler, &t)) == NULL)
		dcfg_error_set(err, path, "out of memory");
	else
		rc = dcfg_json_parse(t.j, in, err);
	if (rc == 0 && h->sum) {
		uint64_t bytes;
		uint32_t crc = dcfg_input_sum(in, &bytes);
		h->sum(ctx, crc, bytes);
	}
	if (rc == 1 && t.dcfg_line > 0)
		rc = dcfg_kind_error(err, dcfg_input_name(in), t.dcfg_line, t.dcfg_column,
		    DCFG_KIND_DCFG, DCFG_KIND_TRACE);
	dcfg_json_free(t.j);
	dcfg_input_close(in);
	if (rc == -1 && !t.data_error)
		dcfg_kind_explain(path, DCFG_KIND_TRACE, err);
	dcfg_dict_free(&t.dict);
	dcfg_ttable_free(&t.table);
	dcfg_seen_free(&t.processes);
	dcfg_seen_free(&t.threads);
	dcfg_decoder_free(&t.chunk.dec);
	free(t.next);
	free(t.seq_copy);
	free(t.dict_places);
	return rc < 0 && t.data_error ? -2 : rc;
}

int
dcfg_trace_fail(struct dcfg_trace *t, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	t->data_error = 1;
	dcfg_json_fail(t->j, "%s", msg);
	return DCFG_TRACE_ERROR;
}

struct process_place {
	uint64_t pid;
	const char *message;
};

static int
fail_at_pid(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	const struct process_place *p = ctx;

	return pid == p->pid ? dcfg_trace_fail(t, "%s", p->message) : DCFG_TRACE_SKIP;
}

int
dcfg_trace_fail_process(const char *path, uint64_t pid, const char *message,
    struct dcfg_error *err)
{
	const struct dcfg_trace_handler h = { .process = fail_at_pid };
	struct process_place p = { pid, message };

	/* standard input cannot be read again */
	if (path == NULL || strcmp(path, "-") == 0)
		return 0;
	return dcfg_trace_read(path, &h, &p, err) < 0 ? -1 : 0;
}
