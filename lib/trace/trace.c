#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seen.h"
#include "input.h"
#include "json.h"
#include "kind.h"
#include "sequence.h"
#include "ttable.h"
#include "vec.h"

enum field_id {
	ROOT, MAJOR, MINOR, PROCESSES,
	PR_ID, PR_DICT, PR_TABLE, PR_THREADS,
	TT_CURRENT, TT_CODE, TT_NEXT,
	TH_ID, TH_TRACE,
	CH_PRECEDING, CH_INSTRS, CH_EDGES, CH_FIRST, CH_SEQUENCE,
	DCFG_KEY, DCFG_COLUMN   /* a DCFG's (kind.h): a DCFG given by mistake */
};

#define FIELD(name, id, kind, schema, req) { name, id, kind, schema, req }
#define SCHEMA(name, ...) \
	static const struct dcfg_json_field name##_fields[] = { __VA_ARGS__ }; \
	static const struct dcfg_json_schema name = { name##_fields, \
	    (int)(sizeof name##_fields / sizeof name##_fields[0]) }

SCHEMA(chunks,
    FIELD("PRECEDING_INSTR_COUNT", CH_PRECEDING, DCFG_JSON_INT, NULL, 1),
    FIELD("INSTR_COUNT", CH_INSTRS, DCFG_JSON_INT, NULL, 1),
    FIELD("EDGE_COUNT", CH_EDGES, DCFG_JSON_INT, NULL, 1),
    FIELD("FIRST_EDGE_ID", CH_FIRST, DCFG_JSON_INT, NULL, 1),
    FIELD("EDGE_ID_SEQUENCE", CH_SEQUENCE, DCFG_JSON_STRING, NULL, 1));
SCHEMA(threads,
    FIELD("THREAD_ID", TH_ID, DCFG_JSON_INT, NULL, 1),
    FIELD("TRACE_DATA", TH_TRACE, DCFG_JSON_TABLE, &chunks, 1));
SCHEMA(transitions,
    FIELD("CURRENT_EDGE_ID", TT_CURRENT, DCFG_JSON_INT, NULL, 1),
    FIELD("TRANSITION_CODE", TT_CODE, DCFG_JSON_STRING, NULL, 1),
    FIELD("NEXT_EDGE_IDS", TT_NEXT, DCFG_JSON_INT_ARRAY, NULL, 1));
/* Required, but checked in on_header: a DCFG's PROCESSES has neither. */
SCHEMA(processes,
    FIELD("PROCESS_ID", PR_ID, DCFG_JSON_INT, NULL, 1),
    FIELD("STRING_DICTIONARY", PR_DICT, DCFG_JSON_DICT, NULL, 0),
    FIELD("TRANSITION_TABLE", PR_TABLE, DCFG_JSON_TABLE, &transitions, 0),
    FIELD("THREAD_DATA", PR_THREADS, DCFG_JSON_TABLE, &threads, 0),
    FIELD("PROCESS_DATA", DCFG_COLUMN, DCFG_JSON_SKIP, NULL, 0));
SCHEMA(any, FIELD("", DCFG_KEY, DCFG_JSON_SKIP, NULL, 0));
SCHEMA(top,
    FIELD("MAJOR_VERSION", MAJOR, DCFG_JSON_INT, NULL, 0),
    FIELD("MINOR_VERSION", MINOR, DCFG_JSON_INT, NULL, 0),
    FIELD("PROCESSES", PROCESSES, DCFG_JSON_TABLE, &processes, 0),
    FIELD("FILE_NAMES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0),
    FIELD("EDGE_TYPES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0),
    FIELD("SPECIAL_NODES", DCFG_KEY, DCFG_JSON_TABLE, &any, 0));

static const struct dcfg_json_field root = { "", ROOT, DCFG_JSON_OBJECT, &top, 0 };

/* Chunk columns that must be known before its sequence can be decoded. */
#define CHUNK_READY ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 3))

struct dcfg_chunk {
	struct dcfg_trace *trace;
	struct dcfg_chunk_info info;
	struct dcfg_decoder dec;
	const char *seq;
	int started;
	int failed;                   /* the error is set */
};

struct dcfg_trace {
	const struct dcfg_trace_handler *h;
	void *ctx;
	struct dcfg_json *j;

	struct dcfg_dict dict;
	unsigned long *dict_places;   /* line and column of each dictionary value */
	size_t cap_places;
	struct dcfg_ttable table;
	uint64_t pid, tid;
	int skip_process, skip_thread;
	unsigned long chunks;         /* in the current thread */

	/* the transition row being read */
	uint32_t current;
	char code[40];
	size_t code_len;
	uint32_t *next;
	size_t n_next, cap_next;

	/* the chunk row being read */
	struct dcfg_chunk chunk;
	unsigned have;                /* CHUNK_READY bits seen */
	char *seq_copy;               /* the sequence, when it came before other columns */
	size_t cap_seq;
	int seq_pending;
	unsigned long seq_line, seq_column;
	unsigned long first_line, first_column;
	/*
	 * Spec 3.3: one process per PROCESS_ID, so a PID in two rows is an
	 * error; a thread in two rows of a process is one thread, and its
	 * chunks are in execution order across the rows (spec 3.7).
	 */
	struct dcfg_seen processes, threads;
	struct dcfg_seen_entry *thread_at;        /* the current thread's, in threads */
	int data_error;               /* the error is about the data, not the syntax */
	int top_rank;                 /* the last of MAJOR_VERSION, MINOR_VERSION, PROCESSES seen */
	int top_said;
	unsigned process_has;         /* 1: TRANSITION_TABLE, 2: THREAD_DATA in this row */
	unsigned long dcfg_line, dcfg_column;   /* where the file shows it is a DCFG */
};

/* A data error: raised like any other, remembered as one. */
#define DATA_FAIL(t, ...) ((t)->data_error = 1, dcfg_json_fail((t)->j, __VA_ARGS__))

/* Spec 1.2.3: ids are 1 to 0x7fffffff; 0 and 0x80000000 up are reserved. */
#define ID_MAX 0x7fffffffu
#define RESERVED "is reserved: ids are 1 to 2147483647 (0x7fffffff)"

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
answer(int rc)
{
	return rc == DCFG_TRACE_STOP ? DCFG_JSON_STOP :
	    rc == DCFG_TRACE_ERROR ? DCFG_JSON_ERROR : DCFG_JSON_OK;
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

/* Spec 3.7: FIRST_EDGE_ID is an id unless EDGE_COUNT is 0 (then it is ignored). */
static int
first_edge_conforms(struct dcfg_trace *t)
{
	const struct dcfg_chunk_info *ci = &t->chunk.info;

	if (ci->edge_count == 0 || (ci->first_edge_id > 0 && ci->first_edge_id <= ID_MAX))
		return DCFG_JSON_OK;
	t->data_error = 1;
	return dcfg_json_fail_at(t->j, t->first_line, t->first_column,
	    "process %llu thread %llu chunk %lu: FIRST_EDGE_ID %llu " RESERVED,
	    (unsigned long long)ci->pid, (unsigned long long)ci->tid, ci->index,
	    (unsigned long long)ci->first_edge_id);
}

/*
 * Spec 3.7: chunks are in execution order. None starts before the end of
 * its thread's chunk before it, though gaps are allowed.
 */
static int
preceding_conforms(struct dcfg_trace *t)
{
	const struct dcfg_chunk_info *ci = &t->chunk.info;

	const struct dcfg_seen_entry *e = t->thread_at;

	if (!e->has_chunk || ci->preceding_instr_count >= e->end)
		return DCFG_JSON_OK;
	if (t->h->backward)
		return answer(t->h->backward(t->ctx, &t->chunk, e->end));
	if (ci->index == 0)
		return DATA_FAIL(t, "process %llu thread %llu chunk 0: PRECEDING_INSTR_COUNT %llu is "
		    "below the end of the thread's chunks in its row at %lu:%lu (%llu): chunks are "
		    "in execution order", (unsigned long long)ci->pid, (unsigned long long)ci->tid,
		    (unsigned long long)ci->preceding_instr_count, e->line, e->column,
		    (unsigned long long)e->end);
	return DATA_FAIL(t, "process %llu thread %llu chunk %lu: PRECEDING_INSTR_COUNT %llu is "
	    "below the end of chunk %lu (%llu): chunks are in execution order",
	    (unsigned long long)ci->pid, (unsigned long long)ci->tid, ci->index,
	    (unsigned long long)ci->preceding_instr_count, ci->index - 1,
	    (unsigned long long)e->end);
}

static int
process_chunk(struct dcfg_trace *t, const char *seq, size_t len)
{
	struct dcfg_chunk *c = &t->chunk;
	int rc;

	c->seq = seq;
	c->info.sequence_length = len;
	c->started = c->failed = 0;
	if (first_edge_conforms(t) != DCFG_JSON_OK)
		return DCFG_JSON_ERROR;
	/* a chunk that ends past 2^64-1 leaves no room after it */
	if (__builtin_add_overflow(c->info.preceding_instr_count, c->info.instr_count,
	    &t->thread_at->end))
		t->thread_at->end = UINT64_MAX;
	t->thread_at->has_chunk = 1;
	rc = t->h->chunk ? t->h->chunk(t->ctx, c) : DCFG_TRACE_OK;
	if (rc == DCFG_TRACE_ERROR)
		t->data_error = 1;
	if (rc == DCFG_TRACE_ERROR && !c->failed)
		dcfg_json_fail_at(t->j, t->seq_line, t->seq_column,
		    "process %llu thread %llu chunk %lu %s %llu: %s",
		    (unsigned long long)c->info.pid, (unsigned long long)c->info.tid,
		    c->info.index, c->dec.error_at == DCFG_SEQ_NONE ? "edge" : "character",
		    c->dec.error_at == DCFG_SEQ_NONE ? (unsigned long long)c->dec.emitted :
		    (unsigned long long)c->dec.error_at + 1, c->dec.error);
	return answer(rc);
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
			return process_chunk(t, t->seq_copy, t->chunk.info.sequence_length);
		break;
	}
	return DCFG_JSON_OK;
}

/* Spec 3.3: the DCFG has one process per PID, so a trace lists it once. */
static int
process_once(struct dcfg_trace *t, uint64_t pid)
{
	struct dcfg_seen_entry *e;
	int found;

	if ((e = dcfg_seen_get(&t->processes, pid, &found)) == NULL)
		return dcfg_json_fail(t->j, "out of memory");
	if (found)
		return DATA_FAIL(t, "process %llu is listed twice (first at %lu:%lu): a trace "
		    "has one row a process", (unsigned long long)pid, e->line, e->column);
	dcfg_json_position(t->j, &e->line, &e->column);
	return DCFG_JSON_OK;
}

/* A thread in two rows is one thread: where its chunks end is kept across rows. */
static int
thread_row(struct dcfg_trace *t, uint64_t tid)
{
	int found;

	if ((t->thread_at = dcfg_seen_get(&t->threads, tid, &found)) == NULL)
		return dcfg_json_fail(t->j, "out of memory");
	if (found && t->thread_at->has_chunk)
		return DCFG_JSON_OK;   /* its row with chunks is the one to name */
	dcfg_json_position(t->j, &t->thread_at->line, &t->thread_at->column);
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
		if ((rc = process_once(t, v)) != DCFG_JSON_OK)
			return rc;
		t->pid = v;
		rc = t->h->process ? t->h->process(t->ctx, t, v) : DCFG_TRACE_OK;
		t->skip_process = rc == DCFG_TRACE_SKIP;
		return answer(rc);
	case TH_ID:
		if ((rc = thread_row(t, v)) != DCFG_JSON_OK)
			return rc;
		t->tid = v;
		rc = t->h->thread ? t->h->thread(t->ctx, t, t->pid, v) : DCFG_TRACE_OK;
		t->skip_thread = rc == DCFG_TRACE_SKIP;
		return answer(rc);
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
				return first_edge_conforms(t);
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
		return preceding_conforms(t);
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
			return process_chunk(t, s, len);
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

const struct dcfg_chunk_info *
dcfg_chunk_info(const struct dcfg_chunk *c)
{
	return &c->info;
}

ssize_t
dcfg_chunk_next(struct dcfg_chunk *c, uint32_t *ids, size_t max)
{
	struct dcfg_trace *t = c->trace;

	if (!c->started) {
		c->started = 1;
		dcfg_decoder_set_runs(&c->dec, 0);
		if (dcfg_decoder_start(&c->dec, &t->table, &t->dict, c->info.first_edge_id,
		    c->info.edge_count, c->seq, c->info.sequence_length) < 0)
			return -1;
	}
	return dcfg_decoder_next(&c->dec, ids, max);
}

ssize_t
dcfg_chunk_next_runs(struct dcfg_chunk *c, uint32_t *ids, size_t max,
    struct dcfg_run_event *ev)
{
	struct dcfg_trace *t = c->trace;

	if (!c->started) {
		c->started = 1;
		dcfg_decoder_set_runs(&c->dec, 1);
		if (dcfg_decoder_start(&c->dec, &t->table, &t->dict, c->info.first_edge_id,
		    c->info.edge_count, c->seq, c->info.sequence_length) < 0)
			return -1;
	}
	return dcfg_decoder_next_runs(&c->dec, ids, max, ev);
}

uint64_t
dcfg_chunk_emitted(const struct dcfg_chunk *c)
{
	return c->dec.emitted;
}

void
dcfg_chunk_rewind(struct dcfg_chunk *c)
{
	c->started = 0;
}

/* A chunk's error: about edge EDGE_INDEX, or (ROW) about its row as a whole. */
static int
chunk_vfail(struct dcfg_chunk *c, int row, uint64_t edge_index, const char *fmt, va_list ap)
{
	struct dcfg_trace *t = c->trace;
	char msg[300];

	vsnprintf(msg, sizeof msg, fmt, ap);
	t->data_error = 1;
	if (row)
		dcfg_json_fail_at(t->j, t->seq_line, t->seq_column, "process %llu thread %llu chunk %lu: %s",
		    (unsigned long long)c->info.pid, (unsigned long long)c->info.tid,
		    c->info.index, msg);
	else
		dcfg_json_fail(t->j, "process %llu thread %llu chunk %lu edge %llu: %s",
		    (unsigned long long)c->info.pid, (unsigned long long)c->info.tid,
		    c->info.index, (unsigned long long)edge_index, msg);
	c->failed = 1;
	return DCFG_TRACE_ERROR;
}

int
dcfg_chunk_fail(struct dcfg_chunk *c, uint64_t edge_index, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = chunk_vfail(c, 0, edge_index, fmt, ap);
	va_end(ap);
	return rc;
}

int
dcfg_chunk_fail_row(struct dcfg_chunk *c, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = chunk_vfail(c, 1, 0, fmt, ap);
	va_end(ap);
	return rc;
}
