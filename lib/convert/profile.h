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
#include "dcfg/lines.h"
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

	/* Stubs folded (stubs.c); all NULL unless dcfg_profile_fold_stubs() ran. */
	uint32_t *fold;                    /* per function: the one its calls are shown into */
	uint32_t *stub_depth;              /* per function: jumps from it to fold[] (0: not a stub) */
	uint32_t *stub_in_first, *stub_in; /* per function + 1: the edges entering a stub */
	uint64_t *stub_cost;               /* per edge: a call's instructions run in stubs */
	uint64_t *stub_left;               /* per function: a stub's instructions no call took */
};

/* -1 with ERR (out of memory). NAME is the DCFG's, for messages. */
int dcfg_profile_init(struct dcfg_profile *pf, const struct dcfg *d,
    const struct dcfg_process *p, const char *name, struct dcfg_error *err);
void dcfg_profile_free(struct dcfg_profile *pf);

/*
 * Sets the view to THREAD's counts (DCFG_ALL_THREADS: their sums). INCL
 * holds exact inclusive costs per edge (from a trace), or is NULL: they are
 * then estimated as gprof does. With stubs folded, a trace's INCL row has
 * a second part at INCL + edges + 1 (replay.h). -1 with ERR when a cost
 * overflows 64 bits.
 */
int dcfg_profile_view(struct dcfg_profile *pf, uint32_t thread, const uint64_t *incl,
    const char *name, struct dcfg_error *err);

static inline const char *
dcfg_profile_name(const struct dcfg_profile *pf, const struct dcfg_profile_func *f)
{
	return pf->names + f->name;
}

/*
 * Stubs (dcfg-convert(1) STUBS): a function with no call or return edge
 * whose exits all go to one other function's entry, entered only by calls
 * and by other stubs, is folded into the function its chain of stubs ends
 * in: a call into it is shown as a call into that one, and its
 * instructions are the caller's own, at the call site. Call before
 * dcfg_replay_trace() and dcfg_profile_view(). -1 with ERR (out of memory).
 */
int dcfg_profile_fold_stubs(struct dcfg_profile *pf, const char *name, struct dcfg_error *err);

/* Whether function F is a stub folded into another. */
static inline int
dcfg_profile_folded(const struct dcfg_profile *pf, uint32_t f)
{
	return pf->fold != NULL && pf->fold[f] != f;
}

/* The function a call into block B is shown as calling. */
static inline uint32_t
dcfg_profile_callee(const struct dcfg_profile *pf, uint32_t b)
{
	return pf->fold ? pf->fold[pf->block_func[b]] : pf->block_func[b];
}

/* Instructions of a call (process-relative edge E) that ran in stubs: the caller's own. */
static inline uint64_t
dcfg_profile_stub_cost(const struct dcfg_profile *pf, uint32_t e)
{
	return pf->fold ? pf->stub_cost[e] : 0;
}

/*
 * Function F's own instructions in the view: its blocks', and the stubs'
 * its calls went through; a folded stub's are those no call took.
 */
uint64_t dcfg_profile_self(const struct dcfg_profile *pf, uint32_t f);

/* Whether F ran in the view: a folded stub is shown only with instructions left. */
int dcfg_profile_ran(const struct dcfg_profile *pf, uint32_t f);

/* Sets stub_cost and stub_left for the view (profile.c calls it). -1: out of memory. */
int dcfg_profile_stubs_view(struct dcfg_profile *pf, const uint64_t *traced);

/* The DCFG block of a process-relative index. */
static inline const struct dcfg_block *
dcfg_profile_block(const struct dcfg_profile *pf, uint32_t b)
{
	return &pf->d->blocks[pf->p->blocks.first + b];
}

/*
 * The file of the main image: of the process's images that name a file,
 * the one of the lowest IMAGE_ID, since Pin numbers images as they load
 * and the program's own loads first. It is the Callgrind file's "cmd:"
 * (callgrind_annotate's "Profiled target") when --cmd is absent, and the
 * program in the dot picture's title. NULL when no image names its file.
 */
const char *dcfg_profile_main_image_name(const struct dcfg_profile *pf);
/* The main image of P itself (as above), or NULL. */
const struct dcfg_image *dcfg_main_image(const struct dcfg *d, const struct dcfg_process *p);

/* Process-relative block of a node, DCFG_NONE for a special node. */
uint32_t dcfg_profile_block_of(const struct dcfg_profile *pf, uint32_t node_id);

/*
 * A block's instructions split by SOURCE_DATA ranges, by the rule of
 * every route (../dcfg/lines.h): iterate with dcfg_segments_begin() and dcfg_segments_next().
 */
struct dcfg_segment {
	uint64_t addr, instrs;
	const struct dcfg_source_line *src;   /* NULL: no source line */
};

struct dcfg_segments {
	const struct dcfg_profile *pf;
	struct dcfg_line_pieces pieces;
};

void dcfg_segments_begin(struct dcfg_segments *it, const struct dcfg_profile *pf,
    const struct dcfg_block *b);
/* 1 with *S set, 0 when the block has no more. */
int dcfg_segments_next(struct dcfg_segments *it, struct dcfg_segment *s);

#endif
