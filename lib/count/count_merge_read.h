/* dcfg-count --merge of tables in CSV and JSON (count_merge_read.c). */
#ifndef DCFG_COUNT_MERGE_READ_H
#define DCFG_COUNT_MERGE_READ_H

#include <stddef.h>

#include "count_merge_state.h"

struct dcfg_textlines;

/* A table in CSV or JSON, whose first line is FIRST (LEN bytes), read as its TSV lines. 0, or -1. */
int dcfg_merge_read_other(struct merge *m, struct dcfg_textlines *t, char *first, size_t len);

#endif
