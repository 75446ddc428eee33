/* The DCFG-trace of a counted build (build.h): the second walk, then lib/encode. */
#ifndef DCFG_RECORD_TRACE_H
#define DCFG_RECORD_TRACE_H

#include <dcfg/error.h>
#include "build.h"
#include "common/output.h"

/*
 * Writes B's trace, plain JSON, to OUT, paired with the DCFG already
 * written (plain) at DCFG_PLAIN; SCRATCH is a file name it may use for
 * the edge stream (removed before it returns). 0, -1 with ERR set.
 */
int rec_write_trace(struct rec_build *b, const char *dcfg_plain, const char *scratch,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
