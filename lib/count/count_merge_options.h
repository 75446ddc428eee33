/*
 * What dcfg-count --merge is asked for (count_merge.h). Types alone, so
 * that the merge's parts below count_merge.c read them without reaching
 * back to it (scripts/layers.sh).
 */
#ifndef DCFG_COUNT_MERGE_OPTIONS_H
#define DCFG_COUNT_MERGE_OPTIONS_H

#include <stdint.h>

#include "common/table.h"

struct dcfg_count_merge_options {
	uint64_t top;              /* > 0: keep the first TOP rows of each merged table */
	enum dcfg_table_format format;   /* of the merged table */
	int format_given;          /* --format was given: refused for vectors, SimPoint's format */
	int check_dcfg;            /* the tables must all be of this DCFG: */
	uint32_t crc32;
	uint64_t bytes;
};

#endif
