#include "count_stream.h"

#include <stdlib.h>
#include <string.h>

#include "count/count_bbv.h"
#include "count/count_table.h"
#include "count/counter.h"
#include "stream/provenance.h"
#include "stream/writer.h"
#include "common/vec.h"

struct counter {
	const struct dcfg *d;
	struct dcfg_output *out;
	const struct dcfg_count_options *o;
	const struct dcfg_process *p;
	const char *name;
	struct dcfg_counter *counter;   /* the tables' (<dcfg/count.h>), without --bbv */
	int has_thread;            /* the process section has named a thread: */
	uint64_t tid;              /* the current one */
	struct dcfg_bbv bbv;       /* with --bbv */
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
	 * With --bbv, per edge of the DCFG, the NUM_INSTRS of its source and
	 * the block (in d->blocks) it enters, or none: worked out once, since
	 * every line needs them and the block lookup is most of a line's cost.
	 */
	uint64_t *source_instrs;
	uint32_t *target_block;
};

static int
source_instrs_init(struct counter *c)
{
	const struct dcfg *d = c->d;
	size_t i, n = d->n_edges ? d->n_edges : 1;
	uint32_t k;

	if ((c->source_instrs = malloc(n * sizeof *c->source_instrs)) == NULL ||
	    (c->target_block = malloc(n * sizeof *c->target_block)) == NULL)
		return -1;
	for (i = 0; i < d->n_processes; i++) {
		const struct dcfg_process *p = &d->processes[i];
		for (k = 0; k < p->edges.count; k++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + k];
			uint32_t b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target);
			c->source_instrs[p->edges.first + k] = dcfg_count_source_instrs(d, p, e);
			c->target_block[p->edges.first + k] = b == DCFG_NONE ||
			    d->blocks[p->blocks.first + b].num_instrs == 0 ?
			    DCFG_BBV_NO_BLOCK : p->blocks.first + b;
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
	if (c->counter)
		dcfg_counter_write(c->counter, &w);
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
		if (c->o->bbv) {
			head(c);
			dcfg_bbv_end(&c->bbv);
			return 0;
		}
		return dcfg_counter_keep(c->counter, c->o->top, err) == DCFG_COUNT_OK ? 0 : -1;
	}
	c->p = p;
	c->has_thread = 0;
	if (c->o->bbv) {
		head(c);
		dcfg_stream_write_process(c->out, p->pid);
	} else {
		dcfg_counter_restart(c->counter, p, err);   /* P is the DCFG's */
	}
	return 0;
}

static void
on_thread(void *ctx, uint64_t tid)
{
	struct counter *c = ctx;
	struct dcfg_error ignored;

	/*
	 * A thread in two trace rows in a row (the first maybe without chunks)
	 * is one thread: its vectors go on in the section it has open, since
	 * --merge takes a thread's vectors from one section of a table.
	 */
	if (c->o->bbv && !(c->bbv.open && c->has_thread && c->tid == tid)) {
		dcfg_bbv_end(&c->bbv);
		dcfg_stream_write_thread(c->out, tid);
		dcfg_bbv_start(&c->bbv);
	}
	/* reported at the next line that can fail: a thread marker cannot */
	if (!c->unselected && c->has_sel && !dcfg_recorded_selection_has_thread(&c->sel, tid)) {
		c->unselected = 1;
		c->unselected_tid = tid;
	}
	c->has_thread = 1;
	c->tid = tid;
	/* out of memory, the thread's edges count in the other tables only */
	if (c->counter)
		dcfg_counter_thread(c->counter, tid, &ignored);
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
	uint64_t w = r->weight;

	if (c->traced)
		return after_trace(c, r->lineno, err);
	if (!c->has_thread)   /* edges before any "# thread": thread 0 */
		on_thread(c, 0);
	if (c->unselected)
		return unselected(c, r->lineno, "thread", c->unselected_tid, err);
	if (c->o->bbv) {   /* the vectors need no table */
		b = c->target_block[i];
		if (dcfg_bbv_line(&c->bbv, c->source_instrs[i], b, b == DCFG_BBV_NO_BLOCK ? 0 :
		    c->d->blocks[b].num_instrs, w) < 0)
			return count_error(c, err, c->bbv.overflow);
		return 0;
	}
	dcfg_counter_add_index(c->counter, i, w);
	return 0;
}

/* --bbv: a chunk marker places the thread section's vectors (dcfg-count(1)). */
static int
on_chunk(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct counter *c = ctx;

	if (c->p == NULL)   /* before any "# process": no thread to place */
		return 0;
	if (c->o->bbv && !c->has_thread)   /* before any "# thread": thread 0's */
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

	if (o->bbv ? source_instrs_init(&c) < 0 || dcfg_bbv_init(&c.bbv, s->dcfg, out, o->bbv) < 0 :
	    (c.counter = dcfg_counter_open(s->dcfg, o->by, path)) == NULL) {
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
	dcfg_counter_free(c.counter);
	dcfg_bbv_free(&c.bbv);
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
	int rc = 0;

	if ((c.counter = dcfg_counter_open(d, o->by, name)) == NULL)
		return dcfg_error_set(err, name, "out of memory");
	for (i = 0; i < d->n_processes && rc == 0; i++)
		if (dcfg_counter_restart(c.counter, &d->processes[i], err) != DCFG_COUNT_OK ||
		    dcfg_counter_add_dcfg(c.counter, err) != DCFG_COUNT_OK ||
		    dcfg_counter_keep(c.counter, o->top, err) != DCFG_COUNT_OK)
			rc = -1;
	if (rc == 0 && write_tables(&c, 1) < 0)
		rc = dcfg_error_set(err, name, "out of memory");
	dcfg_counter_free(c.counter);
	return rc < 0 ? -1 : dcfg_output_failed(out) ? 1 : 0;
}
