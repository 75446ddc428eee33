/* A plain file compressed with bzip2 into an output: the recorder's files are as SDE writes them. */
#ifndef DCFG_RECORD_BZIP2OUT_H
#define DCFG_RECORD_BZIP2OUT_H

#include <dcfg/error.h>
#include "common/output.h"

/* PLAIN's bytes, bzip2-compressed, written to OUT (which the caller closes). 0, -1 with ERR. */
int rec_bzip2_file(const char *plain, struct dcfg_output *out, struct dcfg_error *err);

#endif
