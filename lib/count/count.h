/*
 * dcfg-count's work: a stream (or the DCFG's own counts) aggregated by
 * edge, block, routine, loop, image, edge type, thread, source line or
 * source file; or SimPoint
 * basic-block vectors. Every table is derived from the executions of each
 * edge, so the stream and the DCFG answer the same question the same way.
 */
#ifndef DCFG_COUNT_H
#define DCFG_COUNT_H

#include <stdint.h>

#include "dcfg/model.h"
#include "bykind.h"
#include "count_options.h"
#include "common/output.h"
#include "common/table.h"
#include "stream/stage.h"

/* From a stream; S->dcfg and the output set. 0, 1 (output failed), -1 with ERR. */
int dcfg_count_stream(struct dcfg_stage *s, struct dcfg_output *out, const char *path,
    const struct dcfg_count_options *o, struct dcfg_error *err);
/* From the DCFG's COUNT_PER_THREAD alone. */
int dcfg_count_dcfg(const struct dcfg *d, struct dcfg_output *out,
    const struct dcfg_count_options *o, struct dcfg_error *err, const char *name);

#endif
