#include "listing.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int
dcfg_list_kind_parse(const char *name, enum dcfg_list_kind *kind)
{
	static const char *const names[] = { "routines", "images", "loops" };
	static const enum dcfg_list_kind kinds[] = { DCFG_LIST_ROUTINES, DCFG_LIST_IMAGES,
		DCFG_LIST_LOOPS };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0) {
			*kind = kinds[i];
			return 0;
		}
	return -1;
}

unsigned
dcfg_list_keep(enum dcfg_list_kind kind)
{
	/* Per-thread counts are never read: an edge's total is. */
	unsigned keep = DCFG_KEEP_ALL & ~DCFG_KEEP_EDGE_COUNTS;

	return kind == DCFG_LIST_LOOPS ? keep : keep & ~DCFG_KEEP_SOURCE;
}

/* Sums and products that flag a count past 2^64 - 1 rather than wrap. */
static uint64_t
add(int *of, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		*of = 1;
	return r;
}

static uint64_t
mul(int *of, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		*of = 1;
	return r;
}

/* The process's block (relative) of node ID, or DCFG_NONE. */
static uint32_t
block_of(const struct dcfg_listing *l, uint32_t id)
{
	return dcfg_idmap_get(&dcfg_process_index(l->d, l->p)->block_by_node, id);
}

/* Each block's executions: the summed counts of the edges into it. NULL: out of memory. */
static uint64_t *
block_executions(const struct dcfg_listing *l, int *of)
{
	const struct dcfg_process *p = l->p;
	uint64_t *exec = calloc((size_t)p->blocks.count + 1, sizeof *exec);
	uint32_t i, b;

	for (i = 0; exec && i < p->edges.count; i++) {
		const struct dcfg_edge *e = &l->d->edges[p->edges.first + i];
		if ((b = block_of(l, e->target)) != DCFG_NONE)
			exec[b] = add(of, exec[b], e->total);
	}
	return exec;
}

/* Keeps NAME, escaped, in the pool; its offset there, or SIZE_MAX when out of memory. */
static size_t
keep_name(struct dcfg_listing *l, const char *name)
{
	size_t need = dcfg_escape(NULL, 0, name) + 1, at = l->used_shown;

	if (dcfg_reserve((void **)&l->shown, &l->cap_shown, at + need, 1) < 0)
		return SIZE_MAX;
	dcfg_escape(l->shown + at, need, name);
	l->used_shown += need;
	return at;
}

/* The name of the routine R (names.h), kept: its offset, or SIZE_MAX (out of memory). */
static size_t
routine_name(struct dcfg_listing *l, const struct dcfg_routine *r)
{
	const struct dcfg_block *b = dcfg_block_by_node(l->d, l->p, r->entry_node_id);
	struct dcfg_name nm;
	char small[256], *raw = small;
	size_t need, at;

	if (b == NULL)
		return keep_name(l, "-");
	dcfg_name_at(&l->names, b->addr, &nm);
	if ((need = dcfg_name_format(&nm, small, sizeof small)) >= sizeof small) {
		if ((raw = malloc(need + 1)) == NULL)
			return SIZE_MAX;
		dcfg_name_format(&nm, raw, need + 1);
	}
	at = keep_name(l, raw);
	if (raw != small)
		free(raw);
	return at;
}

static int
add_row(struct dcfg_listing *l, size_t *cap, struct dcfg_list_row r)
{
	if (dcfg_reserve((void **)&l->rows, cap, l->n + 1, sizeof *l->rows) < 0)
		return -1;
	l->rows[l->n++] = r;
	return 0;
}

/* Names are kept as offsets while the pool grows: (const char *)OFFSET until fixed. */
#define AT(off) ((const char *)(uintptr_t)(off))

static int
routine_rows(struct dcfg_listing *l, const uint64_t *exec, int *of)
{
	const struct dcfg *d = l->d;
	const struct dcfg_process *p = l->p;
	uint64_t *calls = calloc((size_t)p->routines.count + 1, sizeof *calls);
	uint64_t *instr = calloc((size_t)p->routines.count + 1, sizeof *instr);
	size_t cap = 0, at;
	uint32_t i, tb, sb;
	int rc = -1;

	if (calls == NULL || instr == NULL)
		goto out;
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		uint32_t r;
		if ((tb = block_of(l, e->target)) == DCFG_NONE ||
		    (r = d->blocks[p->blocks.first + tb].routine) == DCFG_NONE ||
		    d->routines[r].entry_node_id != e->target)
			continue;
		sb = block_of(l, e->source);
		if (sb == DCFG_NONE || d->blocks[p->blocks.first + sb].routine != r)
			calls[r - p->routines.first] = add(of, calls[r - p->routines.first], e->total);
	}
	for (i = 0; i < p->blocks.count; i++) {
		const struct dcfg_block *b = &d->blocks[p->blocks.first + i];
		if (b->routine != DCFG_NONE)
			instr[b->routine - p->routines.first] = add(of,
			    instr[b->routine - p->routines.first], mul(of, exec[i], b->num_instrs));
	}
	for (i = 0; i < p->routines.count; i++) {
		const struct dcfg_routine *r = &d->routines[p->routines.first + i];
		if ((at = routine_name(l, r)) == SIZE_MAX ||
		    add_row(l, &cap, (struct dcfg_list_row){ .key = r->entry_node_id,
		    .index = p->routines.first + i, .name = AT(at), .exec = calls[i],
		    .instr = instr[i] }) < 0)
			goto out;
	}
	rc = 0;
out:
	free(calls);
	free(instr);
	return rc;
}

static int
image_rows(struct dcfg_listing *l, const uint64_t *exec, int *of)
{
	const struct dcfg *d = l->d;
	const struct dcfg_process *p = l->p;
	size_t cap = 0, at, first = l->n;
	uint32_t i;

	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		const char *file = dcfg_file_name(d, im->file_name_id);
		if ((at = keep_name(l, file ? file : "-")) == SIZE_MAX ||
		    add_row(l, &cap, (struct dcfg_list_row){ .key = im->id,
		    .index = p->images.first + i, .name = AT(at), .statik = im->blocks.count,
		    .routines = im->routines.count }) < 0)
			return -1;
	}
	for (i = 0; i < p->blocks.count; i++) {
		const struct dcfg_block *b = &d->blocks[p->blocks.first + i];
		struct dcfg_list_row *r = &l->rows[first + (b->image - p->images.first)];
		r->exec = add(of, r->exec, exec[i]);
		r->instr = add(of, r->instr, mul(of, exec[i], b->num_instrs));
	}
	return 0;
}

/* A loop's node: the pairs, sorted by node, answer "which loops hold node N". */
struct member {
	uint32_t node, loop;       /* loop: in the process's loops */
};

static int
by_node(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->loop < y->loop ? -1 : x->loop > y->loop;
}

/* The first pair of NODE (N when none). */
static size_t
first_of(const struct member *m, size_t n, uint32_t node)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
holds(const struct member *m, size_t n, uint32_t loop, uint32_t node)
{
	size_t k;

	for (k = first_of(m, n, node); k < n && m[k].node == node; k++)
		if (m[k].loop == loop)
			return 1;
	return 0;
}

/* "FILE:LINE" of the loop's head block, escaped and kept; "-" where it has none. */
static size_t
loop_source(struct dcfg_listing *l, const struct dcfg_loop *lp)
{
	const struct dcfg_block *head = dcfg_block_by_node(l->d, l->p, lp->head_node_id);
	const struct dcfg_source_line *src = head ? dcfg_source_at(l->d, l->p, head->addr) : NULL;
	const char *file = src ? dcfg_file_name(l->d, src->file_name_id) : NULL;
	size_t at, len = 0;
	char line[24];
	uint64_t v = src ? src->line : 0;

	if (src == NULL)
		return keep_name(l, "-");
	if ((at = keep_name(l, file ? file : "-")) == SIZE_MAX)
		return SIZE_MAX;
	/* ":LINE" after the file, its NUL moved past it */
	do
		line[sizeof line - 1 - len++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	line[sizeof line - 1 - len++] = ':';
	if (dcfg_reserve((void **)&l->shown, &l->cap_shown, l->used_shown + len, 1) < 0)
		return SIZE_MAX;
	memcpy(l->shown + l->used_shown - 1, line + sizeof line - len, len);
	l->shown[l->used_shown - 1 + len] = '\0';
	l->used_shown += len;
	return at;
}

/* Each loop's figures, then its row. */
static void
loop_figures(struct dcfg_listing *l, const uint64_t *exec, const struct member *m, size_t nm,
    const struct member *heads, struct dcfg_list_row *rows, int *of)
{
	const struct dcfg *d = l->d;
	const struct dcfg_process *p = l->p;
	size_t j, nh = p->loops.count;
	uint32_t i, k, b;

	for (i = 0; i < p->loops.count; i++) {
		const struct dcfg_loop *lp = &d->loops[p->loops.first + i];
		struct dcfg_list_row *r = &rows[i];
		for (k = 0; k < lp->nodes.count; k++)
			if ((b = block_of(l, d->node_ids[lp->nodes.first + k])) != DCFG_NONE) {
				const struct dcfg_block *bl = &d->blocks[p->blocks.first + b];
				r->statik = add(of, r->statik, bl->num_instrs);
				r->instr = add(of, r->instr, mul(of, exec[b], bl->num_instrs));
			}
		/* Nesting from the nodes (PARENT_LOOP_HEAD_NODE_ID may be left out), at a head that is a block. */
		if (block_of(l, lp->head_node_id) == DCFG_NONE)
			continue;
		for (j = first_of(m, nm, lp->head_node_id); j < nm && m[j].node == lp->head_node_id; j++)
			if (m[j].loop != i && d->loops[p->loops.first + m[j].loop].head_node_id !=
			    lp->head_node_id) {
				r->depth++;
				rows[m[j].loop].innermost = 0;
			}
	}
	/* The edges into a head: from a back-edge source, an iteration; from outside, an entry. */
	for (j = 0; j < p->edges.count; j++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + j];
		size_t h;
		for (h = first_of(heads, nh, e->target); h < nh && heads[h].node == e->target; h++) {
			const struct dcfg_loop *lp = &d->loops[p->loops.first + heads[h].loop];
			struct dcfg_list_row *r = &rows[heads[h].loop];
			if (dcfg_range_has_node(d, lp->back_edge_sources, e->source))
				r->iter = add(of, r->iter, e->total);
			else if (!holds(m, nm, heads[h].loop, e->source))
				r->exec = add(of, r->exec, e->total);
		}
	}
}

static int
loop_rows(struct dcfg_listing *l, const uint64_t *exec, int *of)
{
	const struct dcfg *d = l->d;
	const struct dcfg_process *p = l->p;
	struct member *m = NULL, *heads = NULL;
	size_t nm = 0, cap = 0, at, src, first = l->n;
	uint32_t i, k;
	int rc = -1;

	for (i = 0; i < p->loops.count; i++)
		nm += d->loops[p->loops.first + i].nodes.count;
	if ((m = malloc((nm + 1) * sizeof *m)) == NULL ||
	    (heads = malloc(((size_t)p->loops.count + 1) * sizeof *heads)) == NULL)
		goto out;
	for (nm = i = 0; i < p->loops.count; i++) {
		const struct dcfg_loop *lp = &d->loops[p->loops.first + i];
		for (k = 0; k < lp->nodes.count; k++)
			m[nm++] = (struct member){ d->node_ids[lp->nodes.first + k], i };
		heads[i] = (struct member){ lp->head_node_id, i };
	}
	qsort(m, nm, sizeof *m, by_node);
	qsort(heads, p->loops.count, sizeof *heads, by_node);
	for (i = 0; i < p->loops.count; i++) {
		const struct dcfg_loop *lp = &d->loops[p->loops.first + i];
		if ((at = routine_name(l, &d->routines[lp->routine])) == SIZE_MAX ||
		    (src = loop_source(l, lp)) == SIZE_MAX ||
		    add_row(l, &cap, (struct dcfg_list_row){ .key = lp->head_node_id,
		    .index = p->loops.first + i, .name = AT(at), .source = AT(src), .depth = 1,
		    .innermost = 1 }) < 0)
			goto out;
	}
	loop_figures(l, exec, m, nm, heads, l->rows + first, of);
	rc = 0;
out:
	free(m);
	free(heads);
	return rc;
}

/* By instructions, the most first, then by name, then by key. */
static int
row_cmp(const void *a, const void *b)
{
	const struct dcfg_list_row *x = a, *y = b;
	int c;

	if (x->instr != y->instr)
		return x->instr > y->instr ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->key < y->key ? -1 : x->key > y->key;
}

int
dcfg_listing_make(struct dcfg_listing *l, const struct dcfg *d,
    const struct dcfg_process *p, enum dcfg_list_kind kind, const char *file,
    struct dcfg_error *err)
{
	uint64_t *exec;
	int of = 0, rc = -1;
	size_t i;

	memset(l, 0, sizeof *l);
	l->d = d;
	l->p = p;
	l->kind = kind;
	if (kind != DCFG_LIST_IMAGES) {
		if (dcfg_names_init(&l->names, d, p) < 0)
			return dcfg_error_set(err, file, "out of memory");
		l->have_names = 1;
	}
	if ((exec = block_executions(l, &of)) != NULL)
		rc = kind == DCFG_LIST_ROUTINES ? routine_rows(l, exec, &of) :
		    kind == DCFG_LIST_IMAGES ? image_rows(l, exec, &of) : loop_rows(l, exec, &of);
	free(exec);
	if (rc < 0)
		return dcfg_error_set(err, file, "out of memory");
	if (of)
		return dcfg_error_set(err, file, "process %llu: a count does not fit in 64 bits",
		    (unsigned long long)p->pid);
	for (i = 0; i < l->n; i++) {
		l->rows[i].name = l->shown + (uintptr_t)l->rows[i].name;
		if (kind == DCFG_LIST_LOOPS)
			l->rows[i].source = l->shown + (uintptr_t)l->rows[i].source;
	}
	if (l->n > 1)
		qsort(l->rows, l->n, sizeof *l->rows, row_cmp);
	return 0;
}

void
dcfg_listing_free(struct dcfg_listing *l)
{
	if (l->have_names)
		dcfg_names_free(&l->names);
	free(l->rows);
	free(l->shown);
	memset(l, 0, sizeof *l);
}
