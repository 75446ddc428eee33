#include "count.h"

#include <stdlib.h>
#include <string.h>

#include "count_table.h"
#include "vec.h"

static const char *const by_names[] = { "edge", "block", "routine", "loop", "image",
	"type", "thread", "line", "file" };

int
dcfg_count_by_parse(const char *name, enum dcfg_count_by *by)
{
	size_t i;

	for (i = 0; i < sizeof by_names / sizeof by_names[0]; i++)
		if (strcmp(name, by_names[i]) == 0) {
			*by = (enum dcfg_count_by)i;
			return 0;
		}
	return -1;
}

struct counter {
	const struct dcfg *d;
	struct dcfg_output *out;
	const struct dcfg_count_options *o;
	const struct dcfg_process *p;
	const char *name;
	struct dcfg_count_table table;   /* its exec: per edge, this process section */
	struct dcfg_count_thread *threads; size_t n_threads, cap_threads;
	size_t thread;             /* the current one, or n_threads when none */
	/* basic-block vectors */
	struct dcfg_tally bbv;     /* per block: instructions in this interval */
	uint64_t bbv_instrs;
	int overflow;              /* a count went past 2^64 - 1 */
};

/* ---- basic-block vectors (SimPoint's frequency vectors) ---- */

struct bbv_entry {
	uint32_t node;
	uint64_t count;
};

static int
by_node(const void *a, const void *b)
{
	const struct bbv_entry *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

static int
bbv_flush(struct counter *c)
{
	struct bbv_entry *v;
	size_t i, n = c->bbv.n_touched;

	if (n == 0)
		return 0;
	if ((v = malloc(n * sizeof *v)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t b = c->bbv.touched[i];
		v[i] = (struct bbv_entry){ c->d->blocks[b].node_id, c->bbv.value[b] };
	}
	dcfg_tally_clear(&c->bbv);
	qsort(v, n, sizeof *v, by_node);
	for (i = 0; i < n; i++) {
		dcfg_out_str(c->out, i ? " :" : "T:");
		dcfg_out_u64(c->out, v[i].node);
		dcfg_out_char(c->out, ':');
		dcfg_out_u64(c->out, v[i].count);
	}
	dcfg_out_char(c->out, '\n');
	free(v);
	c->bbv_instrs = 0;
	return 0;
}

/* ---- the stream ---- */

static int
on_process(void *ctx, const struct dcfg_process *p, struct dcfg_error *err)
{
	struct counter *c = ctx;

	if (p == NULL) {   /* the end of c->p */
		int rc = c->o->bbv ? bbv_flush(c) : dcfg_count_table_print(&c->table, c->p,
		    c->threads, c->n_threads, c->out, &c->overflow);
		dcfg_tally_clear(&c->table.exec);
		if (rc < 0 && c->overflow)
			return dcfg_error_set(err, c->name, "process %llu: a count does not fit in 64 bits",
			    (unsigned long long)c->p->pid);
		return rc < 0 ? dcfg_error_set(err, c->name, "out of memory") : 0;
	}
	c->p = p;
	c->n_threads = 0;
	c->thread = 0;
	if (c->o->bbv) {
		dcfg_out_str(c->out, "# process ");
		dcfg_out_u64(c->out, p->pid);
		dcfg_out_char(c->out, '\n');
	}
	c->bbv_instrs = 0;
	return 0;
}

static void
on_thread(void *ctx, uint64_t tid)
{
	struct counter *c = ctx;
	size_t i;

	if (c->o->bbv) {
		bbv_flush(c);
		dcfg_out_str(c->out, "# thread ");
		dcfg_out_u64(c->out, tid);
		dcfg_out_char(c->out, '\n');
	}
	for (i = 0; i < c->n_threads && c->threads[i].tid != tid; i++)
		;
	if (i == c->n_threads &&
	    dcfg_reserve((void **)&c->threads, &c->cap_threads, i + 1, sizeof *c->threads) == 0)
		c->threads[c->n_threads++] = (struct dcfg_count_thread){ tid, 0, 0 };
	c->thread = i;
}

static int
on_line(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
    struct dcfg_error *err)
{
	struct counter *c = ctx;
	const struct dcfg_process *p = c->p;
	uint32_t b;

	(void)r;
	(void)err;
	(*dcfg_tally_at(&c->table.exec, (uint32_t)(e - c->d->edges)))++;
	if (c->thread == c->n_threads)   /* edges before any "# thread": thread 0 */
		on_thread(c, 0);
	if (c->thread < c->n_threads) {
		c->threads[c->thread].edges++;
		c->threads[c->thread].instrs += dcfg_count_source_instrs(c->d, p, e);
	}
	if (c->o->bbv && (b = dcfg_idmap_get(&p->block_by_node, e->target)) != DCFG_NONE) {
		uint64_t ni = c->d->blocks[p->blocks.first + b].num_instrs;
		if (ni == 0)   /* a block of no instructions adds nothing to the vector */
			return 0;
		*dcfg_tally_at(&c->bbv, p->blocks.first + b) += ni;
		c->bbv_instrs += ni;
		if (c->bbv_instrs >= c->o->bbv && bbv_flush(c) < 0)
			return dcfg_error_set(err, c->name, "out of memory");
	}
	return 0;
}

int
dcfg_count_stream(struct dcfg_stage *s, struct dcfg_output *out, const char *path,
    const struct dcfg_count_options *o, struct dcfg_error *err)
{
	struct counter c = { .d = s->dcfg, .out = out, .o = o };
	int rc;

	if (dcfg_count_table_init(&c.table, s->dcfg, o) < 0 ||
	    (o->bbv && dcfg_tally_init(&c.bbv, s->dcfg->n_blocks, 1) < 0)) {
		dcfg_count_table_free(&c.table);
		return dcfg_error_set(err, path, "out of memory");
	}
	s->out = NULL;            /* nothing passes through */
	s->line = on_line;
	s->thread = on_thread;
	s->process = on_process;
	s->ctx = &c;
	c.name = path;
	rc = dcfg_stage_run(s, path, err);
	dcfg_count_table_free(&c.table);
	dcfg_tally_free(&c.bbv);
	free(c.threads);
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
		if (c.o->by != DCFG_BY_THREAD)
			c.overflow = 0;
		if (dcfg_count_table_print(&c.table, p, c.threads, c.n_threads, out, &c.overflow) < 0)
			rc = c.overflow ? dcfg_error_set(err, name, "process %llu: a count does not "
			    "fit in 64 bits", (unsigned long long)p->pid) :
			    dcfg_error_set(err, name, "out of memory");
	}
	dcfg_count_table_free(&c.table);
	free(c.threads);
	return rc < 0 ? -1 : dcfg_output_failed(out) ? 1 : 0;
}
