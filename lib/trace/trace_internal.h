/*
 * What the two halves of the trace reader (trace.h) share: the reader's
 * state, and the checks and calls made for each chunk row (trace_chunk.c)
 * from the table reading (trace.c). Not for other modules: they use
 * trace.h.
 */
#ifndef DCFG_TRACE_INTERNAL_H
#define DCFG_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/json.h"
#include "seen.h"
#include "sequence.h"
#include <dcfg/trace.h>
#include "ttable.h"

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
	unsigned long row_line, row_column;     /* the current thread row's THREAD_ID */
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

/* A callback's answer (DCFG_TRACE_*) as the JSON reader's (DCFG_JSON_*). */
static inline int
dcfg_trace_answer(int rc)
{
	return rc == DCFG_TRACE_STOP ? DCFG_JSON_STOP :
	    rc == DCFG_TRACE_ERROR ? DCFG_JSON_ERROR : DCFG_JSON_OK;
}

/* Spec 3.3: a PROCESS_ID in a second row is an error naming the first. */
int dcfg_trace_process_once(struct dcfg_trace *t, uint64_t pid);

/* The thread TID of the current process begins a row: where its chunks end so far. */
int dcfg_trace_thread_row(struct dcfg_trace *t, uint64_t tid);

/* The checks of a chunk row's values, as they are read (spec 1.2.3, 3.7). */
int dcfg_trace_first_edge_conforms(struct dcfg_trace *t);
int dcfg_trace_preceding_conforms(struct dcfg_trace *t);

/* The chunk row is read (its sequence SEQ, LEN characters): the consumer's turn. */
int dcfg_trace_process_chunk(struct dcfg_trace *t, const char *seq, size_t len);

#endif
