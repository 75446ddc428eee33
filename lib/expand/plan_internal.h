/*
 * What the parts of dcfg-expand --plan (plan.h) share: the index of the
 * chunk table that plan.c reads and builds, where a thread may be cut
 * (plan_cut.c), and the units and members that plan_shape.c packs into
 * at most N lines and plan_lines.c writes. Not for other modules: they use
 * plan.h.
 */
#ifndef DCFG_PLAN_INTERNAL_H
#define DCFG_PLAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/output.h"
#include "plan.h"
#include "trace/selection.h"

/*
 * The index. While reading: the selected process rows, thread rows and
 * chunks in file order. Then a process or thread that has several rows
 * becomes one (first appearance decides the order), each thread's chunks
 * are sorted by PRECEDING_INSTR_COUNT and made into segments, in the
 * same array (a chunk's slot holds a segment afterwards): chunks that
 * overlap (one straddles where another starts) merge into one span, and
 * a chunk of no instructions strictly inside a span joins it; the others
 * are points. No segment straddles the start of another, so a cut at a
 * segment's start splits no chunk.
 */
struct plan_chunk {
	uint64_t p, n, e;         /* PRECEDING_INSTR_COUNT, INSTR_COUNT, EDGE_COUNT */
	size_t thread;            /* the thread row while reading, then the thread */
};

struct plan_trow {
	uint64_t pid, tid;
	size_t prow;              /* the process row it is in */
};

struct plan_seg {
	uint64_t start, len;      /* instructions [start, start+len); len 0: a point */
	uint64_t edges, before;   /* its edges, and the thread's edges before it */
};

/* A chunk as read; once sorted, the same array holds the segments. */
union plan_slot {
	struct plan_chunk c;
	struct plan_seg s;
};

struct plan_thread {
	uint64_t tid;
	size_t proc;
	uint64_t edges;
	size_t seg, n_seg;        /* its segments */
	int reaches_max;          /* a chunk reaches instruction count 2^64-1: never cut */
	size_t unit;              /* its unit (SIZE_MAX: none yet) */
};

struct plan_proc {
	uint64_t pid;
	uint64_t edges;
	size_t thread, n_threads; /* its threads, in order, in plan->order */
	size_t first_unit, last_unit;  /* SIZE_MAX: none */
};

/* What a plan prints: units in order, each one line or a split thread's lines. */
enum plan_unit_kind { PLAN_WHOLE, PLAN_THREADS, PLAN_SPLIT };

struct plan_unit {
	enum plan_unit_kind kind;
	uint64_t sum;             /* edges (PLAN_SPLIT: of its largest piece) */
	/* PLAN_SPLIT: the thread, its pieces, and how its cuts are placed */
	size_t thread;
	uint64_t pieces;
	uint64_t fill;            /* dcfg_plan_fill() with this makes them */
	uint64_t max;             /* the largest piece that makes */
	int nearest;              /* cuts nearest to equal shares instead, none larger */
};

/* Members go on every line of their unit, or only its first or last. */
enum plan_where { PLAN_ALL, PLAN_FIRST, PLAN_LAST };

struct plan_member {
	size_t unit;
	int is_thread;
	size_t index;             /* process or thread */
	enum plan_where where;
};

struct dcfg_plan {
	const struct dcfg_plan_options *o;
	struct dcfg_progress *meter;
	struct dcfg_selection sel;   /* -p and -t, and what the trace holds */

	uint64_t *prows; size_t n_prows, cap_prows;
	struct plan_trow *trows; size_t n_trows, cap_trows;
	union plan_slot *slots; size_t n_chunks, cap_chunks;
	uint64_t total;           /* the selection's edges */

	struct plan_proc *procs; size_t n_procs;
	struct plan_thread *threads; size_t n_threads;
	size_t *order;            /* thread indices, grouped by process */
	size_t n_segs;            /* in slots, after dcfg_plan_index */

	struct plan_unit *units; size_t n_units, cap_units;
	struct plan_member *members; size_t n_members, cap_members;
	/* writing: the lines of the plan, counted first, so that each says "--shard K/N" */
	int counting;
	uint64_t n_lines, line_no;
	/* and the selection planned, ascending and distinct: "--of-process P,... --of-thread T,..." */
	uint64_t *of_pids, *of_tids;
	size_t n_of_pids, n_of_tids;
};

/*
 * Where a thread may be cut: candidates LO..HI (none when LO > HI), the
 * instruction count POS(i) of each, and the estimated edges before it,
 * non-decreasing in i. Without --align the candidates are the segments'
 * starts after the first; with it, the multiples of the interval above
 * the thread's first instruction and up to its last.
 */
struct plan_space {
	const struct dcfg_plan *pl;
	const struct plan_thread *t;
	uint64_t lo, hi, step;    /* step 0: segment starts */
};

/*
 * plan.c: the rows read made into processes, threads and segments; -1
 * when out of memory.
 */
int dcfg_plan_index(struct dcfg_plan *pl);

/* plan_cut.c */
void dcfg_plan_space_init(struct plan_space *sp, const struct dcfg_plan *pl,
    const struct plan_thread *t);
uint64_t dcfg_plan_pos(const struct plan_space *sp, uint64_t i);
uint64_t dcfg_plan_cum(const struct plan_space *sp, uint64_t i);
int dcfg_plan_fill(const struct plan_space *sp, uint64_t at, uint64_t max, uint64_t *cut);
uint64_t dcfg_plan_fill_count(const struct plan_space *sp, uint64_t max, uint64_t limit);
uint64_t dcfg_plan_fill_largest(const struct plan_space *sp, uint64_t max);
int dcfg_plan_nearest(const struct plan_space *sp, uint64_t at, uint64_t target, uint64_t max,
    uint64_t *cut);
uint64_t dcfg_plan_share(uint64_t e, uint64_t i, uint64_t pieces);
int dcfg_plan_nearest_fits(const struct plan_space *sp, uint64_t pieces, uint64_t max,
    uint64_t *largest);

/*
 * plan_lines.c: every unit's lines, in order; 0 (see dcfg_output_close
 * for write errors), or -1 out of memory.
 */
int dcfg_plan_lines(struct dcfg_plan *pl, struct dcfg_output *out);

#endif
