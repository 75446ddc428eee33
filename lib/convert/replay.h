/*
 * The exact inclusive cost of every call, from a DCFG-trace replayed with
 * a shadow call stack (dcfg-convert(1) gives the rules). Memory is the
 * per-thread results and the deepest stack, never the trace's length.
 */
#ifndef DCFG_REPLAY_H
#define DCFG_REPLAY_H

#include <stdint.h>

#include <dcfg/error.h>
#include "profile.h"

#define DCFG_REPLAY_MAX_DEPTH (1u << 20)

struct dcfg_replay {
	uint32_t threads;          /* the process's, from the DCFG */
	uint64_t *incl;            /* [thread][stride]: inclusive instructions of calls */
	uint64_t *taken;           /* [thread][edge]: executions in the trace */
	uint64_t *sum;             /* [stride]: incl summed over threads */
	size_t stride;             /* a thread's row of incl: edges + 1, twice with stubs folded */
};

/*
 * Replays the threads of PF's process in the trace PATH ("-": standard
 * input) and checks that they took every edge as often as the DCFG says.
 * With PF's stubs folded (dcfg_profile_fold_stubs(), called before this),
 * a row's second part, from edges + 1 on, holds per call the instructions
 * its stubs ran, and per other edge into a stub those no call ran; the
 * view (dcfg_profile_view) reads it.
 * 0; -1 with ERR when the trace is unreadable or malformed; -2 with ERR
 * when it disagrees with the DCFG.
 */
int dcfg_replay_trace(struct dcfg_replay *r, const struct dcfg_profile *pf,
    const char *path, void (*progress)(void *, uint64_t), void *progress_ctx,
    struct dcfg_error *err);
void dcfg_replay_free(struct dcfg_replay *r);

/* THREAD's inclusive costs per edge, or the sums for DCFG_ALL_THREADS. */
const uint64_t *dcfg_replay_incl(const struct dcfg_replay *r, uint32_t thread);

/* For dcfg_replay_trace (replay_rows.c): R's rows for PF's process, zeroed. -1 with ERR. */
int dcfg_replay_rows_alloc(struct dcfg_replay *r, const struct dcfg_profile *pf,
    const char *path, struct dcfg_error *err);
/* The first edge taken in the trace as often as the DCFG does not say: -1 with WHY. */
int dcfg_replay_rows_check(const struct dcfg_replay *r, const struct dcfg_profile *pf, char *why,
    size_t size);
/* The threads' rows summed into r->sum; whether a sum overflowed. */
int dcfg_replay_rows_sum(struct dcfg_replay *r);

#endif
