#include "replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dcfg/trace.h>
#include "trace/sequence.h"     /* DCFG_TOKEN_RUN, DCFG_TOKEN_END */
#include "common/vec.h"

#define BATCH 4096

/* What one edge does to the replay, looked up once per edge taken. */
struct step {
	uint64_t instrs;           /* NUM_INSTRS of its target block */
	uint32_t site;             /* a call's return site, a return's target block */
	uint16_t role;
	uint16_t stub;             /* its target block is a folded stub's */
};

struct frame {
	uint32_t edge, site;
	uint64_t start;
};

/* What a stretch of a run added to an edge's rows. */
struct touch {
	uint32_t edge;
	uint64_t taken, incl, stub;
};

/*
 * A run being replayed: its period is tokens [begin, end). A copy that
 * leaves the shadow stack as it found it (no frame below it popped, none
 * left pushed) is what every later copy does: those are added at once.
 */
struct level {
	size_t begin, end;
	uint64_t count, done;          /* copies in all, and replayed */
	size_t depth, low, lowest;     /* the stack's depth at the start, its least in this copy and in all */
	uint64_t icount;               /* at the copy's start */
	uint64_t index;                /* the edge index at the copy's start */
	uint32_t chain;                /* the replayer's at the copy's start */
	size_t log, copy;              /* its touches, and this copy's, in the log */
	/* the frames the last copy left above its least depth, their starts as icount minus start */
	struct frame *snap;
	size_t n_snap, cap_snap, snap_low;
	int have_snap;
};

struct replayer {
	struct dcfg_replay *r;
	const struct dcfg_profile *pf;
	void (*progress)(void *, uint64_t);
	void *progress_ctx;
	struct step *steps;
	uint32_t *on_stack;        /* per block: frames whose return site it is */
	struct frame *stack;
	size_t depth, cap;
	uint64_t icount;
	uint64_t index;            /* the next edge's index in its chunk, copies skipped counted */
	uint64_t *incl, *taken;    /* the current thread's rows; NULL: not in one */
	uint64_t *stubs;           /* with stubs folded, the second part of its incl row */
	uint32_t chain;            /* the call whose stubs are running, or DCFG_NONE */
	int seen_process, overflow;
	char mismatch[320];        /* the first disagreement with the DCFG */
	/* runs (dcfg_chunk_next_runs): the outermost kept, then replayed */
	uint64_t *tok;
	size_t n_tok, cap_tok, *match, cap_match;
	struct level levels[DCFG_RUN_DEPTH_MAX];
	size_t n_levels;
	struct touch *log;
	size_t n_log, cap_log;
	uint32_t ids[BATCH];
};

/* Notes what an edge's rows gained, for the runs being replayed. -1: out of memory. */
static int
note(struct replayer *x, uint32_t e, uint64_t taken, uint64_t incl, uint64_t stub)
{
	if (x->n_levels == 0)
		return 0;
	if (dcfg_reserve((void **)&x->log, &x->cap_log, x->n_log + 1, sizeof *x->log) < 0)
		return -1;
	x->log[x->n_log++] = (struct touch){ e, taken, incl, stub };
	return 0;
}

static int
pop(struct replayer *x)
{
	struct frame *f = &x->stack[--x->depth];
	uint64_t cost = x->icount - f->start;

	if (f->site != DCFG_NONE)
		x->on_stack[f->site]--;
	x->overflow |= __builtin_add_overflow(x->incl[f->edge], cost, &x->incl[f->edge]);
	if (x->n_levels > 0 && x->depth < x->levels[x->n_levels - 1].low)
		x->levels[x->n_levels - 1].low = x->depth;
	return note(x, f->edge, 0, cost, 0);
}

static void
end_thread(struct replayer *x)
{
	while (x->depth)
		pop(x);
	x->incl = x->taken = x->stubs = NULL;
	x->chain = DCFG_NONE;
	x->n_log = 0;
}

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct replayer *x = ctx;

	(void)t;
	end_thread(x);
	if (pid != x->pf->p->pid)
		return DCFG_TRACE_SKIP;
	x->seen_process = 1;
	return DCFG_TRACE_OK;
}

static int
on_thread(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid)
{
	struct replayer *x = ctx;
	size_t ne = (size_t)x->pf->p->edges.count + 1;

	(void)t;
	end_thread(x);
	if (tid >= x->r->threads) {
		snprintf(x->mismatch, sizeof x->mismatch, "process %" PRIu64 " thread %" PRIu64
		    " is not in the DCFG (it has %" PRIu32 " threads)", pid, tid, x->r->threads);
		return DCFG_TRACE_STOP;
	}
	x->incl = x->r->incl + tid * x->r->stride;
	x->taken = x->r->taken + tid * ne;
	if (x->r->stride > ne)
		x->stubs = x->incl + ne;
	x->icount = 0;
	return DCFG_TRACE_OK;
}

/*
 * With stubs folded: a call into a stub starts its chain, and the stubs'
 * instructions run until the chain leaves them are the call's; those of an
 * edge into a stub outside a chain stay the edge's (no call took them).
 */
static int
stub_step(struct replayer *x, uint32_t e)
{
	const struct step *s = &x->steps[e];
	uint32_t to;

	if (!s->stub) {
		x->chain = DCFG_NONE;
		return 0;
	}
	if (s->role == DCFG_ROLE_CALL)
		x->chain = e;
	else if (s->role != DCFG_ROLE_NONE)
		x->chain = DCFG_NONE;
	to = x->chain == DCFG_NONE ? e : x->chain;
	x->overflow |= __builtin_add_overflow(x->stubs[to], s->instrs, &x->stubs[to]);
	return note(x, to, 0, 0, s->instrs);
}

/* Edge E (an index in the process's edges) taken. */
static int
take(struct replayer *x, struct dcfg_chunk *c, uint32_t e, uint64_t index)
{
	const struct step *s = &x->steps[e];

	x->taken[e]++;
	if (note(x, e, 1, 0, 0) < 0 ||
	    (x->stubs && (s->stub || x->chain != DCFG_NONE) && stub_step(x, e) < 0))
		return dcfg_chunk_fail(c, index, "out of memory");
	if (s->role == DCFG_ROLE_CALL) {
		if (x->depth == DCFG_REPLAY_MAX_DEPTH)
			return dcfg_chunk_fail(c, index, "call stack deeper than %u frames",
			    DCFG_REPLAY_MAX_DEPTH);
		if (x->depth == x->cap && dcfg_reserve((void **)&x->stack, &x->cap,
		    x->depth + 1, sizeof *x->stack) < 0)
			return dcfg_chunk_fail(c, index, "out of memory");
		x->stack[x->depth++] = (struct frame){ e, s->site, x->icount };
		if (s->site != DCFG_NONE)
			x->on_stack[s->site]++;
	} else if (s->role == DCFG_ROLE_RETURN && s->site != DCFG_NONE &&
	    x->on_stack[s->site]) {
		/* Down to the frame this returns to: longjmp and the like skip frames. */
		while (x->stack[x->depth - 1].site != s->site)
			if (pop(x) < 0)
				return dcfg_chunk_fail(c, index, "out of memory");
		if (pop(x) < 0)
			return dcfg_chunk_fail(c, index, "out of memory");
	}
	x->icount += s->instrs;
	return DCFG_TRACE_OK;
}

static int
by_edge(const void *a, const void *b)
{
	const struct touch *p = a, *q = b;

	return (p->edge > q->edge) - (p->edge < q->edge);
}

/* One touch per edge in the log from FROM on, their sums. */
static void
compact(struct replayer *x, size_t from)
{
	size_t i, n = from;

	qsort(x->log + from, x->n_log - from, sizeof *x->log, by_edge);
	for (i = from; i < x->n_log; i++) {
		if (n > from && x->log[n - 1].edge == x->log[i].edge) {
			x->overflow |= __builtin_add_overflow(x->log[n - 1].taken, x->log[i].taken,
			    &x->log[n - 1].taken);
			x->overflow |= __builtin_add_overflow(x->log[n - 1].incl, x->log[i].incl,
			    &x->log[n - 1].incl);
			x->overflow |= __builtin_add_overflow(x->log[n - 1].stub, x->log[i].stub,
			    &x->log[n - 1].stub);
		} else {
			x->log[n++] = x->log[i];
		}
	}
	x->n_log = n;
}

/* A*B + C into *R, flagging overflow. */
static void
mul_add(struct replayer *x, uint64_t a, uint64_t b, uint64_t *r)
{
	uint64_t m;

	x->overflow |= __builtin_mul_overflow(a, b, &m);
	x->overflow |= __builtin_add_overflow(*r, m, r);
}

/*
 * Whether the copy just ended started as the one it ends in will: it left
 * the stack as it found it, or it replaced the frames it popped with
 * frames like them (a period that starts inside a call of its loop).
 * Remembers the frames it left for the next copy's question.
 */
static int
steady(struct replayer *x, struct level *L)
{
	size_t i, n = x->depth - L->low;
	int same;

	if (x->depth != L->depth || x->chain != L->chain) {
		L->have_snap = 0;
		return 0;
	}
	if (L->low >= L->depth)
		return 1;
	same = L->have_snap && L->snap_low == L->low && L->n_snap == n;
	for (i = 0; same && i < n; i++) {
		const struct frame *f = &x->stack[L->low + i], *g = &L->snap[i];
		same = f->edge == g->edge && f->site == g->site && x->icount - f->start == g->start;
	}
	if (same)
		return 1;
	if (dcfg_reserve((void **)&L->snap, &L->cap_snap, n, sizeof *L->snap) < 0) {
		L->have_snap = 0;   /* then the copies are replayed one by one */
		return 0;
	}
	for (i = 0; i < n; i++) {
		L->snap[i] = x->stack[L->low + i];
		L->snap[i].start = x->icount - L->snap[i].start;
	}
	L->n_snap = n;
	L->snap_low = L->low;
	L->have_snap = 1;
	return 0;
}

/*
 * The innermost run's copy ends. If the next copy will do as this one did,
 * the copies still to come are added by arithmetic. Returns where to go on.
 */
static size_t
end_copy(struct replayer *x)
{
	struct level *L = &x->levels[x->n_levels - 1];
	uint64_t left, ic = x->icount - L->icount;
	size_t i;

	L->done++;
	if (L->low < L->lowest)
		L->lowest = L->low;
	left = L->count - L->done;
	compact(x, L->copy);
	if (left > 0 && steady(x, L)) {
		for (i = L->copy; i < x->n_log; i++) {
			struct touch *t = &x->log[i];
			uint64_t all_taken = t->taken, all_incl = t->incl, all_stub = t->stub;
			mul_add(x, left, t->taken, &x->taken[t->edge]);
			mul_add(x, left, t->incl, &x->incl[t->edge]);
			if (x->stubs)
				mul_add(x, left, t->stub, &x->stubs[t->edge]);
			mul_add(x, left, t->taken, &all_taken);
			mul_add(x, left, t->incl, &all_incl);
			mul_add(x, left, t->stub, &all_stub);
			t->taken = all_taken;
			t->incl = all_incl;
			t->stub = all_stub;
		}
		mul_add(x, left, ic, &x->icount);
		x->index += left * (x->index - L->index);
		/* the frames the copies leave started as many copies later */
		for (i = L->low; i < x->depth; i++)
			mul_add(x, left, ic, &x->stack[i].start);
		L->done = L->count;
	}
	compact(x, L->log);
	if (L->done < L->count) {
		L->copy = x->n_log;
		L->low = x->depth;
		L->icount = x->icount;
		L->index = x->index;
		L->chain = x->chain;
		return L->begin;
	}
	/* the run is over: what it did stays in the log for the runs around it */
	i = L->end + 1;
	x->n_levels--;
	if (x->n_levels > 0) {
		if (L->lowest < x->levels[x->n_levels - 1].low)
			x->levels[x->n_levels - 1].low = L->lowest;
	} else {
		x->n_log = 0;
	}
	return i;
}

/* Replays the run kept in x->tok, nested runs and all, with an explicit stack. */
static int
replay_run(struct replayer *x, struct dcfg_chunk *c)
{
	const struct dcfg_idmap *by_id = &dcfg_process_index(x->pf->d, x->pf->p)->edge_by_id;
	size_t opens[DCFG_RUN_DEPTH_MAX], depth = 0, i;
	int rc;

	if (dcfg_reserve((void **)&x->match, &x->cap_match, x->n_tok, sizeof *x->match) < 0)
		return dcfg_chunk_fail(c, dcfg_chunk_emitted(c), "out of memory");
	for (i = 0; i < x->n_tok; i++) {
		if (x->tok[i] == DCFG_TOKEN_RUN) {
			opens[depth++] = i++;
		} else if (x->tok[i] == DCFG_TOKEN_END) {
			x->match[opens[--depth]] = i;
		}
	}
	i = 0;
	for (;;) {
		if (x->n_levels > 0 && i == x->levels[x->n_levels - 1].end) {
			i = end_copy(x);
			continue;
		}
		if (i >= x->n_tok)
			break;
		if (x->tok[i] == DCFG_TOKEN_RUN) {
			struct level *L = &x->levels[x->n_levels++];
			L->begin = i + 2;
			L->end = x->match[i];
			L->count = x->tok[i + 1];
			L->done = 0;
			L->depth = L->low = L->lowest = x->depth;
			L->icount = x->icount;
			L->index = x->index;
			L->chain = x->chain;
			L->log = L->copy = x->n_log;
			L->have_snap = 0;
			i += 2;
			continue;
		}
		uint32_t e = dcfg_idmap_get(by_id, (uint32_t)x->tok[i]);
		if (e == DCFG_NONE)
			return dcfg_chunk_fail(c, x->index, "edge id %" PRIu32
			    " is not in the DCFG", (uint32_t)x->tok[i]);
		if ((rc = take(x, c, e, x->index++)) != DCFG_TRACE_OK)
			return rc;
		i++;
	}
	x->n_tok = 0;
	return DCFG_TRACE_OK;
}

static int
keep_token(struct replayer *x, struct dcfg_chunk *c, uint64_t t)
{
	if (dcfg_reserve((void **)&x->tok, &x->cap_tok, x->n_tok + 1, sizeof *x->tok) < 0)
		return dcfg_chunk_fail(c, dcfg_chunk_emitted(c), "out of memory");
	x->tok[x->n_tok++] = t;
	return DCFG_TRACE_OK;
}

/*
 * The chunk is decoded with runs: edges outside runs are replayed as they
 * come; a run is kept until it ends (the decoder bounds it), then replayed.
 */
static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct replayer *x = ctx;
	const struct dcfg_idmap *by_id = &dcfg_process_index(x->pf->d, x->pf->p)->edge_by_id;
	struct dcfg_run_event ev;
	unsigned open = 0;
	ssize_t n, i;
	int rc;

	x->n_tok = 0;
	x->index = 0;
	do {
		if ((n = dcfg_chunk_next_runs(c, x->ids, BATCH, &ev)) < 0)
			return DCFG_TRACE_ERROR;
		for (i = 0; i < n; i++) {
			uint64_t index = open ? 0 : x->index++;
			uint32_t e = open ? 0 : dcfg_idmap_get(by_id, x->ids[i]);
			if (open)
				rc = keep_token(x, c, x->ids[i]);
			else if (e == DCFG_NONE)
				return dcfg_chunk_fail(c, index, "edge id %" PRIu32 " is not in the DCFG",
				    x->ids[i]);
			else
				rc = take(x, c, e, index);
			if (rc != DCFG_TRACE_OK)
				return rc;
		}
		if (ev.kind == DCFG_RUN_BEGIN) {
			if (open == DCFG_RUN_DEPTH_MAX)
				return dcfg_chunk_fail(c, dcfg_chunk_emitted(c),
				    "runs nest more than %d deep", DCFG_RUN_DEPTH_MAX);
			open++;
			if ((rc = keep_token(x, c, DCFG_TOKEN_RUN)) != DCFG_TRACE_OK ||
			    (rc = keep_token(x, c, ev.count)) != DCFG_TRACE_OK)
				return rc;
		} else if (ev.kind == DCFG_RUN_END) {
			if ((rc = keep_token(x, c, DCFG_TOKEN_END)) != DCFG_TRACE_OK)
				return rc;
			if (--open == 0 && (rc = replay_run(x, c)) != DCFG_TRACE_OK)
				return rc;
		}
	} while (n > 0 || ev.kind != DCFG_RUN_NONE);
	return DCFG_TRACE_OK;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct replayer *x = ctx;

	if (x->progress)
		x->progress(x->progress_ctx, bytes);
}

static void
replayer_free(struct replayer *x)
{
	size_t i;

	if (x == NULL)
		return;
	free(x->steps);
	free(x->on_stack);
	free(x->stack);
	free(x->tok);
	free(x->match);
	free(x->log);
	for (i = 0; i < DCFG_RUN_DEPTH_MAX; i++)
		free(x->levels[i].snap);
	free(x);
}

/* A replayer of PF's process into R, each edge's step looked up. NULL: out of memory. */
static struct replayer *
replayer_new(struct dcfg_replay *r, const struct dcfg_profile *pf,
    void (*progress)(void *, uint64_t), void *progress_ctx)
{
	const struct dcfg_process *p = pf->p;
	struct replayer *x = calloc(1, sizeof *x);
	size_t i;

	if (x == NULL ||
	    (x->steps = malloc(((size_t)p->edges.count + 1) * sizeof *x->steps)) == NULL ||
	    (x->on_stack = calloc((size_t)p->blocks.count + 1, sizeof *x->on_stack)) == NULL) {
		replayer_free(x);
		return NULL;
	}
	x->r = r;
	x->pf = pf;
	x->chain = DCFG_NONE;
	x->progress = progress;
	x->progress_ctx = progress_ctx;
	for (i = 0; i < p->edges.count; i++) {
		uint32_t b = dcfg_profile_block_of(pf, pf->d->edges[p->edges.first + i].target);
		x->steps[i].instrs = b == DCFG_NONE ? 0 : dcfg_profile_block(pf, b)->num_instrs;
		x->steps[i].site = pf->site[i];
		x->steps[i].role = pf->role[i];
		x->steps[i].stub = b != DCFG_NONE && dcfg_profile_folded(pf, pf->block_func[b]);
	}
	return x;
}

int
dcfg_replay_trace(struct dcfg_replay *r, const struct dcfg_profile *pf,
    const char *path, void (*progress)(void *, uint64_t), void *progress_ctx,
    struct dcfg_error *err)
{
	static const struct dcfg_trace_handler handler = {
		.process = on_process,
		.thread = on_thread,
		.chunk = on_chunk,
		.progress = on_progress,
	};
	const struct dcfg_process *p = pf->p;
	struct replayer *x = NULL;
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (dcfg_replay_rows_alloc(r, pf, path, err) < 0)
		goto out;
	if ((x = replayer_new(r, pf, progress, progress_ctx)) == NULL) {
		dcfg_error_set(err, path, "out of memory");
		goto out;
	}
	rc = dcfg_trace_read(path, &handler, x, err);
	end_thread(x);
	if (rc < 0) {
		rc = -1;
		goto out;
	}
	rc = -2;
	if (x->mismatch[0] == '\0' && !x->seen_process)
		snprintf(x->mismatch, sizeof x->mismatch, "process %" PRIu64 " is not in the trace",
		    p->pid);
	if (x->mismatch[0] ||
	    dcfg_replay_rows_check(r, pf, x->mismatch, sizeof x->mismatch) < 0) {
		dcfg_error_set(err, path, "%s", x->mismatch);
		goto out;
	}
	x->overflow |= dcfg_replay_rows_sum(r);
	if (x->overflow) {
		dcfg_error_set(err, path, "process %" PRIu64 ": an inclusive cost does not fit "
		    "in 64 bits", p->pid);
		goto out;
	}
	rc = 0;
out:
	replayer_free(x);
	if (rc < 0)
		dcfg_replay_free(r);
	return rc;
}
