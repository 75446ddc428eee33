/*
 * The parts dcfg-profile --merge reads (profile_merge_parts.c): what pass 1
 * keeps of each, and the checks that they are the shards of one plan.
 */
#ifndef DCFG_PROFILE_MERGE_PARTS_H
#define DCFG_PROFILE_MERGE_PARTS_H

#include "profile_internal.h"

struct dcfg_merge_part {
	const char *path;
	char *head, *c_line;          /* HEAD without its " process=" word */
	int keeps_all;                /* process=all: every process of its stream */
	uint64_t kept;                /* else process=KEPT: that one alone (--part -p) */
	uint64_t *pids; size_t n_pids, cap_pids;   /* its sections' processes, in order */
	struct dcfg_recorded_selection sel;
	int has_sel, traced;
	unsigned long sel_line;
	uint32_t crc;
	uint64_t bytes;
};

/* A part's (or starts file's) "# process PID" line, LEN bytes: 0 and *PID, or -1. */
int dcfg_merge_process_line(const char *line, size_t len, uint64_t *pid);
/*
 * Reads PT->path's first two lines, selection, "# process" lines and trace
 * line. 0, or -1 with ERR set.
 */
int dcfg_merge_part_scan(struct dcfg_merge_part *pt, struct dcfg_error *err);
/*
 * The process whose files the merge writes: WANT when HAS_WANT (-p), else
 * the parts' only one, into *PID; each part must keep it. 0, or -1 with
 * ERR set.
 */
int dcfg_merge_parts_process(const struct dcfg_merge_part *pts, size_t n, int has_want,
    uint64_t want, uint64_t *pid, struct dcfg_error *err);
/*
 * One profile of D, one trace, one plan; each shard once, none missing,
 * none overlapping, each thread tiled. BY_SHARD[k - 1] is then shard k.
 * 0, or -1 with ERR set.
 */
int dcfg_merge_parts_check(const struct dcfg *d, struct dcfg_merge_part *pts, size_t n,
    struct dcfg_merge_part **by_shard, struct dcfg_error *err);
/* The slice size and rule of PT's first line, into MO. 0, or -1 with ERR set. */
int dcfg_merge_part_head(const struct dcfg_merge_part *pt, struct dcfg_pinpoints_options *mo,
    struct dcfg_error *err);
/* Frees the N parts PTS (and PTS itself). */
void dcfg_merge_parts_free(struct dcfg_merge_part *pts, size_t n);

#endif
