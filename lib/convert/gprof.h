/*
 * Inclusive costs of calls estimated from the call graph alone, as gprof
 * does: a function's inclusive cost is shared among the calls into it in
 * proportion to their counts, with recursive cycles collapsed into one.
 */
#ifndef DCFG_GPROF_H
#define DCFG_GPROF_H

#include "profile.h"

/* Fills pf->incl from the view's counts and self costs. -1: out of memory. */
int dcfg_gprof_estimate(struct dcfg_profile *pf);

#endif
