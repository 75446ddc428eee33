/*
 * dcfg-info's tables in the formats of the shared table writer
 * (common/table.h: tsv, csv, json, table): a DCFG's summary, a
 * DCFG-trace's, and the listings of routines, images and loops. The text
 * and JSON reports of summary.h and trace_summary.h stay as they are.
 */
#ifndef DCFG_INFO_TABLE_H
#define DCFG_INFO_TABLE_H

#include "common/table.h"
#include "listing.h"
#include "summary.h"
#include "trace_summary.h"

/* The version of dcfg-info's tables, on their head ("# dcfg-info 1 ..."). */
#define DCFG_INFO_TABLE_VERSION 1

/*
 * A DCFG's summary: head field dcfg_version; per process a section with
 * its sizes as fields and a row per statistic. -1 with ERR set when a
 * summary cannot be computed (nothing is written then).
 */
int dcfg_info_table_summary(struct dcfg_table *t, const struct dcfg *d,
    const struct dcfg_process *only, const char *file, struct dcfg_error *err);
/* A DCFG-trace's summary: per process a section, a row per thread. */
void dcfg_info_table_trace(struct dcfg_table *t, const struct dcfg_trace_summary *s);

/* The head of a listing (list=KIND dcfg=CRC:BYTES), then one section per listing. */
void dcfg_info_table_list_head(struct dcfg_table *t, const struct dcfg *d, enum dcfg_list_kind kind);
void dcfg_info_table_listing(struct dcfg_table *t, const struct dcfg_listing *l);

#endif
