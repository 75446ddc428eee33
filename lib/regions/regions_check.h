/* dcfg-regions --check (check.c): the error of SimPoint's choice, measured on the profile. */
#ifndef DCFG_REGIONS_CHECK_H
#define DCFG_REGIONS_CHECK_H

#include "regions.h"
#include "regions_plan.h"

/*
 * Writes the table of PLAN's error against the whole run P holds (every
 * T line) in O's table format. 0; 1 with ERR set when the BBV distance is
 * above O's --max-distance (the table is written all the same); -1 with
 * ERR set (out of memory), nothing written.
 */
int dcfg_rg_check(const struct dcfg_rg_plan *plan, const struct dcfg_rg_profile *p,
    const struct dcfg_regions_options *o, struct dcfg_output *out, struct dcfg_error *err);

#endif
