/* dcfg-count --merge: what must hold before anything is added up (count_merge_check.c). */
#ifndef DCFG_COUNT_MERGE_CHECK_H
#define DCFG_COUNT_MERGE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "count_merge_state.h"

/* The first line H of the file being read agrees with the first file's and the options: 0, or -1. */
int dcfg_merge_check_header(struct merge *m, const struct merge_header *h);
/*
 * Process PID (and thread TID, when HAS_TID) of the file being read is
 * in one of its "# selection" lines, if it has any: 0, or -1 with the
 * error set, since a table holding another shard's counts would add them
 * twice.
 */
int dcfg_merge_check_selected(struct merge *m, uint64_t pid, int has_tid, uint64_t tid);
/*
 * The N files read cover disjoint parts of one trace, and all the shards
 * of its plan: 0, or -1 with the error set (count_merge.h).
 */
int dcfg_merge_check_provenance(struct merge *m, size_t n);
/*
 * Row R of process P, of the same key as FIRST and after PREV (rows
 * sorted by key, then file), may be added to them: it is of another file,
 * and its columns between the key and the counts are FIRST's. 0, or -1.
 */
int dcfg_merge_check_row(struct merge *m, const struct merge_process *p, const struct merge_row *first,
    const struct merge_row *prev, const struct merge_row *r);
/*
 * Thread T's pieces, blank ones dropped (count_merge_check.c says why),
 * in the order of the instructions they cover: 0; or -1 when pieces of
 * several files are not all placed on the trace's instructions, or two
 * overlap.
 */
int dcfg_merge_check_pieces(struct merge *m, const struct merge_process *p, struct merge_thread *t);

#endif
