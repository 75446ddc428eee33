/*
 * The parts dcfg-profile --merge reads (profile_merge_parts.c): what pass 1
 * keeps of each, and the checks that they are the shards of one plan.
 */
#ifndef DCFG_PROFILE_MERGE_PARTS_H
#define DCFG_PROFILE_MERGE_PARTS_H

#include "profile_internal.h"

struct dcfg_merge_part {
	const char *path;
	char *head, *c_line;
	struct dcfg_recorded_selection sel;
	int has_sel, traced;
	unsigned long sel_line;
	uint32_t crc;
	uint64_t bytes;
};

/* Reads PT->path's first two lines, selection and trace line. 0, or -1 with ERR set. */
int dcfg_merge_part_scan(struct dcfg_merge_part *pt, struct dcfg_error *err);
/*
 * One profile of D, one trace, one plan; each shard once, none missing,
 * none overlapping, each thread tiled. BY_SHARD[k - 1] is then shard k.
 * 0, or -1 with ERR set.
 */
int dcfg_merge_parts_check(const struct dcfg *d, struct dcfg_merge_part *pts, size_t n,
    struct dcfg_merge_part **by_shard, struct dcfg_error *err);
/* The slice size, rule (into MO) and process of PT's first line. 0, or -1 with ERR set. */
int dcfg_merge_part_head(const struct dcfg_merge_part *pt, struct dcfg_pinpoints_options *mo,
    uint64_t *pid, struct dcfg_error *err);
/* Frees the N parts PTS (and PTS itself). */
void dcfg_merge_parts_free(struct dcfg_merge_part *pts, size_t n);

#endif
