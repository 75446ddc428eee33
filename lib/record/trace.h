/* The DCFG-trace of a counted build (build.h): lib/encode's passes over the threads walked again. */
#ifndef DCFG_RECORD_TRACE_H
#define DCFG_RECORD_TRACE_H

#include <dcfg/error.h>
#include "build.h"
#include "common/output.h"

/* Writes B's trace, plain JSON, to OUT (three walks over each thread). 0, -1 with ERR set. */
int rec_write_trace(struct rec_build *b, struct dcfg_output *out, struct dcfg_error *err);

#endif
