/* The regions computed from the answer and the profile, for the writers (write.c). */
#ifndef DCFG_REGIONS_PLAN_H
#define DCFG_REGIONS_PLAN_H

#include "regions_internal.h"

/* One region (a simulation region, or the warmup before one). */
struct dcfg_rg_span {
	const struct dcfg_rg_marker *start, *end;
	int from_run_start;         /* the start count is written as 0 (dcfg-regions(1)) */
	uint64_t first_slice, slices;
	uint64_t icount;            /* instructions before it (the T lines' sums) */
	uint64_t length;            /* its instructions */
	uint64_t relative;          /* the end PC's executions from its start to its end marker */
};

struct dcfg_rg_region {
	const struct dcfg_rg_choice *choice;
	uint64_t id;                /* cluster + 1 */
	struct dcfg_rg_span sim;
	double multiplier;
	int has_cluster_sums;       /* with t.labels */
	uint64_t cluster_slices, cluster_icount;
	int warmup;                 /* 1: warm is set; -1: no warmup possible (slice 0); 0: none asked */
	uint64_t warm_id;
	struct dcfg_rg_span warm;
};

struct dcfg_rg_plan {
	struct dcfg_rg_region *r;
	size_t n;
	uint64_t tid, warmup_factor, max_cluster, n_slices, total;
	int global;                 /* sde-control: :global (proven) instead of :tidN */
	const char *const *inputs;  /* profile, simpoints, weights, labels or NULL */
};

int dcfg_rg_write(const struct dcfg_rg_plan *plan, int format, struct dcfg_output *out);

#endif
