/* dcfg-count --merge: what the tables say they cover, read and said again (count_merge_provenance.c). */
#ifndef DCFG_COUNT_MERGE_PROVENANCE_H
#define DCFG_COUNT_MERGE_PROVENANCE_H

#include <stddef.h>

#include "count_merge_state.h"

/*
 * A "# selection" or "# trace" line of the file being read: 0, 1 when
 * LINE is neither, or -1 with the error set.
 */
int dcfg_merge_provenance_line(struct merge *m, const char *line, size_t len);
/*
 * Once all the shards of a plan are checked (count_merge_check.h): the
 * first selection's text becomes the merged table's, the whole plan
 * (provenance.h), in the words dcfg-expand --shard 1/1 of its selection
 * writes. 0, or -1 out of memory.
 */
int dcfg_merge_whole_plan(struct merge *m);
/* The merged table's selection notes, and its trace note. */
void dcfg_merge_write_selection(const struct merge *m, struct dcfg_table *w);
void dcfg_merge_write_trace(const struct merge *m, struct dcfg_table *w);
/* The same as the lines of a file of vectors. */
void dcfg_merge_write_selection_lines(const struct merge *m, struct dcfg_output *out);
void dcfg_merge_write_trace_line(const struct merge *m, struct dcfg_output *out);

#endif
