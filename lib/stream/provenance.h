/*
 * What a shard's stream, and the table dcfg-count makes of it, record of
 * what they cover (dcfg-stream(5)): the selection dcfg-expand --shard
 * expanded, "# selection shard=K/N [align=A] [process=P,...] [thread=T,...]
 * [from-icount=F] [to-icount=T]", and the trace it read, "# trace
 * CRC:BYTES". A plan is its shape: N and the interval A its cuts are
 * multiples of (none: cut between chunks). dcfg-count --merge and
 * dcfg-profile --merge refuse shards of two shapes, selections that
 * overlap, a shard repeated or left out, and a thread's windows that leave
 * a gap. Lines are read only in the form
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
	uint64_t align;                  /* the plan's --align; 0: cut between chunks */
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

/*
 * What a stream's data must agree with, if its selection is true: its
 * processes and threads are selected, and a chunk marker's chunk of
 * INSTRS instructions from PRECEDING is not wholly outside the window.
 */
int dcfg_recorded_selection_has_process(const struct dcfg_recorded_selection *s, uint64_t pid);
int dcfg_recorded_selection_has_thread(const struct dcfg_recorded_selection *s, uint64_t tid);
int dcfg_recorded_selection_meets_chunk(const struct dcfg_recorded_selection *s,
    uint64_t preceding, uint64_t instrs);

/* Whether they are shards of one plan's shape: N and the alignment. */
int dcfg_recorded_selection_same_plan(const struct dcfg_recorded_selection *a,
    const struct dcfg_recorded_selection *b);
/* "shard K of N", and " cut at multiples of A" if aligned: for an error about two plans. */
void dcfg_recorded_selection_plan_name(const struct dcfg_recorded_selection *s, char *buf,
    size_t size);
/*
 * The windows of the N selections S[i] (shards of one plan, pairwise
 * disjoint) tile each thread they cut: from its first instruction to its
 * end, each window starting where another ends. 0, or -1 with *AT the
 * selection after the gap (or the first, whose thread has no start) and
 * WHY (SIZE bytes) what is missing.
 */
int dcfg_recorded_selections_tile(const struct dcfg_recorded_selection *const *s, size_t n,
    size_t *at, char *why, size_t size);

/* Reads a "# trace CRC:BYTES" line. 0, or -1. */
int dcfg_trace_id_parse(const char *line, size_t len, uint32_t *crc, uint64_t *bytes);
/* Writes CRC:BYTES (8 lowercase hex digits, decimal), the form of dcfg= and "# trace". */
void dcfg_out_crc_bytes(struct dcfg_output *out, uint32_t crc, uint64_t bytes);

#endif
