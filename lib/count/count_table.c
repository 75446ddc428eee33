#include "count_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/blocks.h"
#include "common/vec.h"
#include "stream/writer.h"

int
dcfg_count_table_init(struct dcfg_count_table *t, const struct dcfg *d,
    const struct dcfg_count_options *o)
{
	size_t groups = d->n_routines;

	memset(t, 0, sizeof *t);
	t->d = d;
	t->o = o;
	if (d->n_images > groups)
		groups = d->n_images;
	if (d->n_loops > groups)
		groups = d->n_loops;
	if (d->n_edge_types + 1 > groups)
		groups = d->n_edge_types + 1;
	/* lines and files, then code on no line, per image */
	if (d->n_source_lines + d->n_images > groups)
		groups = d->n_source_lines + d->n_images;
	if (d->n_file_names + 1 + d->n_images > groups)
		groups = d->n_file_names + 1 + d->n_images;
	if (dcfg_tally_init(&t->exec, d->n_edges, 1) < 0 ||
	    dcfg_tally_init(&t->block, d->n_blocks, 1) < 0 ||
	    dcfg_tally_init(&t->group, groups, 3) < 0) {
		dcfg_count_table_free(t);
		return -1;
	}
	return 0;
}

void
dcfg_count_table_free(struct dcfg_count_table *t)
{
	size_t i;

	dcfg_tally_free(&t->exec);
	dcfg_tally_free(&t->block);
	dcfg_tally_free(&t->group);
	free(t->member_first);
	free(t->members);
	free(t->loop_depth);
	free(t->loop_static);
	free(t->loop_inner);
	dcfg_line_ids_free(&t->line_ids);
	free(t->rows);
	free(t->shown);
	free(t->kept);
	free(t->kept_rows);
	free(t->kept_name_at);
	free(t->kept_names);
	for (i = 0; t->names && i < t->d->n_processes; i++)
		dcfg_names_free(&t->names[i]);
	free(t->names);
	memset(t, 0, sizeof *t);
}

/* The names of process P, set up the first time a table of it is printed. */
static const struct dcfg_names *
names_of(struct dcfg_count_table *t, const struct dcfg_process *p)
{
	size_t i = (size_t)(p - t->d->processes);

	if (t->names == NULL && (t->names = calloc(t->d->n_processes + 1, sizeof *t->names)) == NULL)
		return NULL;
	if (t->names[i].d == NULL && dcfg_names_init(&t->names[i], t->d, p) < 0)
		return NULL;
	return &t->names[i];
}

/* ---- rows ---- */

static int
build_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	const struct dcfg_count_kind *kind = dcfg_count_kind(t->o->by);
	int block_overflow = 0;
	size_t k;
	uint32_t b;

	*n = 0;
	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target)) != DCFG_NONE) {
			uint64_t *v = dcfg_tally_at(&t->block, p->blocks.first + b);
			*v = dcfg_count_add(&block_overflow, *v, t->exec.value[t->exec.touched[k]]);
		}
	}
	/* Block executions overflow only the tables that use them. */
	if (kind->uses_blocks)
		*of |= block_overflow;
	return kind->rows(t, p, n, of);
}

int
dcfg_count_row_cmp(const void *a, const void *b)
{
	const struct dcfg_count_row *x = a, *y = b;
	int c;

	if (x->instr != y->instr)
		return x->instr > y->instr ? -1 : 1;
	if (x->name && y->name && (c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->key < y->key ? -1 : x->key > y->key;
}

void
dcfg_count_crc_bytes(char *buf, size_t size, uint32_t crc, uint64_t bytes)
{
	snprintf(buf, size, "%08x:%llu", (unsigned)crc, (unsigned long long)bytes);
}

void
dcfg_count_out_header(struct dcfg_output *out, uint32_t crc, uint64_t bytes,
    const struct dcfg_count_options *o, int from_dcfg)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	dcfg_out_str(out, "# dcfg-count 1 ");
	if (o->bbv) {
		dcfg_out_str(out, "bbv=");
		dcfg_out_u64(out, o->bbv);
	} else {
		dcfg_out_str(out, "by=");
		dcfg_out_str(out, dcfg_count_kind(o->by)->name);
	}
	dcfg_out_str(out, " dcfg=");
	for (i = 28; i >= 0; i -= 4)
		dcfg_out_char(out, hex[(crc >> i) & 0xf]);
	dcfg_out_char(out, ':');
	dcfg_out_u64(out, bytes);
	if (o->top && !o->bbv) {
		dcfg_out_str(out, " top=");
		dcfg_out_u64(out, o->top);
	}
	if (from_dcfg)
		dcfg_out_str(out, " from=dcfg");
	dcfg_out_char(out, '\n');
}

void
dcfg_count_table_meta(struct dcfg_table *w, uint32_t crc, uint64_t bytes, enum dcfg_count_by by,
    uint64_t top, int from_dcfg)
{
	char id[32];

	dcfg_count_crc_bytes(id, sizeof id, crc, bytes);
	dcfg_table_meta_text(w, "by", dcfg_count_kind(by)->name);
	dcfg_table_meta_text(w, "dcfg", id);
	if (top)
		dcfg_table_meta_u64(w, "top", top);
	if (from_dcfg)
		dcfg_table_meta_text(w, "from", "dcfg");
}

void
dcfg_count_section(struct dcfg_table *w, const struct dcfg_count_kind *kind, uint64_t pid,
    uint64_t total)
{
	dcfg_table_section(w);
	dcfg_table_meta_u64(w, "process", pid);
	dcfg_table_meta_u64(w, "total_instructions", total);
	dcfg_table_columns(w, kind->cols, kind->n_cols);
}

void
dcfg_count_write_key(struct dcfg_table *w, enum dcfg_count_key key, const struct dcfg_count_row *r)
{
	/* a name is escaped already (escape_names), or as --merge read it */
	struct dcfg_table_piece at[] = { { DCFG_PIECE_TEXT, r->name, 0 },
		{ DCFG_PIECE_TEXT, ":-", 0 }, { DCFG_PIECE_U64, NULL, r->key } };

	if (r->name == NULL) {
		dcfg_table_u64(w, r->key);
	} else if (r->key == DCFG_COUNT_NO_LINE) {
		dcfg_table_pieces(w, at, 2);
	} else if (key == DCFG_COUNT_KEY_FILE_LINE) {
		at[1].s = ":";
		dcfg_table_pieces(w, at, 3);
	} else {
		dcfg_table_pieces(w, at, 1);
	}
}

void
dcfg_count_write_counts(struct dcfg_table *w, const struct dcfg_count_kind *kind,
    const struct dcfg_count_row *r, uint64_t total)
{
	dcfg_table_u64(w, r->exec);
	if (kind->iterations)
		dcfg_table_u64(w, r->iter);
	dcfg_table_u64(w, r->instr);
	dcfg_table_share(w, r->instr, total);
	dcfg_table_end_row(w);
}

/* Named rows by name, then key: rows that would read alike side by side. */
static int
by_name_key(const void *a, const void *b)
{
	const struct dcfg_count_row *x = a, *y = b;
	int c = x->name && y->name ? strcmp(x->name, y->name) : (x->name != NULL) - (y->name != NULL);

	if (c)
		return c;
	return x->key < y->key ? -1 : x->key > y->key;
}

/*
 * Images of one file name (or of none), and such, would make rows that
 * read alike: each is one row, so that every row of a table has its own
 * key and tables of shards merge (count_merge.h).
 */
static size_t
join_alike(struct dcfg_count_table *t, size_t n, int *of)
{
	struct dcfg_count_row *r = t->rows;
	size_t i, k = 0;

	qsort(r, n, sizeof *r, by_name_key);
	for (i = 0; i < n; i++) {
		if (k > 0 && r[i].name && r[k - 1].name && r[i].key == r[k - 1].key &&
		    strcmp(r[i].name, r[k - 1].name) == 0) {
			dcfg_count_row_add(of, &r[k - 1], &r[i]);
		} else {
			r[k++] = r[i];
		}
	}
	return k;
}

/*
 * The rows' names as the table writes them (dcfg_out_escaped), before they
 * are sorted: ties then fall in the order --merge, which reads the names
 * so, sorts them in, and one run and merged shards write the same table.
 */
static int
escape_names(struct dcfg_count_table *t, size_t n)
{
	size_t i, need = 0, at = 0;

	for (i = 0; i < n; i++)
		if (t->rows[i].name)
			need += dcfg_escape(NULL, 0, t->rows[i].name) + 1;
	if (need == 0)
		return 0;
	if (dcfg_reserve((void **)&t->shown, &t->cap_shown, need, 1) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (t->rows[i].name) {
			size_t len = dcfg_escape(t->shown + at, need - at, t->rows[i].name);
			t->rows[i].name = t->shown + at;
			at += len + 1;
		}
	return 0;
}

/*
 * The rows of the process's table, sorted and cut to --top, and their
 * names, are kept until the whole stream is read: a CSV row carries the
 * stream's "# trace" line, its last. A process's rows are few (its
 * routines, loops, ...), never its edge executions.
 */
static int
keep_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t n, uint64_t total)
{
	size_t i, at = t->n_kept_rows, len;

	if (dcfg_reserve((void **)&t->kept, &t->cap_kept, t->n_kept + 1, sizeof *t->kept) < 0 ||
	    dcfg_reserve((void **)&t->kept_rows, &t->cap_kept_rows, at + n + 1, sizeof *t->kept_rows) < 0 ||
	    dcfg_reserve((void **)&t->kept_name_at, &t->cap_kept_name_at, at + n + 1,
	    sizeof *t->kept_name_at) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		t->kept_rows[at + i] = t->rows[i];
		t->kept_name_at[at + i] = SIZE_MAX;
		if (t->rows[i].name == NULL)
			continue;
		len = strlen(t->rows[i].name) + 1;
		if (dcfg_reserve((void **)&t->kept_names, &t->cap_kept_names, t->n_kept_names + len, 1) < 0)
			return -1;
		memcpy(t->kept_names + t->n_kept_names, t->rows[i].name, len);
		t->kept_name_at[at + i] = t->n_kept_names;
		t->n_kept_names += len;
	}
	t->kept[t->n_kept++] = (struct dcfg_count_kept){ p, total, at, n };
	t->n_kept_rows += n;
	return 0;
}

/* The process's instructions: every edge execution costs its source block's (the threads' sum). */
static uint64_t
process_total(const struct dcfg_count_table *t, const struct dcfg_process *p, int *of)
{
	uint64_t total = 0;
	size_t k;

	for (k = 0; k < t->exec.n_touched; k++) {
		uint32_t e = t->exec.touched[k];
		total = dcfg_count_add(of, total, dcfg_count_mul(of, t->exec.value[e],
		    dcfg_count_source_instrs(t->d, p, &t->d->edges[e])));
	}
	return total;
}

int
dcfg_count_table_keep(struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_thread *threads, size_t n_threads, int *overflow)
{
	uint64_t total;
	size_t n = 0;
	int rc;

	t->threads = threads;
	t->n_threads = n_threads;
	total = process_total(t, p, overflow);
	rc = build_rows(t, p, &n, overflow);

	dcfg_tally_clear(&t->block);
	dcfg_tally_clear(&t->group);
	if (rc < 0)
		return -1;
	if (n > 1 && t->rows[0].name)   /* numbered rows have keys of their own */
		n = join_alike(t, n, overflow);
	if (*overflow)
		return -1;   /* nothing is kept of a table that would lie */
	if (escape_names(t, n) < 0)
		return -1;
	if (n > 1)
		qsort(t->rows, n, sizeof *t->rows, dcfg_count_kind(t->o->by)->cmp ?
		    dcfg_count_kind(t->o->by)->cmp : dcfg_count_row_cmp);
	if (t->o->top && n > t->o->top)
		n = (size_t)t->o->top;
	if (names_of(t, p) == NULL)
		return -1;
	return keep_rows(t, p, n, total);
}

void
dcfg_count_table_write_row(struct dcfg_count_table *t, struct dcfg_table *w,
    const struct dcfg_count_kept *k, size_t j)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(t->o->by);
	struct dcfg_count_row *r = &t->kept_rows[j];

	if (t->kept_name_at[j] != SIZE_MAX)
		r->name = t->kept_names + t->kept_name_at[j];
	dcfg_count_write_key(w, kind->key, r);
	if (kind->between)
		kind->between(t, k->p, r, w, names_of(t, k->p));   /* made by keep */
	dcfg_count_write_counts(w, kind, r, k->total);
}

void
dcfg_count_table_write(struct dcfg_count_table *t, struct dcfg_table *w)
{
	const struct dcfg_count_kind *kind = dcfg_count_kind(t->o->by);
	size_t i, j;

	for (i = 0; i < t->n_kept; i++) {
		const struct dcfg_count_kept *k = &t->kept[i];
		dcfg_count_section(w, kind, k->p->pid, k->total);
		for (j = k->first; j < k->first + k->n; j++)
			dcfg_count_table_write_row(t, w, k, j);
	}
	t->n_kept = t->n_kept_rows = t->n_kept_names = 0;
}
