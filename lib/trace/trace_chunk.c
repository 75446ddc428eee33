/*
 * The trace reader's chunk rows (trace_internal.h): the checks of their
 * values, where a thread's chunks end across its rows, and the chunk
 * handed to the consumer (trace.h's dcfg_chunk_*).
 */
#include <stdarg.h>
#include <stdio.h>

#include "trace_internal.h"

/* Spec 3.7: FIRST_EDGE_ID is an id unless EDGE_COUNT is 0 (then it is ignored). */
int
dcfg_trace_first_edge_conforms(struct dcfg_trace *t)
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
 * its thread's chunk before it, in its row or in an earlier row of the
 * thread, though gaps are allowed.
 */
int
dcfg_trace_preceding_conforms(struct dcfg_trace *t)
{
	const struct dcfg_chunk_info *ci = &t->chunk.info;
	const struct dcfg_seen_entry *e = t->thread_at;

	if (!e->has_chunk || ci->preceding_instr_count >= e->end)
		return DCFG_JSON_OK;
	if (t->h->backward)
		return dcfg_trace_answer(t->h->backward(t->ctx, &t->chunk, e->end));
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

/* Spec 3.3: the DCFG has one process per PID, so a trace lists it once. */
int
dcfg_trace_process_once(struct dcfg_trace *t, uint64_t pid)
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
int
dcfg_trace_thread_row(struct dcfg_trace *t, uint64_t tid)
{
	int found;

	if ((t->thread_at = dcfg_seen_get(&t->threads, tid, &found)) == NULL)
		return dcfg_json_fail(t->j, "out of memory");
	/* the entry names the row of the thread's last chunk, once it has one */
	dcfg_json_position(t->j, &t->row_line, &t->row_column);
	return DCFG_JSON_OK;
}

int
dcfg_trace_process_chunk(struct dcfg_trace *t, const char *seq, size_t len)
{
	struct dcfg_chunk *c = &t->chunk;
	int rc;

	c->seq = seq;
	c->info.sequence_length = len;
	c->started = c->failed = 0;
	if (dcfg_trace_first_edge_conforms(t) != DCFG_JSON_OK)
		return DCFG_JSON_ERROR;
	/* a chunk that ends past 2^64-1 leaves no room after it */
	if (__builtin_add_overflow(c->info.preceding_instr_count, c->info.instr_count,
	    &t->thread_at->end))
		t->thread_at->end = UINT64_MAX;
	t->thread_at->has_chunk = 1;
	t->thread_at->line = t->row_line;
	t->thread_at->column = t->row_column;
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
	return dcfg_trace_answer(rc);
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
