/*
 * The expansion of dcfg-stream(5)'s runs, shared by dcfg-unrun and the
 * stream fuzz target: fed the records of a version 2 stream in order, it
 * hands a sink the lines of the version 1 stream they stand for (all but
 * the header).
 *
 * Outside runs a line goes straight to the sink. From an outermost
 * "# run" to its "# end run" the period is kept as it was written, runs
 * and all, never expanded in memory (a run of 2^64 copies inside another
 * would not fit); at its end it is played on an explicit stack, one frame
 * per open run, so neither memory nor recursion grows with the counts or
 * the depth. The reader's rules bound what is kept: at most
 * DCFG_RUN_PERIOD_MAX lines, runs DCFG_RUN_DEPTH_MAX deep. A stream
 * breaking them that the reader let through aborts (the fuzzer's finding).
 *
 * A run whose period holds no data line (empty, or emptied by
 * `dcfg-edges --type`) stands for nothing and is skipped whatever its
 * count, so that "# run 18446744073709551615" around nothing is instant.
 */
#ifndef DCFG_T_UNRUN_H
#define DCFG_T_UNRUN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dcfg/stream.h>
#include "common/vec.h"

enum unrun_kind { UNRUN_DATA, UNRUN_RUN, UNRUN_END };

struct unrun_item {
	enum unrun_kind kind;
	int has_data;        /* RUN: a data line is in its period, at any depth */
	uint64_t count;      /* RUN: its COUNT */
	size_t at, len;      /* DATA: the line in text; RUN: at is its END's index; END: at is its RUN's */
};

struct unrun {
	/* The sink: gets each line without its '\n'; nonzero stops the expansion. */
	int (*emit)(void *ctx, const char *line, size_t len);
	void *ctx;

	struct unrun_item *item;   /* the outermost open run, from its RUN on */
	size_t n, cap;
	char *text;
	size_t used, text_cap;
	size_t open[DCFG_RUN_DEPTH_MAX];   /* the RUN items of the runs open */
	unsigned depth;
	struct {
		size_t run;          /* its RUN item */
		uint64_t left;       /* copies still to play, this one included */
	} stack[DCFG_RUN_DEPTH_MAX];
};

static int
unrun_push(struct unrun *u, enum unrun_kind kind)
{
	/* the period's lines plus the outermost run's own two */
	if (u->n >= (size_t)DCFG_RUN_PERIOD_MAX + 2)
		abort();
	if (dcfg_reserve((void **)&u->item, &u->cap, u->n + 1, sizeof *u->item) < 0)
		return -1;
	memset(&u->item[u->n], 0, sizeof u->item[u->n]);
	u->item[u->n].kind = kind;
	u->n++;
	return 0;
}

/* Plays the period kept: 0 when it is all out, 1 when the sink stopped. */
static int
unrun_play(struct unrun *u)
{
	unsigned sp = 0;
	size_t pc = 0;

	while (pc < u->n) {
		const struct unrun_item *it = &u->item[pc];
		switch (it->kind) {
		case UNRUN_RUN:
			if (!it->has_data) {
				pc = it->at + 1;
				break;
			}
			u->stack[sp].run = pc;
			u->stack[sp].left = it->count;
			sp++;
			pc++;
			break;
		case UNRUN_END:
			if (--u->stack[sp - 1].left > 0) {
				pc = u->stack[sp - 1].run + 1;
			} else {
				sp--;
				pc++;
			}
			break;
		case UNRUN_DATA:
			if (u->emit(u->ctx, u->text + it->at, it->len))
				return 1;
			pc++;
			break;
		}
	}
	return 0;
}

/*
 * Feeds the next record of the stream (not its header line): 0 go on,
 * 1 the sink stopped, -1 out of memory.
 */
static int
unrun_feed(struct unrun *u, const struct dcfg_stream_record *r)
{
	size_t run;
	int rc;

	switch (r->kind) {
	case DCFG_STREAM_RUN:
		if (u->depth == DCFG_RUN_DEPTH_MAX || r->value == 0)
			abort();
		if (unrun_push(u, UNRUN_RUN) < 0)
			return -1;
		u->item[u->n - 1].count = r->value;
		u->open[u->depth++] = u->n - 1;
		return 0;
	case DCFG_STREAM_RUN_END:
		if (u->depth == 0)
			abort();
		run = u->open[--u->depth];
		if (unrun_push(u, UNRUN_END) < 0)
			return -1;
		u->item[u->n - 1].at = run;
		u->item[run].at = u->n - 1;
		if (u->depth > 0) {
			u->item[u->open[u->depth - 1]].has_data |= u->item[run].has_data;
			return 0;
		}
		rc = unrun_play(u);
		u->n = 0;
		u->used = 0;
		return rc;
	default:
		if (u->depth == 0)
			return u->emit(u->ctx, r->line, r->len) ? 1 : 0;
		if (r->kind != DCFG_STREAM_EDGE)
			abort();   /* only data lines and runs in a period */
		if (unrun_push(u, UNRUN_DATA) < 0 ||
		    dcfg_reserve((void **)&u->text, &u->text_cap, u->used + r->len, 1) < 0)
			return -1;
		memcpy(u->text + u->used, r->line, r->len);
		u->item[u->n - 1].at = u->used;
		u->item[u->n - 1].len = r->len;
		u->used += r->len;
		u->item[u->open[u->depth - 1]].has_data = 1;
		return 0;
	}
}

static void
unrun_free(struct unrun *u)
{
	free(u->item);
	free(u->text);
	u->item = NULL;
	u->text = NULL;
	u->n = u->cap = u->used = u->text_cap = 0;
	u->depth = 0;
}

#endif
