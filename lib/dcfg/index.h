/* Internal: builds the lookup indices after the loader's pass. */
#ifndef DCFG_INDEX_H
#define DCFG_INDEX_H

#include "model.h"

int dcfg_index(struct dcfg *d, const char *file, struct dcfg_error *err);

#endif
