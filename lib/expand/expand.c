#include "expand.h"

#include <stdlib.h>
#include <string.h>

#include "common/progress.h"
#include "trace/selection.h"
#include <dcfg/stream.h>
#include <dcfg/trace.h>
#include "stream/writer.h"
#include "idlines.h"
#include "window.h"

#define BATCH 4096
#define TICK 64          /* batches between two looks at the meter's clock */

struct expand {
	const struct dcfg_expand_options *o;
	struct dcfg_output *out;
	const struct dcfg_process *process;   /* in the DCFG, with --dcfg */
	struct dcfg_selection sel;            /* -p and -t, and what was found */
	uint64_t pid, tid;
	int headed;                           /* the output's first line is written */
	int in_thread;                        /* a thread's totals are pending (--count) */
	uint64_t edges, instrs;               /* the thread's totals */
	/*
	 * Where the thread row's last chunk ended: a chunk after a gap gets
	 * its marker even without --chunks, so that positions after it (of
	 * vectors, of a profile's markers) are not silently off by the gap.
	 */
	uint64_t chunk_end;
	int chunk_end_known;
	uint64_t decoded;                     /* edges of every thread, for the meter */
	struct dcfg_progress *meter;          /* NULL: bytes through o->progress, if set */
	uint64_t bytes, batches;              /* the trace's bytes read, for the meter */
	struct dcfg_window window;            /* a chunk the window cuts */
	struct dcfg_recorded_selection recorded;   /* what a shard's stream says it covers */
	uint32_t crc;                         /* the trace's data, once all read (o->shards) */
	uint64_t trace_bytes;
	unsigned depth;                       /* runs open in the chunk */
	uint64_t weight[DCFG_RUN_DEPTH_MAX + 1];   /* how often an edge runs at each depth */
	uint32_t ids[BATCH];
	struct dcfg_idlines lines;           /* the edges' lines, kept formatted */
	struct dcfg_table table;             /* --count in a format of the table writer */
};

static const struct dcfg_table_column count_columns[] = {
	{ "pid", DCFG_COLUMN_NUMBER }, { "tid", DCFG_COLUMN_NUMBER },
	{ "edges", DCFG_COLUMN_NUMBER }, { "instructions", DCFG_COLUMN_NUMBER },
};

int
dcfg_expand_selects(const uint64_t *v, size_t n, uint64_t x)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static void
tab_u64(struct dcfg_output *out, uint64_t v)
{
	dcfg_out_char(out, '\t');
	dcfg_out_u64(out, v);
}

static void
flush_totals(struct expand *x)
{
	if (x->o->mode != DCFG_EXPAND_COUNT || !x->in_thread)
		return;
	x->in_thread = 0;
	if (x->o->tabled) {
		dcfg_table_u64(&x->table, x->pid);
		dcfg_table_u64(&x->table, x->tid);
		dcfg_table_u64(&x->table, x->edges);
		dcfg_table_u64(&x->table, x->instrs);
		dcfg_table_end_row(&x->table);
		return;
	}
	dcfg_out_u64(x->out, x->pid);
	tab_u64(x->out, x->tid);
	tab_u64(x->out, x->edges);
	tab_u64(x->out, x->instrs);
	dcfg_out_char(x->out, '\n');
}

/* What a shard's stream covers (dcfg-stream(5), "# selection"). 0, or -1 when out of memory. */
static int
record_selection(struct expand *x)
{
	const struct dcfg_expand_options *o = x->o;
	struct dcfg_recorded_selection *r = &x->recorded;

	r->shard = o->shard;
	r->shards = o->shards;
	r->align = o->align;
	r->from = o->window ? o->from : 0;
	r->to = o->window ? o->to : UINT64_MAX;
	return dcfg_ids_ascending(o->pids, o->n_pids, &r->pids, &r->n_pids) < 0 ||
	    dcfg_ids_ascending(o->tids, o->n_tids, &r->tids, &r->n_tids) < 0 ||
	    dcfg_ids_ascending(o->of_pids, o->n_of_pids, &r->of_pids, &r->n_of_pids) < 0 ||
	    dcfg_ids_ascending(o->of_tids, o->n_of_tids, &r->of_tids, &r->n_of_tids) < 0 ? -1 : 0;
}

/*
 * The header waits for the first process (or the end of a trace of none),
 * so that a file that is no trace writes nothing before its error.
 */
static void
header(struct expand *x)
{
	if (x->headed)
		return;
	x->headed = 1;
	if (x->o->mode == DCFG_EXPAND_EDGES) {
		dcfg_stream_write_header(x->out, x->o->runs ? 2 : 1);
		if (x->o->shards)
			dcfg_stream_write_selection(x->out, &x->recorded);
	} else if (x->o->mode == DCFG_EXPAND_LIST)
		dcfg_out_str(x->out, "# pid\ttid\tchunk\tpreceding_instr_count\tinstr_count\tedge_count\tsequence_length\n");
	else if (!x->o->tabled)
		dcfg_out_str(x->out, "# pid\ttid\tedges\tinstructions\n");
	else {
		/* one section: the pid is a column, as in the TSV */
		dcfg_table_open(&x->table, x->out, x->o->format, "dcfg-expand", 1);
		dcfg_table_section(&x->table);
		dcfg_table_columns(&x->table, count_columns, sizeof count_columns / sizeof count_columns[0]);
	}
}

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct expand *x = ctx;

	header(x);
	flush_totals(x);
	if (!dcfg_selection_process(&x->sel, pid))
		return DCFG_TRACE_SKIP;
	x->pid = pid;
	if (x->o->dcfg && (x->process = dcfg_find_process(x->o->dcfg, pid)) == NULL)
		return dcfg_trace_fail(t, "process %llu is not in the DCFG",
		    (unsigned long long)pid);
	if (x->o->mode == DCFG_EXPAND_EDGES)
		dcfg_stream_write_process(x->out, pid);
	return DCFG_TRACE_OK;
}

static int
on_thread(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid)
{
	struct expand *x = ctx;

	(void)t;
	(void)pid;
	flush_totals(x);
	if (!dcfg_selection_thread(&x->sel, tid))
		return DCFG_TRACE_SKIP;
	x->tid = tid;
	x->chunk_end_known = 0;
	x->in_thread = 1;
	x->edges = x->instrs = 0;
	if (x->o->mode == DCFG_EXPAND_EDGES)
		dcfg_stream_write_thread(x->out, tid);
	return DCFG_TRACE_OK;
}

/*
 * One buffer of the trace can hold a chunk of millions of edges: the meter
 * hears of them every TICK batches, not only between reads.
 */
static void
tick(struct expand *x, uint64_t n)
{
	x->decoded += n;
	if (x->meter && ++x->batches % TICK == 0)
		dcfg_progress_update(x->meter, x->bytes, x->decoded);
}

static void
list_row(struct expand *x, const struct dcfg_chunk_info *ci)
{
	dcfg_out_u64(x->out, ci->pid);
	tab_u64(x->out, ci->tid);
	tab_u64(x->out, ci->index);
	tab_u64(x->out, ci->preceding_instr_count);
	tab_u64(x->out, ci->instr_count);
	tab_u64(x->out, ci->edge_count);
	tab_u64(x->out, ci->sequence_length);
	dcfg_out_char(x->out, '\n');
}

/* Instructions of an edge's source block (0 for special nodes); -1 if not in the DCFG. */
static int
edge_instrs(const struct expand *x, uint32_t edge_id, uint64_t *instrs)
{
	const struct dcfg_edge *e = dcfg_edge_by_id(x->o->dcfg, x->process, edge_id);
	const struct dcfg_block *b;

	if (e == NULL)
		return -1;
	b = dcfg_block_by_node(x->o->dcfg, x->process, e->source);
	*instrs = b ? b->num_instrs : 0;
	return 0;
}

static int
window_instrs(void *ctx, uint32_t edge, uint64_t *instrs)
{
	return edge_instrs(ctx, edge, instrs);
}

static void
window_write(void *ctx, const uint32_t *ids, size_t n)
{
	struct expand *x = ctx;

	dcfg_idlines_write(&x->lines, x->out, ids, n);
}

static void
window_run(void *ctx, uint64_t count)
{
	struct expand *x = ctx;

	if (count == 0)
		dcfg_stream_write_run_end(x->out);
	else
		dcfg_stream_write_run(x->out, count);
}

/* A thread's instructions, summed for --count: past 2^64 - 1 is an error, never a wrap. */
/* --count prints the sums: one past 2^64 - 1 is an error, never a wrapped number. */
static int
add_edges(struct expand *x, struct dcfg_chunk *c, uint64_t n)
{
	if (__builtin_add_overflow(x->edges, n, &x->edges) && x->o->mode == DCFG_EXPAND_COUNT)
		return dcfg_chunk_fail_row(c, "the thread's edges pass 2^64 - 1");
	return DCFG_TRACE_OK;
}

static int
add_instrs(struct expand *x, struct dcfg_chunk *c, uint64_t n)
{
	if (__builtin_add_overflow(x->instrs, n, &x->instrs) && x->o->mode == DCFG_EXPAND_COUNT)
		return dcfg_chunk_fail_row(c, "the thread's instructions pass 2^64 - 1");
	return DCFG_TRACE_OK;
}

/*
 * A chunk cut by the window, with the DCFG: emits the edges whose
 * instruction count is in [from, to). With markers the cut is measured in
 * a first pass, so that the marker can come before the edges. The chunk
 * is decoded with runs: whole copies of a run outside the window are
 * skipped, and those inside taken, by arithmetic (window.h).
 */
static int
cut_chunk(struct expand *x, struct dcfg_chunk *c, const struct dcfg_chunk_info *ci,
    int emitting)
{
	struct dcfg_window *w = &x->window;
	struct dcfg_run_event ev;
	ssize_t n;
	int rc;

	dcfg_window_init(w, x->o->from, x->o->to, ci->preceding_instr_count);
	w->edge_instrs = window_instrs;
	w->write = emitting && x->o->mode == DCFG_EXPAND_EDGES ? window_write : NULL;
	w->write_run = x->o->runs ? window_run : NULL;
	w->ctx = x;
	do {
		if ((n = dcfg_chunk_next_runs(c, x->ids, BATCH, &ev)) < 0)
			return DCFG_TRACE_ERROR;
		if ((rc = dcfg_window_take(w, x->ids, (size_t)n, &ev)) == -1)
			return dcfg_chunk_fail(c, w->index, "edge id %u is not in the DCFG", w->bad_edge);
		if (rc == -2)
			return dcfg_chunk_fail(c, w->index, "out of memory");
		if (rc == -3)
			return dcfg_chunk_fail(c, w->index, "more than 2^64 instructions");
		if (rc == -4)
			return dcfg_chunk_fail(c, w->index, "more than 2^64 edges");
		if (dcfg_output_failed(x->out))
			break;
	} while (!w->past && (n > 0 || ev.kind != DCFG_RUN_NONE));
	if (!emitting && w->edges > 0 && x->o->chunks && x->o->mode == DCFG_EXPAND_EDGES)
		dcfg_stream_write_chunk(x->out, w->first, w->instrs, w->edges);
	if (emitting) {
		tick(x, w->edges);
		if (add_edges(x, c, w->edges) != DCFG_TRACE_OK)
			return DCFG_TRACE_ERROR;
		return add_instrs(x, c, w->instrs);
	}
	return DCFG_TRACE_OK;
}

/*
 * A whole chunk with runs: written as runs (--runs), or counted by
 * multiplying (--count), never expanded. An edge's index in an error is
 * the decoder's count of the edges before it.
 */

static int
runs_chunk(struct expand *x, struct dcfg_chunk *c, const struct dcfg_chunk_info *ci)
{
	struct dcfg_run_event ev;
	uint64_t instrs;
	ssize_t n, i;

	x->depth = 0;
	x->weight[0] = 1;
	do {
		if ((n = dcfg_chunk_next_runs(c, x->ids, BATCH, &ev)) < 0)
			return DCFG_TRACE_ERROR;
		if (x->o->dcfg)
			for (i = 0; i < n; i++)
				if (edge_instrs(x, x->ids[i], &instrs) < 0)
					return dcfg_chunk_fail(c, dcfg_chunk_emitted(c) - (uint64_t)(n - i),
					    "edge id %u is not in the DCFG", x->ids[i]);
		/* a chunk decodes at most EDGE_COUNT edges: only the thread's sum can pass 2^64 - 1 */
		if (add_edges(x, c, (uint64_t)n * x->weight[x->depth]) != DCFG_TRACE_OK)
			return DCFG_TRACE_ERROR;
		tick(x, (uint64_t)n * x->weight[x->depth]);
		if (x->o->mode == DCFG_EXPAND_EDGES)
			dcfg_idlines_write(&x->lines, x->out, x->ids, (size_t)n);
		if (ev.kind == DCFG_RUN_BEGIN) {
			if (x->depth == DCFG_RUN_DEPTH_MAX)
				return dcfg_chunk_fail(c, dcfg_chunk_emitted(c),
				    "runs nest more than %d deep", DCFG_RUN_DEPTH_MAX);
			x->weight[x->depth + 1] = x->weight[x->depth] * ev.count;
			x->depth++;
			if (x->o->mode == DCFG_EXPAND_EDGES)
#ifdef FUZZ_PLANT_RUNS
				/* planted for the routes fuzz target (README, Fuzzing): a nested run of 2 written as 3 */
				dcfg_stream_write_run(x->out, ev.count + (x->depth == 2 && ev.count == 2));
#else
				dcfg_stream_write_run(x->out, ev.count);
#endif
		} else if (ev.kind == DCFG_RUN_END) {
			x->depth--;
			if (x->o->mode == DCFG_EXPAND_EDGES)
				dcfg_stream_write_run_end(x->out);
		}
		if (dcfg_output_failed(x->out))
			return DCFG_TRACE_STOP;
	} while (n > 0 || ev.kind != DCFG_RUN_NONE);
	return add_instrs(x, c, ci->instr_count);
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct expand *x = ctx;
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	uint64_t p = ci->preceding_instr_count, end;
	uint64_t index = 0, instrs;
	ssize_t n, i;
	int gap, overflow, place;

	if (dcfg_output_failed(x->out))
		return DCFG_TRACE_STOP;
	if (x->o->mode == DCFG_EXPAND_LIST) {
		list_row(x, ci);
		return DCFG_TRACE_OK;
	}
	/* Chunks wholly outside the window are skipped without being decoded. */
	place = x->o->window ? dcfg_chunk_window_place(c, x->o->from, x->o->to, x->o->dcfg != NULL)
	    : DCFG_WINDOW_WHOLE;
	if (place < 0)
		return DCFG_TRACE_ERROR;
	if (place == DCFG_WINDOW_SKIP)
		return DCFG_TRACE_OK;
	overflow = __builtin_add_overflow(p, ci->instr_count, &end);
	gap = x->chunk_end_known && p > x->chunk_end;
	x->chunk_end = end;
	x->chunk_end_known = !overflow;
	if (x->o->window) {
		/* a shard's selection line must be true: a whole chunk past its window is not */
		if (!x->o->dcfg && x->o->shards && (p < x->o->from || end > x->o->to))
			return dcfg_chunk_fail_row(c, "--shard: the chunk's instructions %llu to %llu "
			    "cross the window's %s, and without --dcfg a window takes whole chunks: "
			    "the shards would overlap (cut where no chunk does, as --plan does, or "
			    "give --dcfg)", (unsigned long long)p, (unsigned long long)end,
			    p < x->o->from ? "start" : "end");
		if (place == DCFG_WINDOW_CUT) {
			/* A boundary chunk: measure first (for the marker), then emit. */
			if (x->o->chunks && x->o->mode == DCFG_EXPAND_EDGES) {
				int rc = cut_chunk(x, c, ci, 0);
				if (rc != DCFG_TRACE_OK)
					return rc;
				dcfg_chunk_rewind(c);
			}
			return cut_chunk(x, c, ci, 1);
		}
	}
	if ((x->o->chunks || gap) && x->o->mode == DCFG_EXPAND_EDGES)
		dcfg_stream_write_chunk(x->out, p, ci->instr_count, ci->edge_count);
	if (x->o->runs || x->o->mode == DCFG_EXPAND_COUNT)
		return runs_chunk(x, c, ci);
	while ((n = dcfg_chunk_next(c, x->ids, BATCH)) > 0) {
		if (x->o->dcfg)
			for (i = 0; i < n; i++, index++)
				if (edge_instrs(x, x->ids[i], &instrs) < 0)
					return dcfg_chunk_fail(c, index,
					    "edge id %u is not in the DCFG", x->ids[i]);
		if (add_edges(x, c, (uint64_t)n) != DCFG_TRACE_OK)
			return DCFG_TRACE_ERROR;
		tick(x, (uint64_t)n);
		if (x->o->mode == DCFG_EXPAND_EDGES) {
			dcfg_idlines_write(&x->lines, x->out, x->ids, (size_t)n);
			if (dcfg_output_failed(x->out))
				return DCFG_TRACE_STOP;
		}
	}
	if (n < 0)
		return DCFG_TRACE_ERROR;
	return add_instrs(x, c, ci->instr_count);
}

static void
on_sum(void *ctx, uint32_t crc, uint64_t bytes)
{
	struct expand *x = ctx;

	x->crc = crc;
	x->trace_bytes = bytes;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct expand *x = ctx;

	x->bytes = bytes;
	if (x->meter)
		dcfg_progress_update(x->meter, bytes, x->decoded);
	else if (x->o->progress)
		x->o->progress(x->o->progress_ctx, bytes);
}

int
dcfg_expand(const char *trace, const struct dcfg_expand_options *opt,
    struct dcfg_output *out, struct dcfg_error *err)
{
	static const struct dcfg_trace_handler handler = {
		.process = on_process,
		.thread = on_thread,
		.chunk = on_chunk,
		.progress = on_progress,
	}, shard_handler = {
		.process = on_process,
		.thread = on_thread,
		.chunk = on_chunk,
		.progress = on_progress,
		.sum = on_sum,
	};
	struct expand *x = calloc(1, sizeof *x);
	int rc;

	if (x == NULL)
		return dcfg_error_set(err, trace, "out of memory");
	x->o = opt;
	x->out = out;
	dcfg_idlines_init(&x->lines);
	if ((opt->shards && record_selection(x) < 0) ||
	    dcfg_selection_init(&x->sel, opt->pids, opt->n_pids, opt->tids, opt->n_tids) < 0) {
		dcfg_recorded_selection_free(&x->recorded);
		free(x);
		return dcfg_error_set(err, trace, "out of memory");
	}
	x->meter = dcfg_progress_of(opt->progress, opt->progress_ctx);
	/* the chunk table decodes no edges */
	dcfg_progress_file(x->meter, NULL, trace, opt->mode == DCFG_EXPAND_LIST ? NULL : "edges");
	rc = dcfg_trace_read(trace, opt->shards ? &shard_handler : &handler, x, err);
	if (rc == 0) {
		header(x);
		flush_totals(x);
		rc = dcfg_selection_check(&x->sel, trace, err);
		if (rc == 0 && opt->shards && opt->mode == DCFG_EXPAND_EDGES)
			dcfg_stream_write_trace(x->out, x->crc, x->trace_bytes);
	}
	if (opt->tabled && x->headed && rc == 0 && dcfg_table_close(&x->table) < 0)
		rc = dcfg_error_set(err, trace, "out of memory");
	else if (opt->tabled && x->headed && rc != 0)
		dcfg_table_free(&x->table);
	dcfg_selection_free(&x->sel);
	dcfg_recorded_selection_free(&x->recorded);
	dcfg_window_free(&x->window);
	free(x);
	return rc;
}
