/*
 * The pullwin route of the routes target (fuzz-routes.c): an instruction
 * window read through the library's pull APIs, dcfg_trace_pull_* and
 * dcfg_chunk_window_* (each edge walked), digested as the stream
 * dcfg-expand --dcfg writes for it, and the check that the two agree.
 */
#ifndef FUZZ_ROUTES_WINDOW_H
#define FUZZ_ROUTES_WINDOW_H

#include "routes.h"

#define PULL_EDGES_MAX 65536   /* the edges pullwin may decode for a window */

/*
 * The pull route of an instruction window (fuzz-routes.c, pullwin): the
 * trace through dcfg_trace_pull_* with -p and -t as PIDS and TIDS, each
 * chunk through dcfg_chunk_window_* exact with the DCFG D, BATCH edges at
 * a time, digested as digest_stream digests the stream dcfg-expand writes
 * (edges, sum and order; rows are not kept). Work is bounded before it is
 * done: a chunk the window reads may decode all its EDGE_COUNT edges, or
 * of a huge one it cuts, those edges_to finds; once they pass BUDGET the
 * reading stops, CAPPED. REFUSED with ERR set as dcfg-expand sets it.
 */
struct pull_window {
	const struct dcfg *d;
	const uint64_t *pids, *tids;
	size_t n_pids, n_tids;
	uint64_t from, to, budget;
	size_t batch;
};

/*
 * The edges a window to PW->to reads of a huge chunk C it cuts: those up to
 * the first at or past the end (or one not in the DCFG, where the window
 * fails), found by decoding no more than BUDGET; -1 past it. C is then
 * rewound, for the window to read it from its start.
 */
static ssize_t
edges_to(struct dcfg_chunk *c, const struct pull_window *pw, uint64_t budget)
{
	static uint32_t ids[4096];
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	const struct dcfg_process *p = dcfg_find_process(pw->d, ci->pid);
	uint64_t icount = ci->preceding_instr_count, instrs, read = 0;
	ssize_t n, i;

	while ((n = dcfg_chunk_next(c, ids, sizeof ids / sizeof ids[0])) > 0) {
		for (i = 0; i < n; i++) {
			if (++read > budget)
				break;
			if (icount >= pw->to || dcfg_edge_instrs(pw->d, p, &ids[i], 1, &instrs) == 0 ||
			    __builtin_add_overflow(icount, instrs, &icount)) {
				dcfg_chunk_rewind(c);
				return (ssize_t)read;
			}
		}
		if (read > budget)
			break;
	}
	dcfg_chunk_rewind(c);
	return read > budget ? -1 : (ssize_t)read;
}

static int
pull_chunk(struct dcfg_chunk_window *w, struct dcfg_chunk *c, const struct pull_window *pw,
    uint64_t *budget, struct digest *got)
{
	static uint32_t ids[4096];
	size_t batch = pw->batch;
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	int place = dcfg_chunk_window_start(w, c);
	ssize_t n = 0, i;

	if (place < 0)
		return DCFG_TRACE_ERROR;
	if (place == DCFG_WINDOW_SKIP)
		return DCFG_TRACE_OK;
	if (ci->edge_count > *budget && (place == DCFG_WINDOW_WHOLE ||
	    (n = edges_to(c, pw, *budget)) < 0)) {
		*budget = UINT64_MAX;   /* capped */
		return DCFG_TRACE_STOP;
	}
	*budget -= ci->edge_count > *budget ? (uint64_t)n : ci->edge_count;
	if (batch > sizeof ids / sizeof ids[0])
		batch = sizeof ids / sizeof ids[0];
	while ((n = dcfg_chunk_window_next(w, ids, batch)) > 0)
		for (i = 0; i < n; i++) {
			uint64_t h = mix(ci->pid, ci->tid, ids[i]);
			got->edges++;
			got->sum += h;
			got->ordered = (got->ordered ^ h) * UINT64_C(0x100000001b3);
		}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

static int
pull_window_digest(const char *trace, const struct pull_window *pw, struct digest *got,
    struct dcfg_error *err)
{
	/* (an empty list given selects nothing; NULL, as dcfg-expand's none, every id) */
	struct dcfg_trace_pull *r = dcfg_trace_pull_open(trace, pw->n_pids ? pw->pids : NULL,
	    pw->n_pids, pw->n_tids ? pw->tids : NULL, pw->n_tids);
	struct dcfg_chunk_window *w = NULL;
	struct dcfg_trace_event ev;
	const struct dcfg_process *p;
	uint64_t budget = pw->budget;
	int rc, answer;

	memset(got, 0, sizeof *got);
	if (r == NULL)
		abort();
	while ((rc = dcfg_trace_pull_next(r, &ev, -1, err)) == DCFG_TRACE_PULL_EVENT) {
		answer = DCFG_TRACE_OK;
		if (ev.kind == DCFG_EVENT_PROCESS) {
			dcfg_chunk_window_free(w);
			w = NULL;
			if ((p = dcfg_find_process(pw->d, ev.pid)) == NULL)
				answer = dcfg_trace_fail(ev.trace, "process %llu is not in the DCFG",
				    (unsigned long long)ev.pid);
			else if ((w = dcfg_chunk_window_new(pw->d, p, pw->from, pw->to)) == NULL)
				abort();
		} else if (ev.kind == DCFG_EVENT_CHUNK) {
			answer = pull_chunk(w, ev.chunk, pw, &budget, got);
		}
		dcfg_trace_pull_answer(r, answer);
	}
	dcfg_trace_pull_close(r, -1);
	dcfg_chunk_window_free(w);
	return budget == UINT64_MAX ? CAPPED : rc < 0 ? REFUSED : DONE;
}

/*
 * pullwin: the window [FROM, TO) of O's selection through dcfg_trace_pull_*
 * and dcfg_chunk_window_* (the library's exact cut, edge by edge) against
 * dcfg-expand --dcfg's (window.c's dcfg_window_take, by the runs): the
 * same edges in the same order, or both refused, with the same error.
 * The pull route goes first, so that dcfg-expand decodes no more than it
 * did (the same chunks, at most their EDGE_COUNT edges each).
 */
static void
check_pull_window(const char *trace, const struct dcfg_expand_options *sel, uint64_t from,
    uint64_t to, size_t size)
{
	static struct mem cut;
	struct pull_window pw = { .d = fuzz_sample_dcfg(), .pids = sel->pids, .tids = sel->tids,
		.n_pids = sel->n_pids, .n_tids = sel->n_tids, .from = from, .to = to,
		.budget = PULL_EDGES_MAX, .batch = size & 32 ? 3 : 4096 };
	struct dcfg_expand_options o = { .mode = DCFG_EXPAND_EDGES, .chunks = (size & 2) != 0,
		.dcfg = pw.d, .pids = sel->pids, .n_pids = sel->n_pids, .tids = sel->tids,
		.n_tids = sel->n_tids, .window = 1, .from = from, .to = to };
	struct dcfg_error pull_err, expand_err;
	struct digest want, got;
	char a[1024], b[1024];
	int pr, er;

	if ((pr = pull_window_digest(trace, &pw, &got, &pull_err)) == CAPPED) {
		note("pullwin", pr);
		return;
	}
	er = expand_to(&cut, trace, &o, &expand_err);
	if (er == CAPPED) {
		note("pullwin", er);
		return;
	}
	note("pullwin", er);
	if (pr != er) {
		dcfg_error_format(pr == REFUSED ? &pull_err : &expand_err, a, sizeof a);
		fprintf(stderr, "fuzz-routes: window [%" PRIu64 ", %" PRIu64 "): %s\n", from, to, a);
		disagree(pr == REFUSED ? "dcfg_chunk_window_* refuses a window dcfg-expand --dcfg takes" :
		    "dcfg-expand --dcfg refuses a window dcfg_chunk_window_* takes", NULL);
	}
	if (pr == REFUSED) {
		dcfg_error_format(&pull_err, a, sizeof a);
		dcfg_error_format(&expand_err, b, sizeof b);
		if (strcmp(a, b) != 0) {
			fprintf(stderr, "--- pull\n%s\n--- dcfg-expand\n%s\n", a, b);
			disagree("dcfg_chunk_window_* and dcfg-expand --dcfg refuse a window otherwise", NULL);
		}
		return;
	}
	digest_stream(cut.buf, &want);
	if (want.edges != got.edges || want.sum != got.sum || want.ordered != got.ordered) {
		fprintf(stderr, "fuzz-routes: window [%" PRIu64 ", %" PRIu64 "): %" PRIu64
		    " edges by dcfg-expand, %" PRIu64 " by dcfg_chunk_window_*\n", from, to,
		    want.edges, got.edges);
		disagree("dcfg_chunk_window_* takes other edges of a window than dcfg-expand --dcfg", NULL);
	}
}

#endif
