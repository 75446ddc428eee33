#include "count.h"

#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "edges.h"
#include "vec.h"

static const char *const by_names[] = { "edge", "block", "routine", "loop", "image",
	"type", "thread" };

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

struct row {
	uint64_t key;              /* UINT64_MAX: the key is NAME (images, types) */
	const char *name;
	const struct dcfg_loop *loop;
	uint64_t exec, iter, instr;
};

struct tcount {
	uint64_t tid, edges, instrs;
};

struct counter {
	const struct dcfg *d;
	struct dcfg_output *out;
	const struct dcfg_count_options *o;
	const struct dcfg_process *p;
	const char *name;
	uint64_t *exec;            /* per edge of the process */
	struct tcount *threads;    size_t n_threads, cap_threads;
	size_t thread;             /* the current one, or n_threads when none */
	/* basic-block vectors */
	uint64_t *bbv;             /* per block: instructions in this interval */
	uint32_t *touched;         size_t n_touched;
	uint64_t bbv_instrs;
	struct row *rows;          size_t cap_rows;
	int overflow;              /* a count went past 2^64 - 1 */
};

/* Sums and products of counts, saturating and flagged: a wrapped count would be a lie. */
static uint64_t
add(struct counter *c, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r)) {
		c->overflow = 1;
		return UINT64_MAX;
	}
	return r;
}

static uint64_t
mul(struct counter *c, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r)) {
		c->overflow = 1;
		return UINT64_MAX;
	}
	return r;
}

static uint64_t
source_instrs(const struct dcfg *d, const struct dcfg_process *p, const struct dcfg_edge *e)
{
	const struct dcfg_block *b = dcfg_block_by_node(d, p, e->source);

	return b ? b->num_instrs : 0;
}

/* ---- tables ---- */

static int
by_instr(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->instr != y->instr)
		return x->instr > y->instr ? -1 : 1;
	if (x->key == UINT64_MAX && y->key == UINT64_MAX)
		return strcmp(x->name, y->name);
	return x->key < y->key ? -1 : x->key > y->key;
}

static void
out_share(struct dcfg_output *out, uint64_t part, uint64_t total)
{
	unsigned __int128 h = total ? ((unsigned __int128)part * 20000 + total) / ((unsigned __int128)total * 2) : 0;

	dcfg_out_u64(out, (uint64_t)(h / 100));
	dcfg_out_char(out, '.');
	dcfg_out_char(out, (char)('0' + (unsigned)(h % 100) / 10));
	dcfg_out_char(out, (char)('0' + (unsigned)(h % 10)));
}

static int
add_row(struct counter *c, size_t *n, struct row r)
{
	if (dcfg_reserve((void **)&c->rows, &c->cap_rows, *n + 1, sizeof *c->rows) < 0)
		return -1;
	c->rows[(*n)++] = r;
	return 0;
}

/* Is NODE in the loop's nodes? (loops are small: a linear look) */
static int
in_list(const struct dcfg *d, struct dcfg_range r, uint32_t node)
{
	uint32_t i;

	for (i = 0; i < r.count; i++)
		if (d->node_ids[r.first + i] == node)
			return 1;
	return 0;
}

static int
build_rows(struct counter *c, size_t *n)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint64_t *bexec = calloc(p->blocks.count + 1, sizeof *bexec);
	uint64_t *acc = NULL;
	uint32_t *in_first = NULL, *in_edges = NULL, *node_stamp = NULL, *back_stamp = NULL;
	uint32_t i, k, b;
	int rc = -1, saved, bexec_overflow;

	*n = 0;
	if (bexec == NULL)
		return -1;
	/* Block executions overflow only the tables that use them. */
	saved = c->overflow;
	for (i = 0; i < p->edges.count; i++)
		if ((b = dcfg_idmap_get(&p->block_by_node, d->edges[p->edges.first + i].target)) != DCFG_NONE)
			bexec[b] = add(c, bexec[b], c->exec[i]);
	bexec_overflow = c->overflow;
	c->overflow = saved;
	if (c->o->by == DCFG_BY_BLOCK || c->o->by == DCFG_BY_IMAGE || c->o->by == DCFG_BY_ROUTINE ||
	    c->o->by == DCFG_BY_LOOP)
		c->overflow |= bexec_overflow;

	switch (c->o->by) {
	case DCFG_BY_EDGE:
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			if (c->exec[i] && add_row(c, n, (struct row){ e->id, NULL, NULL, c->exec[i], 0,
			    mul(c, c->exec[i], source_instrs(d, p, e)) }) < 0)
				goto out;
		}
		break;
	case DCFG_BY_TYPE:
		if ((acc = calloc(2 * (d->n_edge_types + 1), sizeof *acc)) == NULL)
			goto out;
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			uint32_t t = dcfg_idmap_get(&d->edge_type_by_id, e->type_id);
			t = t == DCFG_NONE ? (uint32_t)d->n_edge_types : t;
			acc[2 * t] = add(c, acc[2 * t], c->exec[i]);
			acc[2 * t + 1] = add(c, acc[2 * t + 1], mul(c, c->exec[i], source_instrs(d, p, e)));
		}
		for (i = 0; i <= d->n_edge_types; i++)
			if (acc[2 * i] && add_row(c, n, (struct row){ UINT64_MAX,
			    i < d->n_edge_types ? dcfg_string(d, d->edge_types[i].name) : "UNDEFINED",
			    NULL, acc[2 * i], 0, acc[2 * i + 1] }) < 0)
				goto out;
		break;
	case DCFG_BY_BLOCK:
		for (i = 0; i < p->blocks.count; i++) {
			const struct dcfg_block *bl = &d->blocks[p->blocks.first + i];
			if (bexec[i] && add_row(c, n, (struct row){ bl->node_id, NULL, NULL, bexec[i], 0,
			    mul(c, bexec[i], bl->num_instrs) }) < 0)
				goto out;
		}
		break;
	case DCFG_BY_IMAGE:
		for (i = 0; i < p->images.count; i++) {
			const struct dcfg_image *im = &d->images[p->images.first + i];
			const char *name = dcfg_file_name(d, im->file_name_id);
			uint64_t ex = 0, in = 0;
			for (k = 0; k < im->blocks.count; k++) {
				uint32_t bi = im->blocks.first + k - p->blocks.first;
				ex = add(c, ex, bexec[bi]);
				in = add(c, in, mul(c, bexec[bi], d->blocks[im->blocks.first + k].num_instrs));
			}
			if (ex && add_row(c, n, (struct row){ UINT64_MAX, name ? name : "-", NULL, ex, 0,
			    in }) < 0)
				goto out;
		}
		break;
	case DCFG_BY_ROUTINE:
		if ((acc = calloc(2 * (p->routines.count + 1), sizeof *acc)) == NULL)
			goto out;
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			const struct dcfg_block *t = dcfg_block_by_node(d, p, e->target);
			const struct dcfg_block *s = dcfg_block_by_node(d, p, e->source);
			if (t && t->routine != DCFG_NONE &&
			    d->routines[t->routine].entry_node_id == e->target &&
			    (s == NULL || s->routine != t->routine))
				acc[2 * (t->routine - p->routines.first)] =
				    add(c, acc[2 * (t->routine - p->routines.first)], c->exec[i]);
		}
		for (i = 0; i < p->blocks.count; i++) {
			const struct dcfg_block *bl = &d->blocks[p->blocks.first + i];
			if (bl->routine != DCFG_NONE)
				acc[2 * (bl->routine - p->routines.first) + 1] = add(c,
				    acc[2 * (bl->routine - p->routines.first) + 1], mul(c, bexec[i], bl->num_instrs));
		}
		for (i = 0; i < p->routines.count; i++) {
			const struct dcfg_routine *r = &d->routines[p->routines.first + i];
			if ((acc[2 * i] || acc[2 * i + 1]) && add_row(c, n, (struct row){
			    r->entry_node_id, NULL, NULL, acc[2 * i], 0, acc[2 * i + 1] }) < 0)
				goto out;
		}
		break;
	case DCFG_BY_LOOP:
		/*
		 * Each loop looks only at the edges into its head and its own
		 * nodes (stamped per block), so nested loops cost their size.
		 */
		if ((in_first = calloc((size_t)p->blocks.count + 2, sizeof *in_first)) == NULL ||
		    (in_edges = malloc(((size_t)p->edges.count + 1) * sizeof *in_edges)) == NULL ||
		    (node_stamp = calloc((size_t)p->blocks.count + 1, sizeof *node_stamp)) == NULL ||
		    (back_stamp = calloc((size_t)p->blocks.count + 1, sizeof *back_stamp)) == NULL)
			goto out;
		for (k = 0; k < p->edges.count; k++)
			if (c->exec[k] && (b = dcfg_idmap_get(&p->block_by_node,
			    d->edges[p->edges.first + k].target)) != DCFG_NONE)
				in_first[b + 2]++;
		for (k = 0; k < p->blocks.count; k++)
			in_first[k + 2] += in_first[k + 1];
		for (k = 0; k < p->edges.count; k++)
			if (c->exec[k] && (b = dcfg_idmap_get(&p->block_by_node,
			    d->edges[p->edges.first + k].target)) != DCFG_NONE)
				in_edges[in_first[b + 1]++] = k;
		for (i = 0; i < p->loops.count; i++) {
			const struct dcfg_loop *lp = &d->loops[p->loops.first + i];
			uint64_t entries = 0, iters = 0, in = 0;
			uint32_t h = dcfg_idmap_get(&p->block_by_node, lp->head_node_id), j;
			for (k = 0; k < lp->nodes.count; k++)
				if ((b = dcfg_idmap_get(&p->block_by_node, d->node_ids[lp->nodes.first + k])) != DCFG_NONE) {
					node_stamp[b] = i + 1;
					in = add(c, in, mul(c, bexec[b], d->blocks[p->blocks.first + b].num_instrs));
				}
			for (k = 0; k < lp->back_edge_sources.count; k++)
				if ((b = dcfg_idmap_get(&p->block_by_node,
				    d->node_ids[lp->back_edge_sources.first + k])) != DCFG_NONE)
					back_stamp[b] = i + 1;
			for (j = h == DCFG_NONE ? 0 : in_first[h]; h != DCFG_NONE && j < in_first[h + 1]; j++) {
				const struct dcfg_edge *e = &d->edges[p->edges.first + in_edges[j]];
				uint32_t sb = dcfg_idmap_get(&p->block_by_node, e->source);
				int back = sb != DCFG_NONE ? back_stamp[sb] == i + 1 :
				    in_list(d, lp->back_edge_sources, e->source);
				int inside = sb != DCFG_NONE ? node_stamp[sb] == i + 1 :
				    in_list(d, lp->nodes, e->source);
				if (back)
					iters = add(c, iters, c->exec[in_edges[j]]);
				else if (!inside)
					entries = add(c, entries, c->exec[in_edges[j]]);
			}
			if ((entries || iters || in) && add_row(c, n, (struct row){ lp->head_node_id,
			    NULL, lp, entries, iters, in }) < 0)
				goto out;
		}
		break;
	case DCFG_BY_THREAD:
		for (i = 0; i < c->n_threads; i++)
			if (add_row(c, n, (struct row){ c->threads[i].tid, NULL, NULL,
			    c->threads[i].edges, 0, c->threads[i].instrs }) < 0)
				goto out;
		break;
	}
	rc = 0;
out:
	free(bexec);
	free(acc);
	free(in_first);
	free(in_edges);
	free(node_stamp);
	free(back_stamp);
	return rc;
}

static int
print_table(struct counter *c)
{
	static const char *const headers[] = {
		"# edge\texecutions\tinstructions\tshare\n",
		"# block\texecutions\tinstructions\tshare\n",
		"# routine\tname\texecutions\tinstructions\tshare\n",
		"# loop\troutine\tentries\titerations\tinstructions\tshare\n",
		"# image\texecutions\tinstructions\tshare\n",
		"# type\texecutions\tinstructions\tshare\n",
		"# thread\texecutions\tinstructions\tshare\n",
	};
	const struct dcfg *d = c->d;
	struct dcfg_output *out = c->out;
	uint64_t total = 0;
	size_t n, i;

	if (build_rows(c, &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		total = add(c, total, c->rows[i].instr);
	if (c->overflow)
		return -1;   /* nothing is printed of a table that would lie */
	if (n > 1)
		qsort(c->rows, n, sizeof *c->rows, by_instr);
	dcfg_out_str(out, "# process ");
	dcfg_out_u64(out, c->p->pid);
	dcfg_out_char(out, '\n');
	dcfg_out_str(out, headers[c->o->by]);
	if (c->o->top && n > c->o->top)
		n = (size_t)c->o->top;
	for (i = 0; i < n; i++) {
		const struct row *r = &c->rows[i];
		if (r->key == UINT64_MAX)
			dcfg_out_str(out, r->name);
		else
			dcfg_out_u64(out, r->key);
		dcfg_out_char(out, '\t');
		if (c->o->by == DCFG_BY_ROUTINE) {
			const struct dcfg_block *b = dcfg_block_by_node(d, c->p, (uint32_t)r->key);
			if (b)
				dcfg_out_symbol(out, d, c->p, b->addr);
			else
				dcfg_out_char(out, '-');
			dcfg_out_char(out, '\t');
		} else if (c->o->by == DCFG_BY_LOOP) {
			dcfg_out_u64(out, d->routines[r->loop->routine].entry_node_id);
			dcfg_out_char(out, '\t');
		}
		dcfg_out_u64(out, r->exec);
		dcfg_out_char(out, '\t');
		if (c->o->by == DCFG_BY_LOOP) {
			dcfg_out_u64(out, r->iter);
			dcfg_out_char(out, '\t');
		}
		dcfg_out_u64(out, r->instr);
		dcfg_out_char(out, '\t');
		out_share(out, r->instr, total);
		dcfg_out_char(out, '\n');
	}
	return 0;
}

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
	size_t i;

	if (c->n_touched == 0)
		return 0;
	if ((v = malloc(c->n_touched * sizeof *v)) == NULL)
		return -1;
	for (i = 0; i < c->n_touched; i++) {
		uint32_t b = c->touched[i];
		v[i] = (struct bbv_entry){ c->d->blocks[c->p->blocks.first + b].node_id, c->bbv[b] };
		c->bbv[b] = 0;
	}
	qsort(v, c->n_touched, sizeof *v, by_node);
	for (i = 0; i < c->n_touched; i++) {
		dcfg_out_str(c->out, i ? " :" : "T:");
		dcfg_out_u64(c->out, v[i].node);
		dcfg_out_char(c->out, ':');
		dcfg_out_u64(c->out, v[i].count);
	}
	dcfg_out_char(c->out, '\n');
	free(v);
	c->n_touched = 0;
	c->bbv_instrs = 0;
	return 0;
}

/* ---- the stream ---- */

static int
on_process(void *ctx, const struct dcfg_process *p, struct dcfg_error *err)
{
	struct counter *c = ctx;

	if (p == NULL) {   /* the end of c->p */
		int rc = c->o->bbv ? bbv_flush(c) : print_table(c);
		free(c->exec);
		free(c->bbv);
		free(c->touched);
		c->exec = c->bbv = NULL;
		c->touched = NULL;
		if (rc < 0 && c->overflow)
			return dcfg_error_set(err, c->name, "process %llu: a count does not fit in 64 bits",
			    (unsigned long long)c->p->pid);
		return rc < 0 ? dcfg_error_set(err, c->name, "out of memory") : 0;
	}
	c->p = p;
	c->n_threads = 0;
	c->thread = 0;
	c->n_touched = 0;
	if (c->o->bbv) {
		dcfg_out_str(c->out, "# process ");
		dcfg_out_u64(c->out, p->pid);
		dcfg_out_char(c->out, '\n');
	}
	c->bbv_instrs = 0;
	c->exec = calloc(p->edges.count + 1, sizeof *c->exec);
	c->bbv = calloc(p->blocks.count + 1, sizeof *c->bbv);
	c->touched = malloc((p->blocks.count + 1) * sizeof *c->touched);
	if (!c->exec || !c->bbv || !c->touched)
		return dcfg_error_set(err, c->name, "out of memory");
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
		c->threads[c->n_threads++] = (struct tcount){ tid, 0, 0 };
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
	c->exec[e - c->d->edges - p->edges.first]++;
	if (c->thread == c->n_threads)   /* edges before any "# thread": thread 0 */
		on_thread(c, 0);
	if (c->thread < c->n_threads) {
		c->threads[c->thread].edges++;
		c->threads[c->thread].instrs += source_instrs(c->d, p, e);
	}
	if (c->o->bbv && (b = dcfg_idmap_get(&p->block_by_node, e->target)) != DCFG_NONE) {
		uint64_t ni = c->d->blocks[p->blocks.first + b].num_instrs;
		if (ni == 0)   /* a block of no instructions adds nothing to the vector */
			return 0;
		if (c->bbv[b] == 0)
			c->touched[c->n_touched++] = b;
		c->bbv[b] += ni;
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

	s->out = NULL;            /* nothing passes through */
	s->line = on_line;
	s->thread = on_thread;
	s->process = on_process;
	s->ctx = &c;
	c.name = path;
	rc = dcfg_stage_run(s, path, err);
	free(c.exec);
	free(c.bbv);
	free(c.touched);
	free(c.threads);
	free(c.rows);
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

	for (i = 0; i < d->n_processes && rc == 0; i++) {
		const struct dcfg_process *p = &d->processes[i];
		c.p = p;
		c.n_threads = 0;
		if ((c.exec = calloc(p->edges.count + 1, sizeof *c.exec)) == NULL) {
			rc = dcfg_error_set(err, name, "out of memory");
			break;
		}
		for (k = 0; k < p->edges.count; k++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + k];
			c.exec[k] = e->total;
			for (t = 0; e->counts.first != DCFG_NONE && t < e->counts.count; t++) {
				while (c.n_threads <= t && dcfg_reserve((void **)&c.threads,
				    &c.cap_threads, c.n_threads + 1, sizeof *c.threads) == 0) {
					c.threads[c.n_threads] = (struct tcount){ c.n_threads, 0, 0 };
					c.n_threads++;
				}
				if (t < c.n_threads) {
					c.threads[t].edges = add(&c, c.threads[t].edges,
					    d->counts[e->counts.first + t]);
					c.threads[t].instrs = add(&c, c.threads[t].instrs,
					    mul(&c, d->counts[e->counts.first + t], source_instrs(d, p, e)));
				}
			}
		}
		/* Thread totals overflow only the thread table. */
		if (c.o->by != DCFG_BY_THREAD)
			c.overflow = 0;
		if (print_table(&c) < 0)
			rc = c.overflow ? dcfg_error_set(err, name, "process %llu: a count does not "
			    "fit in 64 bits", (unsigned long long)p->pid) :
			    dcfg_error_set(err, name, "out of memory");
		free(c.exec);
		c.exec = NULL;
	}
	free(c.threads);
	free(c.rows);
	return rc < 0 ? -1 : dcfg_output_failed(out) ? 1 : 0;
}
