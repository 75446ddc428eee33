/*
 * What a shard's stream, and the table dcfg-count makes of it, record of
 * what they cover (dcfg-stream(5)): the selection dcfg-expand --shard
 * expanded, "# selection shard=K/N [align=A] [of-process=P,...]
 * [of-thread=T,...] [process=P,...] [thread=T,...] [from-icount=F]
 * [to-icount=T]", and the trace it read, "# trace CRC:BYTES". A plan is
 * its shape: N, the interval A its cuts are multiples of (none: cut
 * between chunks), and the selection it cut (of-: none, the whole trace),
 * which each shard's selection lies inside. dcfg-count --merge and
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
	uint64_t *of_pids; size_t n_of_pids;   /* the plan's -p; none: every process */
	uint64_t *of_tids; size_t n_of_tids;   /* the plan's -t; none: every thread */
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

/* Whether they are shards of one plan's shape: N, the alignment and the plan's selection. */
int dcfg_recorded_selection_same_plan(const struct dcfg_recorded_selection *a,
    const struct dcfg_recorded_selection *b);
/*
 * "shard K of N", " cut at multiples of A" if aligned, and " (a plan of
 * -p P -t T)" if the plan was of a selection: for an error about two plans.
 */
void dcfg_recorded_selection_plan_name(const struct dcfg_recorded_selection *s, char *buf,
    size_t size);
/*
 * *WHOLE: what all the shards of SHARD's plan are together, shard 1 of 1
 * of the plan's selection (none: the whole trace), as dcfg-expand
 * --shard 1/1 with that selection records it. Its ids are SHARD's arrays:
 * not to free.
 */
void dcfg_recorded_selection_whole(const struct dcfg_recorded_selection *shard,
    struct dcfg_recorded_selection *whole);

/* Where text goes: an output, or a caller's buffer. */
typedef void dcfg_put_fn(void *ctx, const char *p, size_t n);
void dcfg_put_output(void *out, const char *p, size_t n);   /* OUT: a struct dcfg_output */
/* "A,B,...": the N ids V (ascending and distinct, as they are kept). */
void dcfg_put_ids(const uint64_t *v, size_t n, dcfg_put_fn *put, void *ctx);
/* The words of S's "# selection" line after its lead, each after a space; the one writer of them. */
void dcfg_recorded_selection_put(const struct dcfg_recorded_selection *s, dcfg_put_fn *put,
    void *ctx);
/*
 * "A,B,..." (LEN bytes at S: decimal, ascending and distinct, as the lines
 * are written) into *V (to free, whatever is returned) and *N. 0, or -1.
 */
int dcfg_ids_parse(const char *s, size_t len, uint64_t **v, size_t *n);
/* V[0..N) ascending and distinct into *OUT (to free; NULL when N is 0). 0, or -1 out of memory. */
int dcfg_ids_ascending(const uint64_t *v, size_t n, uint64_t **out, size_t *n_out);

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
