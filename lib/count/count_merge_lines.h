/* dcfg-count --merge: a table's lines, as TSV says them (count_merge_lines.c). */
#ifndef DCFG_COUNT_MERGE_LINES_H
#define DCFG_COUNT_MERGE_LINES_H

#include <stddef.h>

#include "count_merge_state.h"

/*
 * A file's first line, "# dcfg-count 1 ...", read and checked against the
 * first file's; then each line after it; then its end. 0, or -1 with the
 * error set at M->file and M->line.
 */
int dcfg_merge_head(struct merge *m, char *line);
int dcfg_merge_line(struct merge *m, char *line, size_t len);
int dcfg_merge_end(struct merge *m);

#endif
