/*
 * Writing the edge stream's metadata lines (dcfg-stream(5)): every "#"
 * line a command writes into a stream goes through here, so that the
 * format is spelled in one place. Each call writes one whole line, its
 * newline included, into OUT. Nothing here allocates or calls a
 * printf-family function: "# run" lines can come once an edge.
 */
#ifndef DCFG_WRITER_H
#define DCFG_WRITER_H

#include <stdint.h>

#include "common/output.h"
#include <dcfg/stream.h>
#include "provenance.h"

/* "# dcfg-stream VERSION", the first line: 1, or 2 for a stream that may hold runs. */
void dcfg_stream_write_header(struct dcfg_output *out, int version);

/* "# fields NAMES": a stage whose columns replace the edge's. */
void dcfg_stream_write_fields(struct dcfg_output *out, const char *names);
/*
 * "# fields ... NAMES": a stage's NAMES after its input's, those of the
 * input's "# fields" line THEIRS as read, or "edge" when THEIRS is NULL.
 */
void dcfg_stream_write_fields_after(struct dcfg_output *out,
    const struct dcfg_stream_record *theirs, const char *names);

void dcfg_stream_write_process(struct dcfg_output *out, uint64_t pid);   /* "# process PID" */
void dcfg_stream_write_thread(struct dcfg_output *out, uint64_t tid);    /* "# thread TID" */
/* "# chunk PRECEDING INSTRS EDGES" */
void dcfg_stream_write_chunk(struct dcfg_output *out, uint64_t preceding, uint64_t instrs,
    uint64_t edges);
void dcfg_stream_write_run(struct dcfg_output *out, uint64_t count);    /* "# run COUNT" */
void dcfg_stream_write_run_end(struct dcfg_output *out);                /* "# end run" */

/* "# selection ...": what a shard's stream covers, in the one form its readers take. */
void dcfg_stream_write_selection(struct dcfg_output *out,
    const struct dcfg_recorded_selection *s);
/* "# trace CRC:BYTES": the trace read, the stream's last line. */
void dcfg_stream_write_trace(struct dcfg_output *out, uint32_t crc, uint64_t bytes);

/* A line read from a stream, written again as it was read: what a stage passes through. */
void dcfg_stream_write_record(struct dcfg_output *out, const struct dcfg_stream_record *r);

#endif
