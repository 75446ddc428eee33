/* Growing arrays: one checked way to make room, for every module. */
#ifndef DCFG_VEC_H
#define DCFG_VEC_H

#include <stddef.h>

/*
 * Makes *ARR hold at least NEED elements of ELSIZE bytes, doubling *CAP.
 * Counts stay below 2^31 so that they fit the 32-bit indices of the model.
 * 0, or -1 (too many, or out of memory) with *ARR unchanged.
 */
int dcfg_reserve(void **arr, size_t *cap, size_t need, size_t elsize);

#endif
