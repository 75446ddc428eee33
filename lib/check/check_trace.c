/* The section 3 checks of dcfg-check: a trace alone, and against its DCFG. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <dcfg/trace.h>

#define BATCH 4096

/*
 * A run of the decoder being read (dcfg_chunk_next_runs): its body's
 * edges are checked once, each counted as often as it runs, and the one
 * place its copies add, the join of a copy's last edge to the next
 * copy's first, is checked when it ends. Every copy after the first
 * would give the same findings again, so a chunk of 2^62 periodic edges
 * is checked in the time of its period.
 */
struct open_run {
	uint64_t count, weight;   /* its copies; the weight outside it */
	uint64_t start;           /* the index of its body's first edge */
	uint32_t first_id, first_source;
	int first_seen, first_known;
};

struct tcheck {
	const struct dcfg *d;
	struct dcfg_findings *f;
	const struct dcfg_process *p;     /* NULL: no DCFG, or not in it */
	uint64_t pid, tid;
	int in_thread;
	/* the thread so far */
	uint64_t *taken;                  /* per edge of the process */
	int complete;                     /* from START, contiguous from 0, so far */
	int seen_chunk, have_last;
	uint64_t prev_end;
	int backward;                /* the chunk being read starts before its thread's end: */
	uint64_t backward_end;       /* that end, across the thread's rows */
	uint32_t last_target;
	uint32_t ids[BATCH];
	struct open_run runs[DCFG_RUN_DEPTH_MAX];
};

static void
finding(struct tcheck *t, enum dcfg_severity sev, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
finding(struct tcheck *t, enum dcfg_severity sev, const char *where, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	dcfg_finding(t->f, sev, where, what);
}

static void
where_thread(const struct tcheck *t, char *buf, size_t size)
{
	snprintf(buf, size, "trace process %llu thread %llu", (unsigned long long)t->pid,
	    (unsigned long long)t->tid);
}

/* A complete thread's edges taken must be its COUNT_PER_THREAD. */
static void
finish_thread(struct tcheck *t)
{
	const struct dcfg *d = t->d;
	char where[160];
	uint32_t i;

	if (!t->in_thread)
		return;
	t->in_thread = 0;
	if (t->p && t->complete && t->have_last &&
	    dcfg_special_node(d, t->last_target) == DCFG_SPECIAL_END) {
		where_thread(t, where, sizeof where);
		for (i = 0; i < t->p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[t->p->edges.first + i];
			uint64_t want = e->counts.first != DCFG_NONE && t->tid < e->counts.count ?
			    d->counts[e->counts.first + t->tid] : 0;
			if (t->taken[i] != want)
				finding(t, DCFG_SEV_ERROR, where,
				    "edge %u was taken %llu times in the trace but COUNT_PER_THREAD says %llu",
				    e->id, (unsigned long long)t->taken[i], (unsigned long long)want);
		}
	}
	free(t->taken);
	t->taken = NULL;
}

static void
on_order(void *ctx, const char *what)
{
	struct tcheck *t = ctx;

	dcfg_finding(t->f, DCFG_SEV_ERROR, "trace", what);
}

static int
on_process(void *ctx, struct dcfg_trace *tr, uint64_t pid)
{
	struct tcheck *t = ctx;
	char where[64];

	(void)tr;
	finish_thread(t);
	t->pid = pid;
	t->p = NULL;
	if (t->d && (t->p = dcfg_find_process(t->d, pid)) == NULL) {
		snprintf(where, sizeof where, "trace process %llu", (unsigned long long)pid);
		finding(t, DCFG_SEV_ERROR, where, "process %llu is not in the DCFG", (unsigned long long)pid);
		return t->f->stopped ? DCFG_TRACE_STOP : DCFG_TRACE_SKIP;
	}
	return t->f->stopped ? DCFG_TRACE_STOP : DCFG_TRACE_OK;
}

static int
on_thread(void *ctx, struct dcfg_trace *tr, uint64_t pid, uint64_t tid)
{
	struct tcheck *t = ctx;
	char where[160];

	(void)tr;
	(void)pid;
	finish_thread(t);
	t->tid = tid;
	t->in_thread = 1;
	t->complete = 1;
	t->seen_chunk = t->have_last = 0;
	t->prev_end = 0;
	if (t->p == NULL)
		return DCFG_TRACE_OK;
	if (t->p->thread_instr_counts.first != DCFG_NONE && tid >= t->p->threads) {
		where_thread(t, where, sizeof where);
		finding(t, DCFG_SEV_ERROR, where, "thread %llu is not in INSTR_COUNT_PER_THREAD (the process has %u threads)",
		    (unsigned long long)tid, t->p->threads);
		t->complete = 0;   /* nothing in the DCFG to compare its counts with */
	}
	if ((t->taken = calloc(t->p->edges.count + 1, sizeof *t->taken)) == NULL)
		t->complete = 0;   /* no memory: that comparison is skipped */
	return t->f->stopped ? DCFG_TRACE_STOP : DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct tcheck *t = ctx;
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	const struct dcfg *d = t->d;
	char where[200], edge_where[240];
	uint64_t index = 0, instrs = 0, weight = 1;
	int all_known = 1, contiguous;
	struct dcfg_run_event ev;
	size_t depth = 0, r;
	ssize_t n, i;

	snprintf(where, sizeof where, "trace process %llu thread %llu chunk %lu",
	    (unsigned long long)ci->pid, (unsigned long long)ci->tid, ci->index);
	contiguous = t->seen_chunk ? ci->preceding_instr_count == t->prev_end :
	    ci->preceding_instr_count == 0;
	/* the reader knows the thread's end across its rows (on_backward) */
	if (t->p && t->backward)
		finding(t, DCFG_SEV_ERROR, where, "PRECEDING_INSTR_COUNT %llu is below the end of the chunk before (%llu)",
		    (unsigned long long)ci->preceding_instr_count, (unsigned long long)t->backward_end);
	t->backward = 0;
	if (!contiguous)
		t->complete = 0;
	while ((n = dcfg_chunk_next_runs(c, t->ids, BATCH, &ev)) > 0 || ev.kind != DCFG_RUN_NONE) {
		if (t->p == NULL)
			continue;   /* without the DCFG: decoding is the check */
		for (i = 0; i < n; i++, index++) {
			const struct dcfg_edge *e = dcfg_edge_by_id(d, t->p, t->ids[i]);
			snprintf(edge_where, sizeof edge_where, "%s edge %llu", where,
			    (unsigned long long)index);
			for (r = depth; r > 0 && !t->runs[r - 1].first_seen; r--) {
				t->runs[r - 1].first_seen = 1;
				t->runs[r - 1].first_known = e != NULL;
				t->runs[r - 1].first_id = t->ids[i];
				t->runs[r - 1].first_source = e ? e->source : 0;
			}
			if (e == NULL) {
				finding(t, DCFG_SEV_ERROR, edge_where, "edge id %u is not in the DCFG", t->ids[i]);
				all_known = t->complete = t->have_last = 0;
				continue;
			}
			if (index == 0 && t->seen_chunk == 0 &&
			    dcfg_special_node(d, e->source) != DCFG_SPECIAL_START)
				t->complete = 0;
			if ((index > 0 || contiguous) && t->have_last && t->last_target != e->source)
				finding(t, DCFG_SEV_ERROR, edge_where, "edge %u starts at node %u, but the edge before ends at node %u",
				    e->id, e->source, t->last_target);
			const struct dcfg_block *b = dcfg_block_by_node(d, t->p, e->source);
			instrs += (b ? b->num_instrs : 0) * weight;
			if (t->taken)
				t->taken[e - d->edges - t->p->edges.first] += weight;
			t->last_target = e->target;
			t->have_last = 1;
		}
		if (ev.kind == DCFG_RUN_BEGIN) {
			if (depth == DCFG_RUN_DEPTH_MAX)
				return dcfg_chunk_fail(c, index, "runs nest more than %d deep",
				    DCFG_RUN_DEPTH_MAX);
			t->runs[depth++] = (struct open_run){ .count = ev.count, .weight = weight,
			    .start = index };
			weight *= ev.count;
		} else if (ev.kind == DCFG_RUN_END && depth > 0) {
			const struct open_run *run = &t->runs[--depth];
			snprintf(edge_where, sizeof edge_where, "%s edge %llu", where,
			    (unsigned long long)index);
			if (run->first_known && t->have_last && t->last_target != run->first_source)
				finding(t, DCFG_SEV_ERROR, edge_where, "edge %u starts at node %u, but the edge before ends at node %u",
				    run->first_id, run->first_source, t->last_target);
			index += (run->count - 1) * (index - run->start);
			weight = run->weight;
		}
		if (t->f->stopped)
			return DCFG_TRACE_STOP;
	}
	if (n < 0)
		return DCFG_TRACE_ERROR;
	if (t->p && all_known && instrs != ci->instr_count)
		finding(t, DCFG_SEV_ERROR, where, "INSTR_COUNT %llu is not the sum of its edges' source instructions (%llu)",
		    (unsigned long long)ci->instr_count, (unsigned long long)instrs);
	if (ci->edge_count == 0)
		t->have_last = t->have_last && contiguous;
	t->prev_end = ci->preceding_instr_count + ci->instr_count;
	t->seen_chunk = 1;
	return t->f->stopped ? DCFG_TRACE_STOP : DCFG_TRACE_OK;
}

/* on_chunk makes it a finding and goes on checking the trace. */
static int
on_backward(void *ctx, struct dcfg_chunk *c, uint64_t previous_end)
{
	struct tcheck *t = ctx;

	(void)c;
	t->backward = 1;
	t->backward_end = previous_end;
	return DCFG_TRACE_OK;
}

int
dcfg_check_trace(const char *path, const struct dcfg *d, struct dcfg_findings *f,
    struct dcfg_error *err)
{
	static const struct dcfg_trace_handler handler = {
		.process = on_process,
		.thread = on_thread,
		.chunk = on_chunk,
		.backward = on_backward,
		.order = on_order,
	};
	struct tcheck *t = calloc(1, sizeof *t);
	char msg[1024];
	int rc;

	if (t == NULL)
		return dcfg_error_set(err, path, "out of memory");
	t->d = d;
	t->f = f;
	rc = dcfg_trace_read(path, &handler, t, err);
	if (rc >= 0)
		finish_thread(t);
	free(t->taken);
	free(t);
	if (rc == -2) {   /* readable, but wrong: a finding, and the end of the trace's checks */
		dcfg_error_format(err, msg, sizeof msg);
		dcfg_finding(f, DCFG_SEV_ERROR, "trace", msg);
		return 0;
	}
	return rc < 0 ? -1 : 0;
}
