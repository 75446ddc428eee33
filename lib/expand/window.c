#include "window.h"

#include <stdlib.h>
#include <string.h>

#include <dcfg/dcfg.h>
#include <dcfg/trace.h>     /* DCFG_RUN_DEPTH_MAX */
#include "common/vec.h"


/* A run being walked: copies of tokens [begin, end) still to go. */
struct dcfg_window_level {
	size_t run, begin, end;
	uint64_t left;
};

/* What measure() leaves a run that cannot be taken by arithmetic. */
enum { UNWALKED = 1, UNCOUNTABLE = 2 };

/*
 * Whether an edge at ICOUNT ends the window. A TO of 2^64 - 1 is no end
 * (dcfg-expand without --to-icount): a thread that goes on past it has
 * more than 2^64 instructions, an error, never a window's silent end.
 */
static inline int
at_end(uint64_t icount, uint64_t to)
{
	return to != UINT64_MAX && icount >= to;
}

void
dcfg_window_init(struct dcfg_window *w, uint64_t from, uint64_t to, uint64_t icount)
{
	w->from = from;
	w->to = to;
	w->icount = icount;
	w->first = w->edges = w->instrs = 0;
	w->past = 0;
	w->index = 0;
	w->n_tok = 0;
	w->open = 0;
}

void
dcfg_window_free(struct dcfg_window *w)
{
	free(w->tok);
	free(w->per_instrs);
	free(w->per_edges);
	free(w->per_last);
	free(w->unmeasured);
	free(w->match);
	w->tok = w->per_instrs = w->per_edges = w->per_last = NULL;
	w->unmeasured = NULL;
	w->match = NULL;
	w->cap_tok = w->cap_per = 0;
}

/* One edge at the current icount. */
static int
edge(struct dcfg_window *w, uint32_t id)
{
	uint64_t n;

	if (w->past)
		return 0;
	if (w->edge_instrs(w->ctx, id, &n) < 0) {
		w->bad_edge = id;
		return -1;
	}
	if (at_end(w->icount, w->to)) {
		w->past = 1;
		return 0;
	}
	if (w->icount >= w->from) {
		if (w->edges++ == 0)
			w->first = w->icount;
		w->instrs += n;
		if (w->write)
			w->write(w->ctx, &id, 1);
	}
	if (__builtin_add_overflow(w->icount, n, &w->icount))
		return -3;   /* named at this edge, as dcfg_chunk_window_next names it */
	w->index++;
	return 0;
}

/* Writes tokens [begin, end) TIMES times, runs written out unless they can be written. */
static void
write_copies(struct dcfg_window *w, size_t begin, size_t end, uint64_t times)
{
	struct dcfg_window_level st[DCFG_RUN_DEPTH_MAX + 1];
	size_t i = begin;
	int top = 0;
	uint32_t id;

	if (w->write == NULL)
		return;
	if (w->write_run) {
		/* nested runs are kept as they are */
		if (times > 1)
			w->write_run(w->ctx, times);
		for (i = begin; i < end; i++) {
			if (w->tok[i] == DCFG_TOKEN_RUN) {
				w->write_run(w->ctx, w->tok[++i]);
			} else if (w->tok[i] == DCFG_TOKEN_END) {
				w->write_run(w->ctx, 0);
			} else {
				id = (uint32_t)w->tok[i];
				w->write(w->ctx, &id, 1);
			}
		}
		if (times > 1)
			w->write_run(w->ctx, 0);
		return;
	}
	st[0] = (struct dcfg_window_level){ 0, begin, end, times };
	for (;;) {
		if (i == st[top].end) {
			if (--st[top].left > 0) {
				i = st[top].begin;
				continue;
			}
			if (top == 0)
				return;
			i = st[top--].end + 1;
			continue;
		}
		if (w->tok[i] == DCFG_TOKEN_RUN) {
			top++;
			st[top] = (struct dcfg_window_level){ i, i + 2, w->match[i], w->tok[i + 1] };
			i += 2;
			continue;
		}
		id = (uint32_t)w->tok[i++];
		w->write(w->ctx, &id, 1);
	}
}

/*
 * One copy's instructions and edges of every run kept, from the inside
 * out. A run whose copy's instructions pass 64 bits, or that holds an
 * edge not in the DCFG, is left unmeasured (UNWALKED), and so is every
 * run around it: its first copy is then walked, which reaches the
 * window's end or fails where the edge-by-edge rule
 * (dcfg_chunk_window_new(3)) fails, and not earlier. A copy of more than
 * 2^64 edges (of no instructions: they would pass first) is refused when
 * the window reaches it (UNCOUNTABLE): walking it would never end.
 */
static int
measure(struct dcfg_window *w)
{
	size_t opens[DCFG_RUN_DEPTH_MAX], depth = 0, i;
	uint64_t ins[DCFG_RUN_DEPTH_MAX + 1] = { 0 }, eds[DCFG_RUN_DEPTH_MAX + 1] = { 0 }, n, last = 0;
	unsigned char bad[DCFG_RUN_DEPTH_MAX + 1] = { 0 }, wrap[DCFG_RUN_DEPTH_MAX + 1] = { 0 };

	if (w->n_tok > w->cap_per) {
		free(w->per_instrs);
		free(w->per_edges);
		free(w->per_last);
		free(w->unmeasured);
		free(w->match);
		w->per_instrs = malloc(w->n_tok * sizeof *w->per_instrs);
		w->per_edges = malloc(w->n_tok * sizeof *w->per_edges);
		w->per_last = malloc(w->n_tok * sizeof *w->per_last);
		w->unmeasured = malloc(w->n_tok * sizeof *w->unmeasured);
		w->match = malloc(w->n_tok * sizeof *w->match);
		w->cap_per = w->n_tok;
		if (!w->per_instrs || !w->per_edges || !w->per_last || !w->unmeasured || !w->match) {
			w->cap_per = 0;
			return -2;
		}
	}
	for (i = 0; i < w->n_tok; i++) {
		if (w->tok[i] == DCFG_TOKEN_RUN) {
			opens[depth++] = i++;
			ins[depth] = eds[depth] = 0;
			bad[depth] = wrap[depth] = 0;
		} else if (w->tok[i] == DCFG_TOKEN_END) {
			size_t r = opens[--depth];
			uint64_t m, count = w->tok[r + 1];
			w->match[r] = i;
			w->per_instrs[r] = ins[depth + 1];
			w->per_edges[r] = eds[depth + 1];
			w->per_last[r] = last;
			w->unmeasured[r] = bad[depth + 1] ? UNWALKED : wrap[depth + 1] ? UNCOUNTABLE : 0;
			bad[depth] |= bad[depth + 1];
			bad[depth] |= __builtin_mul_overflow(count, ins[depth + 1], &m);
			bad[depth] |= __builtin_add_overflow(ins[depth], m, &ins[depth]);
			wrap[depth] |= wrap[depth + 1];
			wrap[depth] |= __builtin_mul_overflow(count, eds[depth + 1], &m);
			wrap[depth] |= __builtin_add_overflow(eds[depth], m, &eds[depth]);
		} else if (w->edge_instrs(w->ctx, (uint32_t)w->tok[i], &n) < 0) {
			bad[depth] = 1;
		} else {
			bad[depth] |= __builtin_add_overflow(ins[depth], n, &ins[depth]);
			eds[depth]++;   /* a copy's tokens are fewer than 2^64 */
			last = n;
		}
	}
	return 0;
}

/*
 * How many copies of PER instructions, whose last edge has LAST, have all
 * their edges less than ROOM instructions after the first copy's start:
 * (j + 1) x per - last <= room - 1 for copy j.
 */
static uint64_t
copies_below(uint64_t room, uint64_t per, uint64_t last)
{
	if (room == 0)
		return 0;   /* at 2^64 - 1 with no end: the copies are walked, to fail at their edge */
	if (room - 1 > UINT64_MAX - last)
		return UINT64_MAX;
	return (room - 1 + last) / per;
}

/*
 * COUNT copies of the run at token R from the current icount: skips those
 * wholly before the window and takes those wholly in it at once. Returns
 * the copies left, which the window's edge cuts (or 0).
 */
static int
settle(struct dcfg_window *w, size_t r, uint64_t count, uint64_t *left)
{
	uint64_t per = w->per_instrs[r], k, span;

	*left = 0;
	if (w->past)
		return 0;
	if (w->unmeasured[r] == UNWALKED) {
		*left = count;   /* walked a copy at a time: the first fails or reaches the end */
		return 0;
	}
	if (w->unmeasured[r] == UNCOUNTABLE)
		return -4;
	if (per == 0) {
		/* every copy's edges sit at one icount: all in, or all out */
		if (w->icount >= w->from && !at_end(w->icount, w->to)) {
			uint64_t e;
			if (__builtin_mul_overflow(count, w->per_edges[r], &e))
				return -4;
			if (e > 0 && w->edges == 0)
				w->first = w->icount;
			w->edges += e;
			w->index += e;
			write_copies(w, r + 2, w->match[r], count);
		} else if (at_end(w->icount, w->to) && w->per_edges[r] > 0) {
			w->past = 1;
		} else if (__builtin_mul_overflow(count, w->per_edges[r], &span) ||
		    __builtin_add_overflow(w->index, span, &w->index)) {
			return -4;
		}
		return 0;
	}
	/*
	 * A copy starting at s holds edges from s to s + per - last: it is
	 * wholly before the window if that is below from, wholly inside if it
	 * is below to.
	 */
	if (w->from > w->icount) {
		k = copies_below(w->from - w->icount, per, w->per_last[r]);
		if (k > count)
			k = count;
		if (__builtin_mul_overflow(k, per, &span) ||
		    __builtin_add_overflow(w->icount, span, &w->icount))
			return -3;
		if (__builtin_mul_overflow(k, w->per_edges[r], &span) ||
		    __builtin_add_overflow(w->index, span, &w->index))
			return -4;
		count -= k;
	}
	if (count > 0 && w->icount >= w->from && !at_end(w->icount, w->to)) {
		k = copies_below(w->to - w->icount, per, w->per_last[r]);
		if (k > count)
			k = count;
		if (k > 0) {
			if (w->edges == 0)
				w->first = w->icount;
			if (__builtin_mul_overflow(k, w->per_edges[r], &span) ||
			    __builtin_add_overflow(w->edges, span, &w->edges))
				return -4;
			w->index += span;
			if (__builtin_mul_overflow(k, per, &span) ||
			    __builtin_add_overflow(w->icount, span, &w->icount) ||
			    __builtin_add_overflow(w->instrs, span, &w->instrs))
				return -3;
			write_copies(w, r + 2, w->match[r], k);
			count -= k;
		}
	}
	if (count > 0 && at_end(w->icount, w->to))
		w->past = 1;
	*left = w->past ? 0 : count;
	return 0;
}

/* Walks the run kept, cutting copies only where the window's edges fall. */
static int
walk(struct dcfg_window *w)
{
	struct dcfg_window_level st[DCFG_RUN_DEPTH_MAX];
	size_t i = 0;
	int top = -1, rc;
	uint64_t left;

	if ((rc = measure(w)) < 0)
		return rc;
	while (i < w->n_tok && !w->past) {
		if (top >= 0 && i == st[top].end) {
			/* a cut copy ends: the rest of the run is settled again */
			size_t r = st[top].run;
			uint64_t more = st[top].left - 1;
			top--;
			if ((rc = settle(w, r, more, &left)) < 0)
				return rc;
			if (left > 0) {
				st[++top] = (struct dcfg_window_level){ r, r + 2, w->match[r], left };
				i = r + 2;
			} else {
				i = w->match[r] + 1;
			}
			continue;
		}
		if (w->tok[i] == DCFG_TOKEN_RUN) {
			if ((rc = settle(w, i, w->tok[i + 1], &left)) < 0)
				return rc;
			if (left > 0) {
				st[++top] = (struct dcfg_window_level){ i, i + 2, w->match[i], left };
				i += 2;
			} else {
				i = w->match[i] + 1;
			}
			continue;
		}
		if ((rc = edge(w, (uint32_t)w->tok[i++])) < 0)
			return rc;
	}
	w->n_tok = 0;
	return 0;
}

static int
keep(struct dcfg_window *w, uint64_t t)
{
	if (dcfg_reserve((void **)&w->tok, &w->cap_tok, w->n_tok + 1, sizeof *w->tok) < 0)
		return -2;
	w->tok[w->n_tok++] = t;
	return 0;
}

int
dcfg_window_take(struct dcfg_window *w, const uint32_t *ids, size_t n,
    const struct dcfg_run_event *ev)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		if (w->open)
			rc = keep(w, ids[i]);
		else
			rc = edge(w, ids[i]);
		if (rc < 0)
			return rc;
	}
	if (ev->kind == DCFG_RUN_BEGIN) {
		if (w->open == DCFG_RUN_DEPTH_MAX)
			return -2;
		w->open++;
		if (keep(w, DCFG_TOKEN_RUN) < 0 || keep(w, ev->count) < 0)
			return -2;
	} else if (ev->kind == DCFG_RUN_END) {
		if (keep(w, DCFG_TOKEN_END) < 0)
			return -2;
		if (--w->open == 0)
			return walk(w);
	}
	return 0;
}

/* ---- the public pull form (trace.h): a window's edges, a batch at a time ---- */

struct dcfg_chunk_window {
	const struct dcfg *d;
	const struct dcfg_process *p;
	uint64_t from, to;
	struct dcfg_chunk *c;            /* the chunk begun */
	int place;                       /* its place, or -1 */
	uint64_t icount;                 /* instructions before the next edge */
	uint64_t index;                  /* the next edge's index in the chunk */
	int past;                        /* an edge at or past `to` was reached */
};

int
dcfg_chunk_window_place(struct dcfg_chunk *c, uint64_t from, uint64_t to, int exact)
{
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	uint64_t p = ci->preceding_instr_count, end;

	if (__builtin_add_overflow(p, ci->instr_count, &end)) {
		dcfg_chunk_fail_row(c, "PRECEDING_INSTR_COUNT + INSTR_COUNT does not fit "
		    "in 64 bits: no window can place the chunk");
		return -1;
	}
	/* without a DCFG a chunk ending at `from` holds no edge inside, unless it has no instructions */
	if (at_end(p, to) || end < from || (!exact && end == from && ci->instr_count > 0))
		return DCFG_WINDOW_SKIP;
	/* (an edge at exactly `to` may end a chunk whose last source has no instructions) */
	return exact && (p < from || end >= to) ? DCFG_WINDOW_CUT : DCFG_WINDOW_WHOLE;
}

struct dcfg_chunk_window *
dcfg_chunk_window_new(const struct dcfg *d, const struct dcfg_process *p, uint64_t from,
    uint64_t to)
{
	struct dcfg_chunk_window *w = calloc(1, sizeof *w);

	if (w == NULL)
		return NULL;
	w->d = p ? d : NULL;
	w->p = p;
	w->from = from;
	w->to = to;
	w->place = DCFG_WINDOW_SKIP;
	return w;
}

void
dcfg_chunk_window_free(struct dcfg_chunk_window *w)
{
	free(w);
}

int
dcfg_chunk_window_start(struct dcfg_chunk_window *w, struct dcfg_chunk *c)
{
	w->c = c;
	w->icount = dcfg_chunk_info(c)->preceding_instr_count;
	w->index = 0;
	w->past = 0;
	if (w->from == 0 && w->to == UINT64_MAX)
		w->place = DCFG_WINDOW_WHOLE;
	else
		w->place = dcfg_chunk_window_place(c, w->from, w->to, w->d != NULL);
	return w->place;
}

/* The N edges decoded, checked, and kept in place when inside the window: how many are. */
static ssize_t
keep_inside(struct dcfg_chunk_window *w, uint32_t *ids, size_t n)
{
	size_t i, kept = 0;
	uint64_t instrs;

	for (i = 0; i < n; i++, w->index++) {
		if (dcfg_edge_instrs(w->d, w->p, &ids[i], 1, &instrs) == 0)
			return dcfg_chunk_fail(w->c, w->index, "edge id %u is not in the DCFG", ids[i]);
		if (w->place == DCFG_WINDOW_WHOLE)
			continue;
#ifdef FUZZ_PLANT_WINDOW
		/* planted for the routes fuzz target (Makefile, FUZZ_PLANT): an edge at `to` is taken */
		if (w->icount > w->to) {
#else
		if (at_end(w->icount, w->to)) {
#endif
			w->past = 1;
			break;
		}
		if (w->icount >= w->from)
			ids[kept++] = ids[i];
		if (__builtin_add_overflow(w->icount, instrs, &w->icount))
			return dcfg_chunk_fail(w->c, w->index, "more than 2^64 instructions");
	}
	return w->place == DCFG_WINDOW_WHOLE ? (ssize_t)n : (ssize_t)kept;
}

ssize_t
dcfg_chunk_window_next(struct dcfg_chunk_window *w, uint32_t *ids, size_t max)
{
	ssize_t n, kept;

	if (w->place < 0)
		return -1;
	if (w->place == DCFG_WINDOW_SKIP || w->c == NULL)
		return 0;
	/* a batch wholly before the window is read past: 0 means the end */
	while (!w->past && max > 0) {
		if ((n = dcfg_chunk_next(w->c, ids, max)) <= 0 || w->d == NULL)
			return n;
		if ((kept = keep_inside(w, ids, (size_t)n)) != 0)
			return kept;
	}
	return 0;
}
