/*
 * What dcfg-info prints for a DCFG-trace: per process and per thread, the
 * chunks, edges and instructions the chunk rows declare and the length of
 * their sequence strings, with the process's dictionary and transition
 * table sizes. One streaming pass that decodes nothing: memory grows with
 * the processes and threads, not with chunks or edges (yajl holds one
 * sequence string at a time).
 */
#ifndef DCFG_TRACE_SUMMARY_H
#define DCFG_TRACE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>
#include "common/output.h"

struct dcfg_trace_counts {
	uint64_t chunks;
	uint64_t edges;          /* sum of EDGE_COUNT */
	uint64_t instructions;   /* sum of INSTR_COUNT */
	uint64_t characters;     /* sum of the EDGE_ID_SEQUENCE lengths, as stored */
};

struct dcfg_trace_thread_summary {
	uint64_t tid;
	struct dcfg_trace_counts counts;
};

struct dcfg_trace_process_summary {
	uint64_t pid;
	uint64_t dictionary_entries;   /* STRING_DICTIONARY keys */
	uint64_t table_rows;           /* TRANSITION_TABLE rows after the header */
	struct dcfg_trace_counts total;
	struct dcfg_trace_thread_summary *threads;
	size_t n_threads, cap_threads;
};

struct dcfg_trace_summary {
	unsigned has_version;          /* 1: major, 2: minor */
	uint64_t major_version, minor_version;
	struct dcfg_trace_process_summary *processes;
	size_t n_processes, cap_processes;
	uint64_t threads;                  /* over all processes kept */
	struct dcfg_trace_counts total;
};

struct dcfg_trace_summary_options {
	int only_pid;                  /* keep only process PID */
	uint64_t pid;
	void (*progress)(void *ctx, uint64_t bytes);   /* may be NULL */
	void *progress_ctx;
};

/*
 * Reads PATH ("-" or NULL: standard input) into S. -1 with ERR set when it
 * cannot be read, is not a DCFG-trace, or a total does not fit in 64 bits.
 * With only_pid, a PID not in the file is an error too.
 */
int dcfg_trace_summarize(const char *path, const struct dcfg_trace_summary_options *opt,
    struct dcfg_trace_summary *s, struct dcfg_error *err);
void dcfg_trace_summary_free(struct dcfg_trace_summary *s);

/* The report, as text or one line of JSON. */
void dcfg_trace_summary_write(struct dcfg_output *out, const struct dcfg_trace_summary *s,
    int json);

#endif
