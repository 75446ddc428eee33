/*
 * <dcfg/count.h>: dcfg-count's counting for any caller. The rows are made
 * by the code that makes dcfg-count's tables (count_table.c) and their
 * cells written by its table writer, in TSV, so a caller reads the very
 * text dcfg-count writes.
 */
#include "counter.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

const char *
dcfg_count_by_name(enum dcfg_count_by by)
{
	return (unsigned)by < DCFG_BY_KINDS ? dcfg_count_kind(by)->name : NULL;
}

const char *
dcfg_count_by_column(enum dcfg_count_by by, size_t i)
{
	if ((unsigned)by >= DCFG_BY_KINDS || i >= dcfg_count_kind(by)->n_cols)
		return NULL;
	return dcfg_count_kind(by)->cols[i].name;
}

unsigned
dcfg_count_by_keep(enum dcfg_count_by by)
{
	return (unsigned)by < DCFG_BY_KINDS ? dcfg_count_kind(by)->keep : 0;
}

/* ---- the counter ---- */

struct dcfg_counter *
dcfg_counter_open(const struct dcfg *d, enum dcfg_count_by by, const char *name)
{
	struct dcfg_counter *c = calloc(1, sizeof *c);

	if (c == NULL)
		return NULL;
	c->d = d;
	c->name = name;
	c->opt.by = by;
	if (dcfg_count_table_init(&c->table, d, &c->opt) < 0 ||
	    (c->source_instrs = malloc((d->n_edges ? d->n_edges : 1) * sizeof *c->source_instrs)) == NULL) {
		dcfg_counter_free(c);
		return NULL;
	}
	return c;
}

void
dcfg_counter_free(struct dcfg_counter *c)
{
	if (c == NULL)
		return;
	dcfg_count_table_free(&c->table);
	free(c->source_instrs);
	free(c->threads);
	free(c->rows);
	free(c->text);
	free(c->text_at);
	free(c);
}

static int
is_process_of(const struct dcfg *d, const struct dcfg_process *p)
{
	return p != NULL && p >= d->processes && p < d->processes + d->n_processes;
}

struct dcfg_counter *
dcfg_counter_new(const struct dcfg *d, const struct dcfg_process *p, enum dcfg_count_by by,
    const char *name, struct dcfg_error *err)
{
	struct dcfg_counter *c;

	if ((unsigned)by >= DCFG_BY_KINDS) {
		dcfg_error_set(err, name, "%d is not a kind of table", (int)by);
		return NULL;
	}
	if (!is_process_of(d, p)) {
		dcfg_error_set(err, name, "the process is not one of the DCFG's");
		return NULL;
	}
	if ((d->keep & dcfg_count_kind(by)->keep) != dcfg_count_kind(by)->keep) {
		dcfg_error_set(err, name, "tables by %s need the DCFG loaded with more of its tables "
		    "(dcfg_count_by_keep)", dcfg_count_kind(by)->name);
		return NULL;
	}
	if ((c = dcfg_counter_open(d, by, name)) == NULL) {
		dcfg_error_set(err, name, "out of memory");
		return NULL;
	}
	dcfg_counter_restart(c, p, err);
	return c;
}

int
dcfg_counter_restart(struct dcfg_counter *c, const struct dcfg_process *p, struct dcfg_error *err)
{
	uint32_t k;

	if (p != NULL && !is_process_of(c->d, p))
		return dcfg_error_set(err, c->name, "the process is not one of the DCFG's"),
		    DCFG_COUNT_INVALID;
	dcfg_tally_clear(&c->table.exec);
	c->n_threads = c->thread = 0;
	c->exec_overflow = c->thread_overflow = c->from_dcfg = 0;
	c->n_rows = c->next_row = 0;
	if (p == NULL || p == c->p)
		return DCFG_COUNT_OK;
	c->p = p;
	for (k = 0; k < p->edges.count; k++)
		c->source_instrs[p->edges.first + k] = dcfg_count_source_instrs(c->d, p,
		    &c->d->edges[p->edges.first + k]);
	return DCFG_COUNT_OK;
}

/* The index of thread TID among C's, added if new: n_threads when out of memory. */
static size_t
thread_index(struct dcfg_counter *c, uint64_t tid)
{
	size_t i;

	for (i = 0; i < c->n_threads && c->threads[i].tid != tid; i++)
		;
	if (i == c->n_threads &&
	    dcfg_reserve((void **)&c->threads, &c->cap_threads, i + 1, sizeof *c->threads) == 0)
		c->threads[c->n_threads++] = (struct dcfg_count_thread){ tid, 0, 0 };
	return i;
}

int
dcfg_counter_thread(struct dcfg_counter *c, uint64_t tid, struct dcfg_error *err)
{
	c->thread = thread_index(c, tid);
	if (c->thread == c->n_threads)
		return dcfg_error_set(err, c->name, "out of memory"), DCFG_COUNT_NO_MEMORY;
	return DCFG_COUNT_OK;
}

/* IDS[i] executed WEIGHTS[i] more times, or WEIGHT when WEIGHTS is NULL. */
static int
add_edges(struct dcfg_counter *c, const uint32_t *ids, const uint64_t *weights, uint64_t weight,
    size_t n, struct dcfg_error *err)
{
	size_t i;

	if (n > 0 && c->thread == c->n_threads && dcfg_counter_thread(c, 0, err) < 0)
		return DCFG_COUNT_NO_MEMORY;
	for (i = 0; i < n; i++) {
		const struct dcfg_edge *e = dcfg_edge_by_id(c->d, c->p, ids[i]);
		uint64_t w = weights ? weights[i] : weight;
		if (e == NULL)
			return dcfg_error_set(err, c->name, "edge %lu (at %zu of %zu): process %llu has "
			    "no edge of that id", (unsigned long)ids[i], i, n,
			    (unsigned long long)c->p->pid), DCFG_COUNT_NO_EDGE;
		if (w)
			dcfg_counter_add_index(c, (uint32_t)(e - c->d->edges), w);
	}
	return DCFG_COUNT_OK;
}

int
dcfg_counter_add(struct dcfg_counter *c, const uint32_t *ids, size_t n, uint64_t weight,
    struct dcfg_error *err)
{
	return add_edges(c, ids, NULL, weight, n, err);
}

int
dcfg_counter_add_weighted(struct dcfg_counter *c, const uint32_t *ids, const uint64_t *weights,
    size_t n, struct dcfg_error *err)
{
	return add_edges(c, ids, weights, 0, n, err);
}

/* Thread I of COUNT_PER_THREAD is thread id I, and has a row if any edge lists a count for it. */
int
dcfg_counter_add_dcfg(struct dcfg_counter *c, struct dcfg_error *err)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint32_t k, t;

	c->from_dcfg = 1;
	for (k = 0; k < p->edges.count; k++) {
		uint32_t i = p->edges.first + k;
		const struct dcfg_edge *e = &d->edges[i];
		uint64_t *x;
		if (e->total) {
			x = dcfg_tally_at(&c->table.exec, i);
			*x = dcfg_count_add(&c->exec_overflow, *x, e->total);
		}
		for (t = 0; e->counts.first != DCFG_NONE && t < e->counts.count; t++) {
			struct dcfg_count_thread *th;
			uint64_t n = d->counts[e->counts.first + t];
			/* tids 0, 1, ... were added in order, unless the caller named others first */
			size_t at = t < c->n_threads && c->threads[t].tid == t ? t : thread_index(c, t);
			int *of = &c->thread_overflow;
			if (at == c->n_threads)
				return dcfg_error_set(err, c->name, "out of memory"), DCFG_COUNT_NO_MEMORY;
			th = &c->threads[at];
			th->edges = dcfg_count_add(of, th->edges, n);
			th->instrs = dcfg_count_add(of, th->instrs, dcfg_count_mul(of, n, c->source_instrs[i]));
		}
	}
	return DCFG_COUNT_OK;
}

int
dcfg_counter_merge(struct dcfg_counter *into, const struct dcfg_counter *from,
    struct dcfg_error *err)
{
	const struct dcfg_tally *x = &from->table.exec;
	size_t k, at;

	if (into->d != from->d || into->p != from->p || into->opt.by != from->opt.by ||
	    into->from_dcfg || from->from_dcfg)
		return dcfg_error_set(err, into->name, "%s", into->from_dcfg || from->from_dcfg ?
		    "tables made from the DCFG's own counts do not merge" :
		    "the counters count other DCFGs, processes or kinds"), DCFG_COUNT_MISMATCH;
	for (k = 0; k < x->n_touched; k++) {
		uint64_t *v = dcfg_tally_at(&into->table.exec, x->touched[k]);
		*v = dcfg_count_add(&into->exec_overflow, *v, x->value[x->touched[k]]);
	}
	for (k = 0; k < from->n_threads; k++) {
		const struct dcfg_count_thread *t = &from->threads[k];
		int *of = &into->thread_overflow;
		if ((at = thread_index(into, t->tid)) == into->n_threads)
			return dcfg_error_set(err, into->name, "out of memory"), DCFG_COUNT_NO_MEMORY;
		into->threads[at].edges = dcfg_count_add(of, into->threads[at].edges, t->edges);
		into->threads[at].instrs = dcfg_count_add(of, into->threads[at].instrs, t->instrs);
	}
	into->exec_overflow |= from->exec_overflow;
	into->thread_overflow |= from->thread_overflow;
	into->n_rows = into->next_row = 0;
	return DCFG_COUNT_OK;
}

/* ---- the rows ---- */

int
dcfg_counter_keep(struct dcfg_counter *c, uint64_t top, struct dcfg_error *err)
{
	/* Thread totals overflow only the thread table, an edge's executions the others. */
	int of = dcfg_count_kind(c->opt.by)->uses_threads ? c->thread_overflow : c->exec_overflow;

	c->opt.top = top;
	if (dcfg_count_table_keep(&c->table, c->p, c->threads, c->n_threads, &of) == 0)
		return DCFG_COUNT_OK;
	if (of)
		return dcfg_error_set(err, c->name, "process %llu: a count does not fit in 64 bits",
		    (unsigned long long)c->p->pid), DCFG_COUNT_OVERFLOW;
	return dcfg_error_set(err, c->name, "out of memory"), DCFG_COUNT_NO_MEMORY;
}

void
dcfg_counter_write(struct dcfg_counter *c, struct dcfg_table *w)
{
	dcfg_count_table_write(&c->table, w);
}

static int
hex_digit(char x)
{
	return x >= '0' && x <= '9' ? x - '0' : x >= 'a' && x <= 'f' ? x - 'a' + 10 : x - 'A' + 10;
}

/* NAME as the DCFG spells it, from its escaped form (dcfg_escape), into C's text. */
static void
unescape_into(struct dcfg_counter *c, const char *s)
{
	while (*s) {
		char x = *s++;
		if (x == '\\' && *s) {
			x = *s++;
			if (x == 't')
				x = '\t';
			else if (x == 'n')
				x = '\n';
			else if (x == 'r')
				x = '\r';
			else if (x == 'x' && s[0] && s[1]) {
				x = (char)(hex_digit(s[0]) * 16 + hex_digit(s[1]));
				s += 2;
			}
		}
		c->text[c->n_text++] = x;
	}
	c->text[c->n_text++] = '\0';
}

/*
 * Row J of kept table K as dcfg-count writes it in TSV, into C's text: its
 * cells NUL-terminated, one after the other, then its name unescaped. 0,
 * or -1 (out of memory, or a row longer than OUT's buffer, which then
 * failed).
 */
static int
render_row(struct dcfg_counter *c, struct dcfg_table *w, const struct dcfg_count_kept *k,
    size_t j, size_t at)
{
	struct dcfg_output *out = w->out;
	size_t i;

	out->len = 0;
	dcfg_count_table_write_row(&c->table, w, k, j);
	if (dcfg_output_failed(out) || out->flushed || out->len == 0)
		return -1;
	/* the name is at most as long as its escaped form in the row */
	if (dcfg_reserve((void **)&c->text, &c->cap_text, c->n_text + 2 * out->len + 1, 1) < 0 ||
	    dcfg_reserve((void **)&c->text_at, &c->cap_text_at, 2 * at + 2, sizeof *c->text_at) < 0)
		return -1;
	c->text_at[2 * at] = c->n_text;
	for (i = 0; i < out->len; i++)   /* the row's tabs and its newline end its cells */
		c->text[c->n_text++] = out->buf[i] == '\t' || out->buf[i] == '\n' ? '\0' : out->buf[i];
	c->text_at[2 * at + 1] = SIZE_MAX;
	if (c->table.kept_name_at[j] != SIZE_MAX) {
		c->text_at[2 * at + 1] = c->n_text;
		unescape_into(c, c->table.kept_names + c->table.kept_name_at[j]);
	}
	return 0;
}

/* The public row of kept row R, whose cells are at TEXT and its name at NAME (or NULL). */
static void
public_row(struct dcfg_counter *c, const struct dcfg_count_row *r, const char *text,
    const char *name, struct dcfg_counted_row *o)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(c->opt.by);
	size_t cells = kind->n_cols, i;

	memset(o, 0, sizeof *o);
	o->key = text;
	o->id = r->key;
	o->name = name;
	o->n_between = cells - 4 - (size_t)kind->iterations;
	for (i = 1; i < cells; i++) {
		text += strlen(text) + 1;
		if (i <= o->n_between)
			o->between[i - 1] = text;
	}
	o->share = text;
	o->executions = r->exec;
	o->iterations = r->iter;
	o->instructions = r->instr;
}

/* The rows of kept table K into C's, their cells rendered. -1: out of memory or a row too long. */
static int
render(struct dcfg_counter *c, const struct dcfg_count_kept *k)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(c->opt.by);
	struct dcfg_output *out = malloc(sizeof *out);
	struct dcfg_table w;
	size_t j;
	int rc = 0;

	if (out == NULL)
		return -1;
	memset(out, 0, offsetof(struct dcfg_output, buf));
	out->fd = -1;
	out->name = "";
	out->tmp_slot = -1;
	dcfg_table_open(&w, out, DCFG_TABLE_TSV, "dcfg-count", 1);
	dcfg_count_section(&w, kind, k->p->pid, k->total);
	c->n_text = 0;
	for (j = 0; j < k->n && rc == 0; j++)
		rc = render_row(c, &w, k, k->first + j, j);
	dcfg_table_free(&w);
	free(out);
	if (rc < 0 || dcfg_reserve((void **)&c->rows, &c->cap_rows, k->n + 1, sizeof *c->rows) < 0)
		return -1;
	for (j = 0; j < k->n; j++)
		public_row(c, &c->table.kept_rows[k->first + j], c->text + c->text_at[2 * j],
		    c->text_at[2 * j + 1] == SIZE_MAX ? NULL : c->text + c->text_at[2 * j + 1],
		    &c->rows[j]);
	c->n_rows = k->n;
	return 0;
}

int
dcfg_counter_begin(struct dcfg_counter *c, uint64_t top, struct dcfg_count_table_info *info,
    struct dcfg_error *err)
{
	struct dcfg_count_table *t = &c->table;
	size_t names = t->n_kept_names;
	const struct dcfg_count_kept *k;
	int rc;

	c->n_rows = c->next_row = 0;
	if ((rc = dcfg_counter_keep(c, top, err)) != DCFG_COUNT_OK)
		return rc;
	k = &t->kept[t->n_kept - 1];
	rc = render(c, k);
	if (rc == 0 && info)
		*info = (struct dcfg_count_table_info){ c->p->pid, c->opt.by, k->total, k->n,
			c->from_dcfg };
	/* the table is the caller's now: none is kept to be written */
	t->n_kept--;
	t->n_kept_rows = k->first;
	t->n_kept_names = names;
	if (rc < 0) {
		c->n_rows = 0;
		return dcfg_error_set(err, c->name, "out of memory, or a row longer than 256 KiB"),
		    DCFG_COUNT_NO_MEMORY;
	}
	return DCFG_COUNT_OK;
}

const struct dcfg_counted_row *
dcfg_counter_next(struct dcfg_counter *c)
{
	return c->next_row < c->n_rows ? &c->rows[c->next_row++] : NULL;
}

int
dcfg_counter_rows(struct dcfg_counter *c, uint64_t top, const struct dcfg_count_handler *h,
    void *ctx, struct dcfg_error *err)
{
	struct dcfg_count_table_info info;
	const struct dcfg_counted_row *r;
	int rc;

	if ((rc = dcfg_counter_begin(c, top, &info, err)) != DCFG_COUNT_OK)
		return rc;
	if (h->table && (rc = h->table(ctx, &info)) != DCFG_COUNT_OK)
		return rc;
	while ((r = dcfg_counter_next(c)) != NULL)
		if (h->row && (rc = h->row(ctx, r)) != DCFG_COUNT_OK)
			return rc;
	return DCFG_COUNT_OK;
}
