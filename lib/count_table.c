#include "count_table.h"

#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "lines.h"
#include "vec.h"

struct dcfg_count_row {
	uint64_t key;              /* an id, a line; NO_LINE: code on no line */
	const char *name;          /* non-NULL: the row is keyed by NAME, then KEY */
	const struct dcfg_loop *loop;
	uint64_t exec, iter, instr;
};

#define NO_LINE UINT64_MAX

#define LOOP_HEADER "# loop\troutine\tname\tsource\tdepth\tinnermost\tstatic\tentries" \
	"\titerations\tinstructions\tshare\n"

/* A loop a block belongs to: as one of its nodes, or as its head. */
struct dcfg_loop_member {
	uint32_t loop;             /* in d->loops */
	uint32_t is_node, is_head;
};

/* Sums and products of counts, saturating and flagged: a wrapped count would be a lie. */
static uint64_t
add(int *overflow, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r)) {
		*overflow = 1;
		return UINT64_MAX;
	}
	return r;
}

static uint64_t
mul(int *overflow, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r)) {
		*overflow = 1;
		return UINT64_MAX;
	}
	return r;
}

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
	for (i = 0; t->names && i < t->d->n_processes; i++)
		dcfg_names_free(&t->names[i]);
	free(t->names);
	memset(t, 0, sizeof *t);
}

/* ---- the loops of each block, for loop tables ---- */

static const struct dcfg_process *
loop_process(const struct dcfg *d, const struct dcfg_loop *lp)
{
	return &d->processes[d->images[d->routines[lp->routine].image].process];
}

/* Calls ADD(block, member) for each membership; two passes share it. */
static void
each_member(const struct dcfg *d, void (*fn)(void *, uint32_t, struct dcfg_loop_member), void *ctx)
{
	uint32_t li, k, b;

	for (li = 0; li < d->n_loops; li++) {
		const struct dcfg_loop *lp = &d->loops[li];
		const struct dcfg_process *p = loop_process(d, lp);
		for (k = 0; k < lp->nodes.count; k++)
			if ((b = dcfg_idmap_get(&p->block_by_node, d->node_ids[lp->nodes.first + k])) != DCFG_NONE)
				fn(ctx, p->blocks.first + b, (struct dcfg_loop_member){ li, 1, 0 });
		if ((b = dcfg_idmap_get(&p->block_by_node, lp->head_node_id)) != DCFG_NONE)
			fn(ctx, p->blocks.first + b, (struct dcfg_loop_member){ li, 0, 1 });
	}
}

static void
count_member(void *ctx, uint32_t block, struct dcfg_loop_member m)
{
	struct dcfg_count_table *t = ctx;

	(void)m;
	t->member_first[block + 2]++;
}

static void
place_member(void *ctx, uint32_t block, struct dcfg_loop_member m)
{
	struct dcfg_count_table *t = ctx;

	t->members[t->member_first[block + 1]++] = m;
}

static int
index_loops(struct dcfg_count_table *t)
{
	const struct dcfg *d = t->d;
	size_t i, n = 0;
	uint32_t li, j, k;

	if (t->member_first)
		return 0;
	for (i = 0; i < d->n_loops; i++)
		n += (size_t)d->loops[i].nodes.count + 1;
	if ((t->member_first = calloc(d->n_blocks + 2, sizeof *t->member_first)) == NULL ||
	    (t->members = malloc((n + 1) * sizeof *t->members)) == NULL ||
	    (t->loop_depth = calloc(d->n_loops + 1, sizeof *t->loop_depth)) == NULL ||
	    (t->loop_static = calloc(d->n_loops + 1, sizeof *t->loop_static)) == NULL ||
	    (t->loop_inner = malloc(d->n_loops + 1)) == NULL)
		return -1;
	each_member(d, count_member, t);
	for (i = 0; i < d->n_blocks; i++)
		t->member_first[i + 2] += t->member_first[i + 1];
	each_member(d, place_member, t);
	/*
	 * Nesting from the nodes, not PARENT_LOOP_HEAD_NODE_ID, which real
	 * files may leave out: the loops around a loop are the others whose
	 * nodes hold its head, and a loop holding another's head is not
	 * innermost.
	 */
	memset(t->loop_inner, 1, d->n_loops + 1);
	for (li = 0; li < d->n_loops; li++) {
		const struct dcfg_loop *lp = &d->loops[li];
		const struct dcfg_process *p = loop_process(d, lp);
		uint32_t h = dcfg_idmap_get(&p->block_by_node, lp->head_node_id), b;
		t->loop_depth[li] = 1;
		for (k = 0; k < lp->nodes.count; k++)
			if ((b = dcfg_idmap_get(&p->block_by_node, d->node_ids[lp->nodes.first + k])) != DCFG_NONE)
				t->loop_static[li] += d->blocks[p->blocks.first + b].num_instrs;
		if (h == DCFG_NONE)
			continue;
		h += p->blocks.first;
		for (j = t->member_first[h]; j < t->member_first[h + 1]; j++)
			if (t->members[j].is_node && t->members[j].loop != li &&
			    d->loops[t->members[j].loop].head_node_id != lp->head_node_id) {
				t->loop_depth[li]++;
				t->loop_inner[t->members[j].loop] = 0;
			}
	}
	return 0;
}

/* Is NODE in the loop's nodes? (only for nodes without a block: a linear look) */
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
block_in_loop(const struct dcfg_count_table *t, uint32_t block, uint32_t loop)
{
	uint32_t k;

	for (k = t->member_first[block]; k < t->member_first[block + 1]; k++)
		if (t->members[k].loop == loop && t->members[k].is_node)
			return 1;
	return 0;
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
add_row(struct dcfg_count_table *t, size_t *n, struct dcfg_count_row r)
{
	if (dcfg_reserve((void **)&t->rows, &t->cap_rows, *n + 1, sizeof *t->rows) < 0)
		return -1;
	t->rows[(*n)++] = r;
	return 0;
}

static uint64_t
source_instrs(const struct dcfg *d, const struct dcfg_process *p, const struct dcfg_edge *e)
{
	const struct dcfg_block *b = dcfg_block_by_node(d, p, e->source);

	return b ? b->num_instrs : 0;
}

/* Loop rows: the loops around the blocks that ran, and the edges into their heads. */
static int
loop_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;
	uint32_t j, b;

	if (index_loops(t) < 0)
		return -1;
	for (k = 0; k < t->block.n_touched; k++) {
		uint32_t gb = t->block.touched[k];
		uint64_t in = mul(of, t->block.value[gb], d->blocks[gb].num_instrs);
		for (j = t->member_first[gb]; j < t->member_first[gb + 1]; j++)
			if (t->members[j].is_node) {
				uint64_t *v = dcfg_tally_at(&t->group, t->members[j].loop);
				v[2] = add(of, v[2], in);
			}
	}
	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		uint64_t x = t->exec.value[t->exec.touched[k]];
		uint32_t sb = dcfg_idmap_get(&p->block_by_node, e->source);
		if ((b = dcfg_idmap_get(&p->block_by_node, e->target)) == DCFG_NONE)
			continue;
		b += p->blocks.first;
		for (j = t->member_first[b]; j < t->member_first[b + 1]; j++) {
			uint32_t li = t->members[j].loop;
			const struct dcfg_loop *lp = &d->loops[li];
			uint64_t *v;
			if (!t->members[j].is_head)
				continue;
			v = dcfg_tally_at(&t->group, li);
			if (in_list(d, lp->back_edge_sources, e->source))
				v[1] = add(of, v[1], x);
			else if (!(sb != DCFG_NONE ? block_in_loop(t, p->blocks.first + sb, li) :
			    in_list(d, lp->nodes, e->source)))
				v[0] = add(of, v[0], x);
		}
	}
	for (k = 0; k < t->group.n_touched; k++) {
		uint32_t li = t->group.touched[k];
		const uint64_t *v = &t->group.value[3 * (size_t)li];
		if ((v[0] || v[1] || v[2]) && add_row(t, n, (struct dcfg_count_row){
		    d->loops[li].head_node_id, NULL, &d->loops[li], v[0], v[1], v[2] }) < 0)
			return -1;
	}
	return 0;
}

/* ---- lines and files ---- */

struct line_walk {
	struct dcfg_count_table *t;
	uint64_t exec;             /* of the block */
	uint32_t image;            /* the block's */
	uint32_t last;             /* the group the block last added to: executions once */
	int *of;
};

/* The group of a SOURCE_DATA record (DCFG_NONE: the block's image, no line). */
static uint32_t
line_group(const struct dcfg_count_table *t, uint32_t source, uint32_t image)
{
	const struct dcfg *d = t->d;
	uint32_t f;

	if (t->o->by == DCFG_BY_LINE)
		return source == DCFG_NONE ? (uint32_t)t->line_ids.n + image : t->line_ids.of[source];
	if (source == DCFG_NONE)
		return (uint32_t)d->n_file_names + 1 + image;
	f = dcfg_idmap_get(&d->file_name_by_id, d->source_lines[source].file_name_id);
	return f == DCFG_NONE ? (uint32_t)d->n_file_names : f;
}

static void
add_line_share(void *ctx, uint32_t source, uint64_t instrs)
{
	struct line_walk *w = ctx;
	uint32_t g = line_group(w->t, source, w->image);
	uint64_t *v = dcfg_tally_at(&w->t->group, g);

	if (g != w->last)
		v[0] = add(w->of, v[0], w->exec);
	v[1] = add(w->of, v[1], mul(w->of, w->exec, instrs));
	w->last = g;
}

/* Lines or files: each executed block's instructions shared among its lines (lines.h). */
static int
line_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k, nl;

	if (t->line_ids.of == NULL && dcfg_line_ids_init(&t->line_ids, d) < 0)
		return -1;
	nl = t->o->by == DCFG_BY_LINE ? t->line_ids.n : d->n_file_names + 1;
	for (k = 0; k < t->block.n_touched; k++) {
		const struct dcfg_block *b = &d->blocks[t->block.touched[k]];
		struct line_walk w = { t, t->block.value[t->block.touched[k]], b->image, DCFG_NONE, of };
		dcfg_block_lines(d, p, b, add_line_share, &w);
	}
	for (k = 0; k < t->group.n_touched; k++) {
		uint32_t g = t->group.touched[k];
		const uint64_t *v = &t->group.value[3 * (size_t)g];
		struct dcfg_count_row r = { 0, NULL, NULL, v[0], 0, v[1] };
		if (g >= nl) {          /* code on no line: its image's file name */
			const char *name = dcfg_file_name(d, d->images[g - nl].file_name_id);
			r.name = name ? name : "-";
			r.key = NO_LINE;
		} else if (t->o->by == DCFG_BY_LINE) {
			const struct dcfg_source_line *s = &d->source_lines[t->line_ids.record[g]];
			const char *name = dcfg_file_name(d, s->file_name_id);
			r.name = name ? name : "-";
			r.key = s->line;
		} else {
			r.name = g < d->n_file_names ? dcfg_string(d, d->file_names[g].name) : "-";
		}
		if ((r.exec || r.instr) && add_row(t, n, r) < 0)
			return -1;
	}
	return 0;
}

static int
build_rows(struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_thread *threads, size_t n_threads, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	enum dcfg_count_by by = t->o->by;
	int block_overflow = 0;
	size_t k;
	uint32_t b;

	*n = 0;
	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		if ((b = dcfg_idmap_get(&p->block_by_node, e->target)) != DCFG_NONE) {
			uint64_t *v = dcfg_tally_at(&t->block, p->blocks.first + b);
			*v = add(&block_overflow, *v, t->exec.value[t->exec.touched[k]]);
		}
	}
	/* Block executions overflow only the tables that use them. */
	if (by == DCFG_BY_BLOCK || by == DCFG_BY_IMAGE || by == DCFG_BY_ROUTINE || by == DCFG_BY_LOOP)
		*of |= block_overflow;

	switch (by) {
	case DCFG_BY_EDGE:
		for (k = 0; k < t->exec.n_touched; k++) {
			const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
			uint64_t x = t->exec.value[t->exec.touched[k]];
			if (x && add_row(t, n, (struct dcfg_count_row){ e->id, NULL, NULL, x, 0,
			    mul(of, x, source_instrs(d, p, e)) }) < 0)
				return -1;
		}
		break;
	case DCFG_BY_TYPE:
		for (k = 0; k < t->exec.n_touched; k++) {
			const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
			uint64_t x = t->exec.value[t->exec.touched[k]], *v;
			uint32_t ty = dcfg_idmap_get(&d->edge_type_by_id, e->type_id);
			v = dcfg_tally_at(&t->group, ty == DCFG_NONE ? (uint32_t)d->n_edge_types : ty);
			v[0] = add(of, v[0], x);
			v[1] = add(of, v[1], mul(of, x, source_instrs(d, p, e)));
		}
		for (k = 0; k < t->group.n_touched; k++) {
			uint32_t ty = t->group.touched[k];
			const uint64_t *v = &t->group.value[3 * (size_t)ty];
			if (v[0] && add_row(t, n, (struct dcfg_count_row){ 0,
			    ty < d->n_edge_types ? dcfg_string(d, d->edge_types[ty].name) : "UNDEFINED",
			    NULL, v[0], 0, v[1] }) < 0)
				return -1;
		}
		break;
	case DCFG_BY_BLOCK:
		for (k = 0; k < t->block.n_touched; k++) {
			const struct dcfg_block *bl = &d->blocks[t->block.touched[k]];
			uint64_t x = t->block.value[t->block.touched[k]];
			if (x && add_row(t, n, (struct dcfg_count_row){ bl->node_id, NULL, NULL, x, 0,
			    mul(of, x, bl->num_instrs) }) < 0)
				return -1;
		}
		break;
	case DCFG_BY_IMAGE:
		for (k = 0; k < t->block.n_touched; k++) {
			const struct dcfg_block *bl = &d->blocks[t->block.touched[k]];
			uint64_t x = t->block.value[t->block.touched[k]];
			uint64_t *v = dcfg_tally_at(&t->group, bl->image);
			v[0] = add(of, v[0], x);
			v[1] = add(of, v[1], mul(of, x, bl->num_instrs));
		}
		for (k = 0; k < t->group.n_touched; k++) {
			const struct dcfg_image *im = &d->images[t->group.touched[k]];
			const uint64_t *v = &t->group.value[3 * (size_t)t->group.touched[k]];
			const char *name = dcfg_file_name(d, im->file_name_id);
			if (v[0] && add_row(t, n, (struct dcfg_count_row){ 0, name ? name : "-",
			    NULL, v[0], 0, v[1] }) < 0)
				return -1;
		}
		break;
	case DCFG_BY_ROUTINE:
		for (k = 0; k < t->exec.n_touched; k++) {
			const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
			const struct dcfg_block *tb = dcfg_block_by_node(d, p, e->target);
			const struct dcfg_block *sb = dcfg_block_by_node(d, p, e->source);
			if (tb && tb->routine != DCFG_NONE &&
			    d->routines[tb->routine].entry_node_id == e->target &&
			    (sb == NULL || sb->routine != tb->routine)) {
				uint64_t *v = dcfg_tally_at(&t->group, tb->routine);
				v[0] = add(of, v[0], t->exec.value[t->exec.touched[k]]);
			}
		}
		for (k = 0; k < t->block.n_touched; k++) {
			const struct dcfg_block *bl = &d->blocks[t->block.touched[k]];
			if (bl->routine != DCFG_NONE) {
				uint64_t *v = dcfg_tally_at(&t->group, bl->routine);
				v[1] = add(of, v[1], mul(of, t->block.value[t->block.touched[k]], bl->num_instrs));
			}
		}
		for (k = 0; k < t->group.n_touched; k++) {
			const struct dcfg_routine *r = &d->routines[t->group.touched[k]];
			const uint64_t *v = &t->group.value[3 * (size_t)t->group.touched[k]];
			if ((v[0] || v[1]) && add_row(t, n, (struct dcfg_count_row){
			    r->entry_node_id, NULL, NULL, v[0], 0, v[1] }) < 0)
				return -1;
		}
		break;
	case DCFG_BY_LOOP:
		if (loop_rows(t, p, n, of) < 0)
			return -1;
		break;
	case DCFG_BY_LINE:
	case DCFG_BY_FILE:
		if (line_rows(t, p, n, of) < 0)
			return -1;
		break;
	case DCFG_BY_THREAD:
		for (k = 0; k < n_threads; k++)
			if (add_row(t, n, (struct dcfg_count_row){ threads[k].tid, NULL, NULL,
			    threads[k].edges, 0, threads[k].instrs }) < 0)
				return -1;
		break;
	}
	return 0;
}

static int
by_instr(const void *a, const void *b)
{
	const struct dcfg_count_row *x = a, *y = b;

	int c;

	if (x->instr != y->instr)
		return x->instr > y->instr ? -1 : 1;
	if (x->name && y->name && (c = strcmp(x->name, y->name)) != 0)
		return c;
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

/* A loop's columns routine .. static: where it is and what it holds. */
static void
out_loop(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_loop *lp, struct dcfg_output *out, const struct dcfg_names *names)
{
	const struct dcfg *d = t->d;
	const struct dcfg_routine *r = &d->routines[lp->routine];
	const struct dcfg_block *entry = dcfg_block_by_node(d, p, r->entry_node_id);
	const struct dcfg_block *head = dcfg_block_by_node(d, p, lp->head_node_id);
	const struct dcfg_source_line *src = head ? dcfg_source_at(d, p, head->addr) : NULL;
	const char *file = src ? dcfg_file_name(d, src->file_name_id) : NULL;
	uint32_t li = (uint32_t)(lp - d->loops);
	struct dcfg_name nm;

	dcfg_out_u64(out, r->entry_node_id);
	dcfg_out_char(out, '\t');
	if (entry) {
		dcfg_name_at(names, entry->addr, &nm);
		dcfg_out_name(out, &nm);
	} else {
		dcfg_out_char(out, '-');
	}
	dcfg_out_char(out, '\t');
	if (src) {
		dcfg_out_str(out, file ? file : "-");
		dcfg_out_char(out, ':');
		dcfg_out_u64(out, src->line);
	} else {
		dcfg_out_char(out, '-');
	}
	dcfg_out_char(out, '\t');
	dcfg_out_u64(out, t->loop_depth[li]);
	dcfg_out_str(out, t->loop_inner[li] ? "\tyes\t" : "\tno\t");
	dcfg_out_u64(out, t->loop_static[li]);
	dcfg_out_char(out, '\t');
}

static void
print_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t n,
    uint64_t total, struct dcfg_output *out, const struct dcfg_names *names)
{
	static const char *const headers[] = {
		"# edge\texecutions\tinstructions\tshare\n",
		"# block\texecutions\tinstructions\tshare\n",
		"# routine\tname\texecutions\tinstructions\tshare\n",
		LOOP_HEADER,
		"# image\texecutions\tinstructions\tshare\n",
		"# type\texecutions\tinstructions\tshare\n",
		"# thread\texecutions\tinstructions\tshare\n",
		"# line\texecutions\tinstructions\tshare\n",
		"# file\texecutions\tinstructions\tshare\n",
	};
	const struct dcfg *d = t->d;
	enum dcfg_count_by by = t->o->by;
	size_t i;

	dcfg_out_str(out, "# process ");
	dcfg_out_u64(out, p->pid);
	dcfg_out_char(out, '\n');
	dcfg_out_str(out, headers[by]);
	if (t->o->top && n > t->o->top)
		n = (size_t)t->o->top;
	for (i = 0; i < n; i++) {
		const struct dcfg_count_row *r = &t->rows[i];
		if (r->name == NULL) {
			dcfg_out_u64(out, r->key);
		} else {
			dcfg_out_str(out, r->name);
			if (r->key == NO_LINE) {
				dcfg_out_str(out, ":-");
			} else if (by == DCFG_BY_LINE) {
				dcfg_out_char(out, ':');
				dcfg_out_u64(out, r->key);
			}
		}
		dcfg_out_char(out, '\t');
		if (by == DCFG_BY_ROUTINE) {
			const struct dcfg_block *b = dcfg_block_by_node(d, p, (uint32_t)r->key);
			struct dcfg_name nm;
			if (b) {
				dcfg_name_at(names, b->addr, &nm);
				dcfg_out_name(out, &nm);
			} else {
				dcfg_out_char(out, '-');
			}
			dcfg_out_char(out, '\t');
		} else if (by == DCFG_BY_LOOP) {
			out_loop(t, p, r->loop, out, names);
		}
		dcfg_out_u64(out, r->exec);
		dcfg_out_char(out, '\t');
		if (by == DCFG_BY_LOOP) {
			dcfg_out_u64(out, r->iter);
			dcfg_out_char(out, '\t');
		}
		dcfg_out_u64(out, r->instr);
		dcfg_out_char(out, '\t');
		out_share(out, r->instr, total);
		dcfg_out_char(out, '\n');
	}
}

int
dcfg_count_table_print(struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_thread *threads, size_t n_threads, struct dcfg_output *out,
    int *overflow)
{
	const struct dcfg_names *names;
	uint64_t total = 0;
	size_t n = 0, i;
	int rc = build_rows(t, p, threads, n_threads, &n, overflow);

	dcfg_tally_clear(&t->exec);
	dcfg_tally_clear(&t->block);
	dcfg_tally_clear(&t->group);
	if (rc < 0)
		return -1;
	for (i = 0; i < n; i++)
		total = add(overflow, total, t->rows[i].instr);
	if (*overflow)
		return -1;   /* nothing is printed of a table that would lie */
	if (n > 1)
		qsort(t->rows, n, sizeof *t->rows, by_instr);
	if ((names = names_of(t, p)) == NULL)
		return -1;
	print_rows(t, p, n, total, out, names);
	return 0;
}
