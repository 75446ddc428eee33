#include "count.h"

#include <stdlib.h>
#include <string.h>

#include "count_bbv.h"
#include "count_table.h"
#include "stream/provenance.h"
#include "stream/writer.h"
#include "common/vec.h"

struct counter {
	const struct dcfg *d;
	struct dcfg_output *out;
	const struct dcfg_count_options *o;
	const struct dcfg_process *p;
	const char *name;
	struct dcfg_count_table table;   /* its exec: per edge, this process section */
	struct dcfg_count_thread *threads; size_t n_threads, cap_threads;
	size_t thread;             /* the current one, or n_threads when none */
	struct dcfg_bbv bbv;       /* with --bbv */
	int overflow;              /* a count of the table went past 2^64 - 1 */
	/*
	 * From the stream, by weight: the executions of an edge, or a thread's
	 * edges or instructions, went past 2^64 - 1. Each spoils only the
	 * tables made from it.
	 */
	int exec_overflow, thread_overflow;
	int headed;                /* the "# dcfg-count" line is written */
	/* What the stream says it covers (provenance.h), copied into the table. */
	struct dcfg_recorded_selection sel;
	char *sel_text;            /* its line's words, as the table's selection note */
	int has_sel, traced;
	int unselected;            /* a thread not in the selection was seen: unselected_tid */
	uint64_t unselected_tid;
	uint32_t trace_crc;
	uint64_t trace_bytes;
	/*
	 * Per edge of the DCFG, the NUM_INSTRS of its source: worked out once,
	 * since every line needs it (twice with --bbv) and the block lookup is
	 * most of a line's cost.
	 */
	uint64_t *source_instrs;
	uint32_t *target_block;    /* with --bbv: the block (in d->blocks) it enters, or none */
};

static int
source_instrs_init(struct counter *c)
{
	const struct dcfg *d = c->d;
	size_t i, n = d->n_edges ? d->n_edges : 1;
	uint32_t k;

	if ((c->source_instrs = malloc(n * sizeof *c->source_instrs)) == NULL ||
	    (c->o->bbv && (c->target_block = malloc(n * sizeof *c->target_block)) == NULL))
		return -1;
	for (i = 0; i < d->n_processes; i++) {
		const struct dcfg_process *p = &d->processes[i];
		for (k = 0; k < p->edges.count; k++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + k];
			c->source_instrs[p->edges.first + k] = dcfg_count_source_instrs(d, p, e);
			if (c->target_block) {
				uint32_t b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target);
				c->target_block[p->edges.first + k] = b == DCFG_NONE ||
				    d->blocks[p->blocks.first + b].num_instrs == 0 ?
				    DCFG_BBV_NO_BLOCK : p->blocks.first + b;
			}
		}
	}
	return 0;
}

/* The vectors' head: written before the first, so that a stream refused at once leaves no output. */
static void
head(struct counter *c)
{
	if (!c->headed) {
		dcfg_count_out_header(c->out, c->d->crc32, c->d->bytes, c->o, 0);
		if (c->has_sel)
			dcfg_stream_write_selection(c->out, &c->sel);
	}
	c->headed = 1;
}

/* The tables kept, once the whole input is read (count_table.c says why). 0, or -1 out of memory. */
static int
write_tables(struct counter *c, int from_dcfg)
{
	struct dcfg_table w;
	char id[32];

	dcfg_table_open(&w, c->out, c->o->format, "dcfg-count", 1);
	dcfg_count_table_meta(&w, c->d->crc32, c->d->bytes, c->o->by, c->o->top, from_dcfg);
	if (c->sel_text)
		dcfg_table_note(&w, "selection", c->sel_text, DCFG_TABLE_HEAD);
	if (c->traced) {
		dcfg_count_crc_bytes(id, sizeof id, c->trace_crc, c->trace_bytes);
		dcfg_table_note(&w, "trace", id, DCFG_TABLE_END);
	}
	dcfg_count_table_write(&c->table, &w);
	return dcfg_table_close(&w);
}

/* ---- the stream ---- */

static int
count_error(struct counter *c, struct dcfg_error *err, int overflow)
{
	if (overflow)
		return dcfg_error_set(err, c->name, "process %llu: a count does not fit in 64 bits",
		    (unsigned long long)c->p->pid);
	return dcfg_error_set(err, c->name, "out of memory");
}

/*
 * The data must be what the selection says: a table that claims a shard
 * while holding another shard's edges would merge them twice.
 */
static int
unselected(struct counter *c, unsigned long lineno, const char *what, uint64_t id,
    struct dcfg_error *err)
{
	static const char fmt[] = "%s %llu is not in the stream's \"# selection\": the stream "
	    "was edited or joined after dcfg-expand wrote it";

	return lineno ? dcfg_error_at(err, c->name, lineno, 1, fmt, what, (unsigned long long)id) :
	    dcfg_error_set(err, c->name, fmt, what, (unsigned long long)id);
}

/* Nothing may follow the stream's "# trace" line: two streams joined would count as one shard. */
static int
after_trace(struct counter *c, unsigned long lineno, struct dcfg_error *err)
{
	static const char why[] = "the stream goes on after its \"# trace\" line: streams joined "
	    "together are not one shard";

	return lineno ? dcfg_error_at(err, c->name, lineno, 1, why) : dcfg_error_set(err, c->name, why);
}

static int
on_meta(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct counter *c = ctx;
	const char *why;

	if (c->traced)
		return after_trace(c, r->lineno, err);
	if (dcfg_is_selection_line(r->line, r->len)) {
		if (c->has_sel || c->p != NULL)
			return dcfg_error_at(err, c->name, r->lineno, 1, c->has_sel ?
			    "a second \"# selection\" line: streams joined together are not one shard" :
			    "a \"# selection\" line after \"# process\": it belongs after the header");
		if (dcfg_recorded_selection_parse(r->line, r->len, &c->sel, &why) < 0)
			return dcfg_error_at(err, c->name, r->lineno, 1, "%s", why);
		c->has_sel = 1;
		/* the line is in the one form its readers take (provenance.h): its words are the note */
		if (r->len > 12 && (c->sel_text = strndup(r->line + 12, r->len - 12)) == NULL)
			return count_error(c, err, 0);
	} else if (dcfg_is_trace_line(r->line, r->len)) {
		if (dcfg_trace_id_parse(r->line, r->len, &c->trace_crc, &c->trace_bytes) < 0)
			return dcfg_error_at(err, c->name, r->lineno, 1,
			    "a \"# trace\" line that is not \"# trace CRC:BYTES\"");
		c->traced = 1;
	}
	return 0;
}

static int
on_process(void *ctx, const struct dcfg_process *p, struct dcfg_error *err)
{
	struct counter *c = ctx;

	if (p != NULL && c->traced)
		return after_trace(c, 0, err);
	if (p != NULL && c->has_sel && !dcfg_recorded_selection_has_process(&c->sel, p->pid))
		return unselected(c, 0, "process", p->pid, err);
	if (p == NULL && c->unselected)
		return unselected(c, 0, "thread", c->unselected_tid, err);
	if (p == NULL) {   /* the end of c->p */
		int rc;
		if (c->o->bbv) {
			head(c);
			dcfg_bbv_end(&c->bbv);
			rc = 0;
		} else {
			/* Thread totals overflow only the thread table, an edge's executions the others. */
			c->overflow = dcfg_count_kind(c->o->by)->uses_threads ? c->thread_overflow :
			    c->exec_overflow;
			rc = dcfg_count_table_keep(&c->table, c->p, c->threads, c->n_threads, &c->overflow);
		}
		dcfg_tally_clear(&c->table.exec);
		return rc < 0 ? count_error(c, err, c->overflow) : 0;
	}
	if (c->o->bbv)
		head(c);
	c->p = p;
	c->n_threads = 0;
	c->thread = 0;
	c->exec_overflow = c->thread_overflow = 0;
	if (c->o->bbv) {
		dcfg_stream_write_process(c->out, p->pid);
	}
	return 0;
}

static void
on_thread(void *ctx, uint64_t tid)
{
	struct counter *c = ctx;
	size_t i;

	/*
	 * A thread in two trace rows in a row (the first maybe without chunks)
	 * is one thread: its vectors go on in the section it has open, since
	 * --merge takes a thread's vectors from one section of a table.
	 */
	if (c->o->bbv && !(c->bbv.open && c->n_threads > 0 && c->threads[c->thread].tid == tid)) {
		dcfg_bbv_end(&c->bbv);
		dcfg_stream_write_thread(c->out, tid);
		dcfg_bbv_start(&c->bbv);
	}
	/* reported at the next line that can fail: a thread marker cannot */
	if (!c->unselected && c->has_sel && !dcfg_recorded_selection_has_thread(&c->sel, tid)) {
		c->unselected = 1;
		c->unselected_tid = tid;
	}
	for (i = 0; i < c->n_threads && c->threads[i].tid != tid; i++)
		;
	if (i == c->n_threads &&
	    dcfg_reserve((void **)&c->threads, &c->cap_threads, i + 1, sizeof *c->threads) == 0)
		c->threads[c->n_threads++] = (struct dcfg_count_thread){ tid, 0, 0 };
	c->thread = i;
}

/*
 * A data line stands for WEIGHT executions of its edge (dcfg-stream(5),
 * runs). Every table is a sum over single edges, so it counts WEIGHT times;
 * only the vectors depend on the order, and dcfg_bbv keeps runs for that.
 * The vectors place each block by the instructions before it: those of
 * every edge's source, whether it enters a block or not.
 */
static int
on_line(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
    struct dcfg_error *err)
{
	struct counter *c = ctx;
	uint32_t i = (uint32_t)(e - c->d->edges), b;
	uint64_t w = r->weight, src = c->source_instrs[i], *x;

	if (c->traced)
		return after_trace(c, r->lineno, err);
	if (c->thread == c->n_threads)   /* edges before any "# thread": thread 0 */
		on_thread(c, 0);
	if (c->unselected)
		return unselected(c, r->lineno, "thread", c->unselected_tid, err);
	if (c->o->bbv) {   /* the vectors need no table */
		b = c->target_block[i];
		if (dcfg_bbv_line(&c->bbv, src, b, b == DCFG_BBV_NO_BLOCK ? 0 :
		    c->d->blocks[b].num_instrs, w) < 0)
			return count_error(c, err, c->bbv.overflow);
		return 0;
	}
	x = dcfg_tally_at(&c->table.exec, i);
	*x = dcfg_count_add(&c->exec_overflow, *x, w);
	if (c->thread < c->n_threads) {
		struct dcfg_count_thread *t = &c->threads[c->thread];
		int *of = &c->thread_overflow;
		t->edges = dcfg_count_add(of, t->edges, w);
		t->instrs = dcfg_count_add(of, t->instrs, dcfg_count_mul(of, w, src));
	}
	return 0;
}

/* --bbv: a chunk marker places the thread section's vectors (dcfg-count(1)). */
static int
on_chunk(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct counter *c = ctx;

	if (c->p == NULL)   /* before any "# process": no thread to place */
		return 0;
	if (c->o->bbv && c->thread == c->n_threads)   /* before any "# thread": thread 0's */
		on_thread(c, 0);
	if (c->unselected)
		return unselected(c, r->lineno, "thread", c->unselected_tid, err);
	if (c->has_sel && !dcfg_recorded_selection_meets_chunk(&c->sel, r->preceding, r->instrs))
		return dcfg_error_at(err, c->name, r->lineno, 1, "a chunk of instructions %llu to %llu, "
		    "outside the window of the stream's \"# selection\": the stream was edited or "
		    "joined after dcfg-expand wrote it", (unsigned long long)r->preceding,
		    (unsigned long long)(r->preceding + r->instrs));
	if (!c->o->bbv)
		return 0;
	if (dcfg_bbv_chunk(&c->bbv, r->preceding) < 0)
		return dcfg_error_at(err, c->name, r->lineno, 1,
		    "chunk marker at instruction %llu goes back from %llu",
		    (unsigned long long)r->preceding, (unsigned long long)c->bbv.pos);
	return 0;
}

static int
on_run(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct counter *c = ctx;

	return c->o->bbv && dcfg_bbv_run(&c->bbv, r) < 0 ? count_error(c, err, c->bbv.overflow) : 0;
}

int
dcfg_count_stream(struct dcfg_stage *s, struct dcfg_output *out, const char *path,
    const struct dcfg_count_options *o, struct dcfg_error *err)
{
	struct counter c = { .d = s->dcfg, .out = out, .o = o };
	int rc;

	if (dcfg_count_table_init(&c.table, s->dcfg, o) < 0 || source_instrs_init(&c) < 0 ||
	    (o->bbv && dcfg_bbv_init(&c.bbv, s->dcfg, out, o->bbv) < 0)) {
		dcfg_count_table_free(&c.table);
		dcfg_bbv_free(&c.bbv);
		free(c.source_instrs);
		free(c.target_block);
		return dcfg_error_set(err, path, "out of memory");
	}
	s->out = NULL;            /* nothing passes through */
	s->line = on_line;
	s->run = on_run;
	s->runs = 1;
	s->chunk = on_chunk;
	s->thread = on_thread;
	s->process = on_process;
	s->meta = on_meta;
	s->ctx = &c;
	c.name = path;
	rc = dcfg_stage_run(s, path, err);
	/* a shard's stream cut short (its dcfg-expand failed) must not pass for the shard */
	if (rc == 0 && c.has_sel && c.sel.shards && !c.traced)
		rc = dcfg_error_set(err, s->name ? s->name : path, "the stream of shard %llu of %llu ends without its "
		    "\"# trace\" line: it was cut short", (unsigned long long)c.sel.shard,
		    (unsigned long long)c.sel.shards);
	if (rc == 0 && o->bbv) {
		head(&c);
		if (c.traced)
			dcfg_stream_write_trace(out, c.trace_crc, c.trace_bytes);
	} else if (rc == 0 && write_tables(&c, 0) < 0) {
		rc = dcfg_error_set(err, path, "out of memory");
	}
	dcfg_recorded_selection_free(&c.sel);
	free(c.sel_text);
	dcfg_count_table_free(&c.table);
	dcfg_bbv_free(&c.bbv);
	free(c.threads);
	free(c.source_instrs);
	free(c.target_block);
	if (rc == 0 && dcfg_output_failed(out))
		rc = 1;
	return rc;
}

int
dcfg_count_dcfg(const struct dcfg *d, struct dcfg_output *out,
    const struct dcfg_count_options *o, struct dcfg_error *err, const char *name)
{
	struct counter c = { .d = d, .out = out, .o = o, .name = name };
	size_t i;
	uint32_t k, t;
	int rc = 0;

	if (dcfg_count_table_init(&c.table, d, o) < 0)
		return dcfg_error_set(err, name, "out of memory");
	for (i = 0; i < d->n_processes && rc == 0; i++) {
		const struct dcfg_process *p = &d->processes[i];
		c.p = p;
		c.n_threads = 0;
		for (k = 0; k < p->edges.count; k++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + k];
			if (e->total)
				*dcfg_tally_at(&c.table.exec, p->edges.first + k) = e->total;
			for (t = 0; e->counts.first != DCFG_NONE && t < e->counts.count; t++) {
				while (c.n_threads <= t && dcfg_reserve((void **)&c.threads,
				    &c.cap_threads, c.n_threads + 1, sizeof *c.threads) == 0) {
					c.threads[c.n_threads] = (struct dcfg_count_thread){ c.n_threads, 0, 0 };
					c.n_threads++;
				}
				if (t < c.n_threads) {
					c.threads[t].edges = dcfg_count_add(&c.overflow, c.threads[t].edges,
					    d->counts[e->counts.first + t]);
					c.threads[t].instrs = dcfg_count_add(&c.overflow, c.threads[t].instrs,
					    dcfg_count_mul(&c.overflow, d->counts[e->counts.first + t],
					    dcfg_count_source_instrs(d, p, e)));
				}
			}
		}
		/* Thread totals overflow only the thread table. */
		if (!dcfg_count_kind(c.o->by)->uses_threads)
			c.overflow = 0;
		if (dcfg_count_table_keep(&c.table, p, c.threads, c.n_threads, &c.overflow) < 0)
			rc = c.overflow ? dcfg_error_set(err, name, "process %llu: a count does not "
			    "fit in 64 bits", (unsigned long long)p->pid) :
			    dcfg_error_set(err, name, "out of memory");
	}
	if (rc == 0 && write_tables(&c, 1) < 0)
		rc = dcfg_error_set(err, name, "out of memory");
	dcfg_count_table_free(&c.table);
	free(c.threads);
	return rc < 0 ? -1 : dcfg_output_failed(out) ? 1 : 0;
}
