/*
 * dcfg-regions: simulation regions from a per-thread profile (the .bb that
 * dcfg-profile(1) or PinPoints writes) and SimPoint's answer (t.simpoints,
 * t.weights, t.labels): the region CSV of PinPoints and LoopPoint, gem5's
 * looppoint.json, or SDE's -control arguments (dcfg-regions(1)). It needs
 * no DCFG; given the profile's (--dcfg), it proves what a count that every
 * thread adds to (SDE's :global, gem5's) would need.
 */
#ifndef DCFG_REGIONS_H
#define DCFG_REGIONS_H

#include <stdint.h>

#include <dcfg/dcfg.h>
#include <dcfg/error.h>
#include "common/output.h"
#include "common/table.h"

enum dcfg_regions_format {
	DCFG_REGIONS_CSV,
	DCFG_REGIONS_LOOPPOINT_JSON,
	DCFG_REGIONS_SDE_CONTROL
};

struct dcfg_regions_files {
	const char *profile, *simpoints, *weights;
	const char *labels;          /* NULL: none */
	const char *dcfg;            /* --dcfg's path, for messages; NULL: none */
};

struct dcfg_regions_options {
	enum dcfg_regions_format format;
	uint64_t warmup_factor;      /* slices of warmup before each region; 0: none */
	int has_thread;              /* thread id for a profile without a P: line */
	uint64_t thread;
	/* The profile's DCFG (--dcfg), or NULL; loaded with DCFG_KEEP_ALL. */
	const struct dcfg *dcfg;
	int has_pid;                 /* -p: the process, for a profile that does not name it */
	uint64_t pid;
	int global_counts;           /* sde-control: :global, proven by DCFG; else :tidN */
	/* Called with a note for standard error (a chosen last slice); may be NULL. */
	void (*note)(void *ctx, const char *message);
	void *note_ctx;
	/* --check: the table of the choice's error (dcfg-regions(1), CHECK) instead of the regions */
	int check;
	enum dcfg_table_format table_format;
	int has_max_distance;        /* --max-distance: a BBV distance above it fails the check */
	double max_distance;
};

/*
 * Reads the four files and writes the regions to OUT. 0, or -1 with ERR
 * set (FILE:LINE:COLUMN of the first thing wrong); nothing is written
 * before every input has been read and checked. With O->check, 1 with ERR
 * set when the check failed (the table is written).
 */
int dcfg_regions_run(const struct dcfg_regions_files *files,
    const struct dcfg_regions_options *o, struct dcfg_output *out, struct dcfg_error *err);

/* "csv", "looppoint-json", "sde-control": 0 with *F set, or -1. */
int dcfg_regions_format_by_name(const char *name, enum dcfg_regions_format *f);

#endif
