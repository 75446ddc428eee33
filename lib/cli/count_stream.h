/*
 * dcfg-count's wiring: a stream (or the DCFG's own counts) fed to the
 * counter of <dcfg/count.h>, or to SimPoint basic-block vectors, and the
 * tables written with the stream's provenance. Every table is derived from
 * the executions of each edge, so the stream and the DCFG answer the same
 * question the same way. lib/count is the counting alone; the stream's
 * callbacks and the output live here, with the command.
 */
#ifndef DCFG_COUNT_STREAM_H
#define DCFG_COUNT_STREAM_H

#include <stdint.h>

#include "dcfg/model.h"
#include "count/count_options.h"
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
