#include "count_table.h"

#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "vec.h"

struct dcfg_count_row {
	uint64_t key;              /* UINT64_MAX: the key is NAME (images, types) */
	const char *name;
	const struct dcfg_loop *loop;
	uint64_t exec, iter, instr;
};

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
	dcfg_tally_free(&t->exec);
	dcfg_tally_free(&t->block);
	dcfg_tally_free(&t->group);
	free(t->member_first);
	free(t->members);
	free(t->rows);
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

	if (t->member_first)
		return 0;
	for (i = 0; i < d->n_loops; i++)
		n += (size_t)d->loops[i].nodes.count + 1;
	if ((t->member_first = calloc(d->n_blocks + 2, sizeof *t->member_first)) == NULL ||
	    (t->members = malloc((n + 1) * sizeof *t->members)) == NULL)
		return -1;
	each_member(d, count_member, t);
	for (i = 0; i < d->n_blocks; i++)
		t->member_first[i + 2] += t->member_first[i + 1];
	each_member(d, place_member, t);
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
			if (v[0] && add_row(t, n, (struct dcfg_count_row){ UINT64_MAX,
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
			if (v[0] && add_row(t, n, (struct dcfg_count_row){ UINT64_MAX, name ? name : "-",
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

static void
print_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t n,
    uint64_t total, struct dcfg_output *out)
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
		if (r->key == UINT64_MAX)
			dcfg_out_str(out, r->name);
		else
			dcfg_out_u64(out, r->key);
		dcfg_out_char(out, '\t');
		if (by == DCFG_BY_ROUTINE) {
			const struct dcfg_block *b = dcfg_block_by_node(d, p, (uint32_t)r->key);
			if (b)
				dcfg_out_symbol(out, d, p, b->addr);
			else
				dcfg_out_char(out, '-');
			dcfg_out_char(out, '\t');
		} else if (by == DCFG_BY_LOOP) {
			dcfg_out_u64(out, d->routines[r->loop->routine].entry_node_id);
			dcfg_out_char(out, '\t');
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
	print_rows(t, p, n, total, out);
	return 0;
}
