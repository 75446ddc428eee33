/*
 * dcfg-convert's formats: a table of writers, each a module of its own,
 * and what they share (choosing processes, inclusive costs from a trace,
 * one output or one file per process or thread in a directory).
 */
#ifndef DCFG_CONVERT_H
#define DCFG_CONVERT_H

#include <stdint.h>

#include "dcfg.h"
#include "error.h"
#include "output.h"
#include "profile.h"

struct dcfg_convert_options {
	const char *dcfg_path, *trace_path, *out_dir, *cmd, *creator;
	uint64_t pid;
	int has_pid, separate_threads;
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
};

struct dcfg_convert {
	const struct dcfg *d;
	const struct dcfg_convert_options *o;
	struct dcfg_output *out;   /* standard output or -o; unused with out_dir */
};

struct dcfg_format {
	const char *name;
	/* 0; -1 with ERR (exit 2); -2 with ERR: the inputs disagree (exit 1). */
	int (*run)(const struct dcfg_convert *c, struct dcfg_error *err);
};

/* NULL for an unknown name. */
const struct dcfg_format *dcfg_format_find(const char *name);
/* "callgrind, webgrind, ...": the names, for messages. */
const char *dcfg_format_names(void);

/*
 * The processes to convert: the -p one, or all of them when writing to a
 * directory, or the only one. *N gets how many; NULL with ERR on an error.
 * The array is the DCFG's own (a range), or a pointer to the one.
 */
const struct dcfg_process *dcfg_convert_processes(const struct dcfg_convert *c,
    size_t *n, struct dcfg_error *err);

/*
 * Writes through WRITE either to c->out, or to O->out_dir/NAME (created;
 * removed again when the write fails). 0, or -1 with ERR.
 */
int dcfg_convert_file(const struct dcfg_convert *c, const char *name,
    int (*write)(struct dcfg_output *out, void *ctx), void *ctx, struct dcfg_error *err);

/*
 * The profile formats: for each process, and each thread with
 * --separate-threads (else all threads summed), builds the profile (exact
 * inclusive costs with a trace, estimated without) and writes it through
 * WRITE to PREFIX.PID or PREFIX.PID-TT. THREAD is DCFG_ALL_THREADS for sums.
 */
typedef int (*dcfg_profile_writer)(struct dcfg_output *out, const struct dcfg_profile *pf,
    uint32_t thread, const struct dcfg_convert_options *o);
int dcfg_convert_profiles(const struct dcfg_convert *c, const char *prefix,
    dcfg_profile_writer write, struct dcfg_error *err);

/* The per-format entry points, for the table. */
int dcfg_convert_callgrind(const struct dcfg_convert *c, struct dcfg_error *err);

#endif
