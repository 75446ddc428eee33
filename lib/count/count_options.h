/*
 * What dcfg-count is asked for. Types alone, so that the core reads them
 * without reaching up to the command's wiring (lib/cli/count_stream.c).
 */
#ifndef DCFG_COUNT_OPTIONS_H
#define DCFG_COUNT_OPTIONS_H

#include <stdint.h>

#include <dcfg/count.h>
#include "common/table.h"

struct dcfg_count_options {
	enum dcfg_count_by by;
	uint64_t top;              /* 0: all rows */
	uint64_t bbv;              /* > 0: basic-block vectors of this many instructions */
	enum dcfg_table_format format;   /* of the tables (the vectors are SimPoint's) */
};

#endif
