/* dcfg-count --merge of basic-block vectors (count_merge_bbv.c). */
#ifndef DCFG_COUNT_MERGE_BBV_H
#define DCFG_COUNT_MERGE_BBV_H

#include <stddef.h>

#include "common/output.h"
#include "count_merge_state.h"

/* A line of a file of vectors after its "# process" line: 0, or -1 with the error set. */
int dcfg_merge_bbv_line(struct merge *m, char *line, size_t len);
/* The merged vectors of thread T of P, its pieces checked (count_merge_check.h). */
int dcfg_merge_write_thread(struct merge *m, const struct merge_process *p, struct merge_thread *t,
    struct dcfg_output *out);

#endif
