/*
 * A stream stage (dcfg-stream(5)): reads an edge stream, passes '#' lines
 * through, selects the DCFG's process at each "# process" line, writes the
 * fields line, and hands each data line to the stage with its edge.
 */
#ifndef DCFG_STAGE_H
#define DCFG_STAGE_H

#include "dcfg/model.h"
#include <dcfg/error.h>
#include "common/output.h"
#include <dcfg/stream.h>

struct dcfg_stage {
	const struct dcfg *dcfg;
	struct dcfg_output *out;         /* NULL: the stage writes nothing as it goes */
	const char *fields;              /* names of the columns it adds, or NULL */
	int replace;                     /* its columns replace the line (fields: only its own) */
	/* A data line: write it (or not). -1 with ERR set. */
	int (*line)(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
	    struct dcfg_error *err);
	/*
	 * Instead of LINE, for a stage whose data line is the line itself
	 * (unless REPLACE) and then a suffix that depends only on the edge, in
	 * its process: KEY gives the suffix's key for E, below N_KEYS, or
	 * DCFG_STAGE_DROP for a line not written (-1 with ERR set), and RENDER
	 * writes a key's suffix to OUT. The stage keeps each suffix and each
	 * edge id's key, so that a line seen before costs a lookup and two
	 * copies, and a run of such lines is read without a record each.
	 */
	int (*key)(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
	    uint32_t *key, struct dcfg_error *err);
	void (*render)(void *ctx, size_t key);
	size_t n_keys;
	/*
	 * "# run COUNT" or "# end run" (dcfg-stream(5) version 2), after it is
	 * written. NULL: the stage honours runs by each line's weight alone, or,
	 * without RUNS, not at all.
	 */
	int (*run)(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err);
	int runs;                        /* the stage honours runs; else a run is an error */
	/*
	 * "# chunk PRECEDING INSTRS EDGES", after it is written (or seen, when
	 * the stage writes nothing), with the record: R->preceding, R->instrs
	 * and R->edges. It may come before any "# process" line (s->p NULL);
	 * never inside a run. May be NULL. -1 with ERR set.
	 */
	int (*chunk)(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err);
	/* "# thread TID" seen, after it is written. May be NULL. */
	void (*thread)(void *ctx, uint64_t tid);
	/* A process starts (P) or the previous one ends (P NULL: the end). May be NULL. */
	int (*process)(void *ctx, const struct dcfg_process *p, struct dcfg_error *err);
	/* Any other '#' line (dcfg-stream(5)), after it is written. May be NULL. -1 with ERR set. */
	int (*meta)(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err);
	void *ctx;
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;

	/* for the callbacks */
	const struct dcfg_process *p;    /* the current process */
	const char *name;                /* the stream's name for messages */
};

/* 0 done, 1 stopped because the output failed, -1 with ERR set. */
int dcfg_stage_run(struct dcfg_stage *s, const char *path, struct dcfg_error *err);

#define DCFG_STAGE_DROP (UINT32_MAX - 1)

#endif
