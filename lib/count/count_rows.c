#include "count_rows.h"

#include "common/vec.h"

/*
 * dcfg-count's tables made from the edges' and the blocks' executions
 * alone: by edge, type, block, image and routine; and by thread, from the
 * threads' totals. Each is a kind's ROWS (bykind.h). And what every
 * kind's rows are made with.
 */

int
dcfg_count_add_row(struct dcfg_count_table *t, size_t *n, struct dcfg_count_row r)
{
	if (dcfg_reserve((void **)&t->rows, &t->cap_rows, *n + 1, sizeof *t->rows) < 0)
		return -1;
	t->rows[(*n)++] = r;
	return 0;
}

uint64_t
dcfg_count_source_instrs(const struct dcfg *d, const struct dcfg_process *p, const struct dcfg_edge *e)
{
	const struct dcfg_block *b = dcfg_block_by_node(d, p, e->source);

	return b ? b->num_instrs : 0;
}

int
dcfg_count_thread_cmp(const void *a, const void *b)
{
	const struct dcfg_count_row *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

int
dcfg_count_edge_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;

	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		uint64_t x = t->exec.value[t->exec.touched[k]];
		if (x && dcfg_count_add_row(t, n, (struct dcfg_count_row){ e->id, NULL, NULL, x, 0,
		    dcfg_count_mul(of, x, dcfg_count_source_instrs(d, p, e)) }) < 0)
			return -1;
	}
	return 0;
}

int
dcfg_count_type_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;

	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		uint64_t x = t->exec.value[t->exec.touched[k]], *v;
		uint32_t ty = dcfg_idmap_get(&d->edge_type_by_id, e->type_id);
		v = dcfg_tally_at(&t->group, ty == DCFG_NONE ? (uint32_t)d->n_edge_types : ty);
		v[0] = dcfg_count_add(of, v[0], x);
		v[1] = dcfg_count_add(of, v[1], dcfg_count_mul(of, x, dcfg_count_source_instrs(d, p, e)));
	}
	for (k = 0; k < t->group.n_touched; k++) {
		uint32_t ty = t->group.touched[k];
		const uint64_t *v = &t->group.value[3 * (size_t)ty];
		if (v[0] && dcfg_count_add_row(t, n, (struct dcfg_count_row){ 0,
		    ty < d->n_edge_types ? dcfg_string(d, d->edge_types[ty].name) : "UNDEFINED",
		    NULL, v[0], 0, v[1] }) < 0)
			return -1;
	}
	return 0;
}

int
dcfg_count_block_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;

	(void)p;
	for (k = 0; k < t->block.n_touched; k++) {
		const struct dcfg_block *bl = &d->blocks[t->block.touched[k]];
		uint64_t x = t->block.value[t->block.touched[k]];
		if (x && dcfg_count_add_row(t, n, (struct dcfg_count_row){ bl->node_id, NULL, NULL, x, 0,
		    dcfg_count_mul(of, x, bl->num_instrs) }) < 0)
			return -1;
	}
	return 0;
}

int
dcfg_count_image_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;

	(void)p;
	for (k = 0; k < t->block.n_touched; k++) {
		const struct dcfg_block *bl = &d->blocks[t->block.touched[k]];
		uint64_t x = t->block.value[t->block.touched[k]];
		uint64_t *v = dcfg_tally_at(&t->group, bl->image);
		v[0] = dcfg_count_add(of, v[0], x);
		v[1] = dcfg_count_add(of, v[1], dcfg_count_mul(of, x, bl->num_instrs));
	}
	for (k = 0; k < t->group.n_touched; k++) {
		const struct dcfg_image *im = &d->images[t->group.touched[k]];
		const uint64_t *v = &t->group.value[3 * (size_t)t->group.touched[k]];
		const char *name = dcfg_file_name(d, im->file_name_id);
		if (v[0] && dcfg_count_add_row(t, n, (struct dcfg_count_row){ 0, name ? name : "-",
		    NULL, v[0], 0, v[1] }) < 0)
			return -1;
	}
	return 0;
}

/* A routine's executions are the calls into its entry from outside it; its instructions, its blocks'. */
int
dcfg_count_routine_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;

	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		const struct dcfg_block *tb = dcfg_block_by_node(d, p, e->target);
		const struct dcfg_block *sb = dcfg_block_by_node(d, p, e->source);
		if (tb && tb->routine != DCFG_NONE &&
		    d->routines[tb->routine].entry_node_id == e->target &&
		    (sb == NULL || sb->routine != tb->routine)) {
			uint64_t *v = dcfg_tally_at(&t->group, tb->routine);
			v[0] = dcfg_count_add(of, v[0], t->exec.value[t->exec.touched[k]]);
		}
	}
	for (k = 0; k < t->block.n_touched; k++) {
		const struct dcfg_block *bl = &d->blocks[t->block.touched[k]];
		if (bl->routine != DCFG_NONE) {
			uint64_t *v = dcfg_tally_at(&t->group, bl->routine);
			v[1] = dcfg_count_add(of, v[1], dcfg_count_mul(of, t->block.value[t->block.touched[k]], bl->num_instrs));
		}
	}
	for (k = 0; k < t->group.n_touched; k++) {
		const struct dcfg_routine *r = &d->routines[t->group.touched[k]];
		const uint64_t *v = &t->group.value[3 * (size_t)t->group.touched[k]];
		if ((v[0] || v[1]) && dcfg_count_add_row(t, n, (struct dcfg_count_row){
		    r->entry_node_id, NULL, NULL, v[0], 0, v[1] }) < 0)
			return -1;
	}
	return 0;
}

void
dcfg_count_out_routine(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *r, struct dcfg_table *w, const struct dcfg_names *names)
{
	const struct dcfg_block *b = dcfg_block_by_node(t->d, p, (uint32_t)r->key);

	dcfg_names_cell(w, b, names);
}

int
dcfg_count_thread_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	size_t k;

	(void)p;
	(void)of;
	for (k = 0; k < t->n_threads; k++)
		if (dcfg_count_add_row(t, n, (struct dcfg_count_row){ t->threads[k].tid, NULL, NULL,
		    t->threads[k].edges, 0, t->threads[k].instrs }) < 0)
			return -1;
	return 0;
}
