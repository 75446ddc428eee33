#include "replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "vec.h"

#define BATCH 4096

/* What one edge does to the replay, looked up once per edge taken. */
struct step {
	uint64_t instrs;           /* NUM_INSTRS of its target block */
	uint32_t site;             /* a call's return site, a return's target block */
	uint32_t role;
};

struct frame {
	uint32_t edge, site;
	uint64_t start;
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
	uint64_t *incl, *taken;    /* the current thread's rows; NULL: not in one */
	int seen_process, overflow;
	char mismatch[320];        /* the first disagreement with the DCFG */
	uint32_t ids[BATCH];
};

static void
pop(struct replayer *x)
{
	struct frame *f = &x->stack[--x->depth];

	if (f->site != DCFG_NONE)
		x->on_stack[f->site]--;
	x->overflow |= __builtin_add_overflow(x->incl[f->edge], x->icount - f->start,
	    &x->incl[f->edge]);
}

static void
end_thread(struct replayer *x)
{
	while (x->depth)
		pop(x);
	x->incl = x->taken = NULL;
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
	x->incl = x->r->incl + tid * ne;
	x->taken = x->r->taken + tid * ne;
	x->icount = 0;
	return DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct replayer *x = ctx;
	const struct dcfg_idmap *by_id = &x->pf->p->edge_by_id;
	uint64_t index = 0;
	ssize_t n, i;

	while ((n = dcfg_chunk_next(c, x->ids, BATCH)) > 0) {
		for (i = 0; i < n; i++, index++) {
			uint32_t e = dcfg_idmap_get(by_id, x->ids[i]);
			const struct step *s;
			if (e == DCFG_NONE)
				return dcfg_chunk_fail(c, index, "edge id %" PRIu32 " is not in the DCFG",
				    x->ids[i]);
			s = &x->steps[e];
			x->taken[e]++;
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
					pop(x);
				pop(x);
			}
			x->icount += s->instrs;
		}
	}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct replayer *x = ctx;

	if (x->progress)
		x->progress(x->progress_ctx, bytes);
}

/* The first edge whose count in the trace is not the DCFG's. */
static int
compare(struct replayer *x)
{
	const struct dcfg *d = x->pf->d;
	const struct dcfg_process *p = x->pf->p;
	size_t ne = (size_t)p->edges.count + 1;
	uint32_t t, i;

	for (t = 0; t < x->r->threads; t++)
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			uint64_t want = e->counts.first != DCFG_NONE && t < e->counts.count ?
			    d->counts[e->counts.first + t] : 0;
			uint64_t got = x->r->taken[t * ne + i];
			if (got != want) {
				snprintf(x->mismatch, sizeof x->mismatch, "process %" PRIu64 " thread %"
				    PRIu32 " edge %" PRIu32 ": taken %" PRIu64 " times in the trace, "
				    "COUNT_PER_THREAD says %" PRIu64, p->pid, t, e->id, got, want);
				return -1;
			}
		}
	return 0;
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
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	size_t ne = (size_t)p->edges.count + 1, cells, i;
	struct replayer *x;
	uint32_t t;
	int rc = -1;

	memset(r, 0, sizeof *r);
	r->threads = p->threads;
	r->stride = ne;
	if (__builtin_mul_overflow((size_t)r->threads + 1, ne, &cells) ||
	    cells > SIZE_MAX / sizeof *r->incl)
		return dcfg_error_set(err, path, "process %" PRIu64 ": %" PRIu32 " threads of %"
		    PRIu32 " edges are too many to replay", p->pid, r->threads, p->edges.count);
	x = calloc(1, sizeof *x);
	r->incl = calloc(cells, sizeof *r->incl);
	r->taken = calloc(cells, sizeof *r->taken);
	r->sum = calloc(ne, sizeof *r->sum);
	if (x == NULL || r->incl == NULL || r->taken == NULL || r->sum == NULL ||
	    (x->steps = malloc(ne * sizeof *x->steps)) == NULL ||
	    (x->on_stack = calloc((size_t)p->blocks.count + 1, sizeof *x->on_stack)) == NULL) {
		dcfg_error_set(err, path, "out of memory");
		goto out;
	}
	x->r = r;
	x->pf = pf;
	x->progress = progress;
	x->progress_ctx = progress_ctx;
	for (i = 0; i < p->edges.count; i++) {
		uint32_t b = dcfg_profile_block_of(pf, d->edges[p->edges.first + i].target);
		x->steps[i].instrs = b == DCFG_NONE ? 0 : dcfg_profile_block(pf, b)->num_instrs;
		x->steps[i].site = pf->site[i];
		x->steps[i].role = pf->role[i];
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
	if (x->mismatch[0] || compare(x) < 0) {
		dcfg_error_set(err, path, "%s", x->mismatch);
		goto out;
	}
	for (t = 0; t < r->threads; t++)
		for (i = 0; i < p->edges.count; i++)
			x->overflow |= __builtin_add_overflow(r->sum[i], r->incl[t * ne + i], &r->sum[i]);
	if (x->overflow) {
		dcfg_error_set(err, path, "process %" PRIu64 ": an inclusive cost does not fit "
		    "in 64 bits", p->pid);
		goto out;
	}
	rc = 0;
out:
	if (x) {
		free(x->steps);
		free(x->on_stack);
		free(x->stack);
		free(x);
	}
	if (rc < 0)
		dcfg_replay_free(r);
	return rc;
}

void
dcfg_replay_free(struct dcfg_replay *r)
{
	free(r->incl);
	free(r->taken);
	free(r->sum);
	memset(r, 0, sizeof *r);
}

const uint64_t *
dcfg_replay_incl(const struct dcfg_replay *r, uint32_t thread)
{
	return thread == DCFG_ALL_THREADS ? r->sum : r->incl + thread * r->stride;
}
