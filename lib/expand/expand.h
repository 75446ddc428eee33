/*
 * dcfg-expand's work: a DCFG-trace to the edge stream (dcfg-stream(5)),
 * the chunk table or per-thread totals, for selected processes, threads
 * and an instruction window.
 */
#ifndef DCFG_EXPAND_H
#define DCFG_EXPAND_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include <dcfg/error.h>
#include "common/output.h"
#include "common/table.h"

enum dcfg_expand_mode { DCFG_EXPAND_EDGES, DCFG_EXPAND_LIST, DCFG_EXPAND_COUNT };

struct dcfg_expand_options {
	enum dcfg_expand_mode mode;
	/* --count: 0 for today's TSV, else FORMAT through the table writer */
	int tabled;
	enum dcfg_table_format format;
	const uint64_t *pids; size_t n_pids;    /* none: all */
	const uint64_t *tids; size_t n_tids;
	int chunks;                             /* chunk markers */
	int runs;                               /* write runs (dcfg-stream(5) version 2) */
	int window;                             /* [from, to) is set */
	uint64_t from, to;
	/*
	 * > 0: the stream is shard SHARD of SHARDS that together cover the
	 * trace, and records so: a "# selection" line after its header and a
	 * "# trace CRC:BYTES" line at its end (dcfg-stream(5)).
	 */
	uint64_t shard, shards;
	uint64_t align;                         /* with a shard: its plan's --align, or 0 */
	/* with a shard: its plan's selection (--of-process, --of-thread), inside which -p and -t select */
	const uint64_t *of_pids; size_t n_of_pids;
	const uint64_t *of_tids; size_t n_of_tids;
	const struct dcfg *dcfg;                /* NULL, or the paired DCFG (blocks and edges) */
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
};

/* Whether a -p or -t list of N ids V selects X: it is in V, or V is empty (all). */
int dcfg_expand_selects(const uint64_t *v, size_t n, uint64_t x);

/* 0 done; 1 stopped because OUT failed (see dcfg_output_close); -1 with ERR set. */
int dcfg_expand(const char *trace, const struct dcfg_expand_options *opt,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
