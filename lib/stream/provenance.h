/*
 * What a shard's stream, and the table dcfg-count makes of it, record of
 * what they cover (dcfg-stream(5)): the selection dcfg-expand --shard
 * expanded, "# selection shard=K/N [process=P,...] [thread=T,...]
 * [from-icount=F] [to-icount=T]", and the trace it read, "# trace
 * CRC:BYTES". dcfg-count --merge refuses tables whose selections overlap,
 * repeat a shard, or leave one out. Lines are read only in the form
 * dcfg-expand writes them (ids ascending and distinct, decimal without
 * leading zeros, words in that order), so two selections are alike exactly
 * when their lines are. writer.h writes them.
 */
#ifndef DCFG_PROVENANCE_H
#define DCFG_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>

#include "common/output.h"

struct dcfg_recorded_selection {
	uint64_t shard, shards;          /* K of N; 0 of 0: not a shard of a plan */
	uint64_t *pids; size_t n_pids;   /* none: every process */
	uint64_t *tids; size_t n_tids;   /* none: every thread */
	uint64_t from, to;               /* the window [FROM, TO); 0, UINT64_MAX: whole threads */
};

/*
 * Whether LINE (LEN bytes, no newline) is a "# selection" or "# trace"
 * line, which dcfg-count and its merge read themselves.
 */
int dcfg_is_selection_line(const char *line, size_t len);
int dcfg_is_trace_line(const char *line, size_t len);

/* Reads a "# selection" line into *S (to free). 0; -1 with *WHY set (*S then empty). */
int dcfg_recorded_selection_parse(const char *line, size_t len,
    struct dcfg_recorded_selection *s, const char **why);
void dcfg_recorded_selection_free(struct dcfg_recorded_selection *s);
/* Some edge of a trace could be in both: their processes, threads and windows all meet. */
int dcfg_recorded_selection_overlap(const struct dcfg_recorded_selection *a,
    const struct dcfg_recorded_selection *b);

/* Reads a "# trace CRC:BYTES" line. 0, or -1. */
int dcfg_trace_id_parse(const char *line, size_t len, uint32_t *crc, uint64_t *bytes);
/* Writes CRC:BYTES (8 lowercase hex digits, decimal), the form of dcfg= and "# trace". */
void dcfg_out_crc_bytes(struct dcfg_output *out, uint32_t crc, uint64_t bytes);

#endif
