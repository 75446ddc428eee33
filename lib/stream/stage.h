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

/*
 * What a stage appends depends only on the edge (or the block it enters):
 * it is rendered once per key and copied after that, so the per-line path
 * is two copies.
 */
struct dcfg_suffixes {
	uint32_t *start, *len;     /* per key; len UINT32_MAX: not rendered yet */
	size_t n;
	char *pool;
	size_t used, cap;
};

/* Forgets every suffix and makes room for N keys. -1: out of memory. */
int dcfg_suffixes_reset(struct dcfg_suffixes *c, size_t n);
void dcfg_suffixes_free(struct dcfg_suffixes *c);
/* Writes KEY's suffix to OUT, rendering it with RENDER(CTX, KEY) the first time. */
void dcfg_suffix_write(struct dcfg_suffixes *c, struct dcfg_output *out, size_t key,
    void (*render)(void *ctx, size_t key), void *ctx);

#endif
