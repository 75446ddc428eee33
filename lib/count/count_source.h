/* dcfg-count's tables that say where code is: loops, source lines and files (count_source.c). */
#ifndef DCFG_COUNT_SOURCE_H
#define DCFG_COUNT_SOURCE_H

#include <stddef.h>

#include "count_rows.h"

/* The rows of loops, lines and files (their descriptors' ROWS, bykind.h). */
int dcfg_count_loop_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_line_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
int dcfg_count_file_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n,
    int *overflow);
/* A loop's cells routine .. static (its descriptor's BETWEEN). */
void dcfg_count_out_loop(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_table *w, const struct dcfg_names *names);

#endif
