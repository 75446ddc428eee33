/*
 * A process's DCFG seen as a profile: functions (the routines), the blocks
 * and source lines they cost, and the calls between them with inclusive
 * costs. The profile writers (Callgrind, and later webgrind) share it, so
 * every format names functions and counts costs the same way.
 *
 * Indices into pf->blocks, block_func, exec and the per-edge arrays are
 * relative to the process (0 is p->blocks.first, p->edges.first).
 */
#ifndef DCFG_PROFILE_H
#define DCFG_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include <dcfg/error.h>

#define DCFG_ALL_THREADS UINT32_MAX

struct dcfg_profile_func {
	uint64_t addr;             /* of its entry block */
	uint32_t entry;            /* block (process-relative) that names it */
	uint32_t routine;          /* in d->routines; DCFG_NONE: a block no routine lists */
	uint32_t name;             /* offset in pf->names */
	uint32_t first, count;     /* its blocks: pf->blocks[first..first+count), by address */
};

/* How an edge takes part in calls. */
enum dcfg_call_role { DCFG_ROLE_NONE, DCFG_ROLE_CALL, DCFG_ROLE_RETURN };

struct dcfg_profile {
	const struct dcfg *d;
	const struct dcfg_process *p;
	struct dcfg_profile_func *funcs;   /* ascending entry address */
	size_t n_funcs;
	uint32_t *blocks;                  /* grouped by function */
	uint32_t *block_func;              /* per block: its function */
	uint32_t *out_first;               /* per block + 1: its edges in out_edges */
	uint32_t *out_edges;               /* by source block, target address, edge id */
	uint8_t *role;                     /* per edge: enum dcfg_call_role */
	uint32_t *site;                    /* per edge: a call's return site, a return's target block */
	char *names;
	size_t n_names;

	/* The view: one thread's counts or all threads' (dcfg_profile_view). */
	uint64_t *count;                   /* per edge */
	uint64_t *exec;                    /* per block: sum of its incoming edges' counts */
	uint64_t *incl;                    /* per edge: a call's inclusive instructions */
	uint64_t total;                    /* instructions: sum of exec x NUM_INSTRS */
	int estimated;                     /* incl estimated from the call graph */
};

/* -1 with ERR (out of memory). NAME is the DCFG's, for messages. */
int dcfg_profile_init(struct dcfg_profile *pf, const struct dcfg *d,
    const struct dcfg_process *p, const char *name, struct dcfg_error *err);
void dcfg_profile_free(struct dcfg_profile *pf);

/*
 * Sets the view to THREAD's counts (DCFG_ALL_THREADS: their sums). INCL
 * holds exact inclusive costs per edge (from a trace), or is NULL: they are
 * then estimated as gprof does. -1 with ERR when a cost overflows 64 bits.
 */
int dcfg_profile_view(struct dcfg_profile *pf, uint32_t thread, const uint64_t *incl,
    const char *name, struct dcfg_error *err);

static inline const char *
dcfg_profile_name(const struct dcfg_profile *pf, const struct dcfg_profile_func *f)
{
	return pf->names + f->name;
}

/* The DCFG block of a process-relative index. */
static inline const struct dcfg_block *
dcfg_profile_block(const struct dcfg_profile *pf, uint32_t b)
{
	return &pf->d->blocks[pf->p->blocks.first + b];
}

/* Process-relative block of a node, DCFG_NONE for a special node. */
uint32_t dcfg_profile_block_of(const struct dcfg_profile *pf, uint32_t node_id);

/*
 * A block's instructions split by SOURCE_DATA ranges (dcfg-convert(1)
 * says how): iterate with dcfg_segments_begin() and dcfg_segments_next().
 */
struct dcfg_segment {
	uint64_t addr, instrs;
	const struct dcfg_source_line *src;   /* NULL: no source line */
};

struct dcfg_segments {
	const struct dcfg_profile *pf;
	uint64_t start, end, last, cursor, instrs, remaining;
	size_t range;                          /* next in the process index's source_by_addr */
	int done;
};

void dcfg_segments_begin(struct dcfg_segments *it, const struct dcfg_profile *pf,
    const struct dcfg_block *b);
/* 1 with *S set, 0 when the block has no more. */
int dcfg_segments_next(struct dcfg_segments *it, struct dcfg_segment *s);

#endif
