#include "count_source.h"

#include <stdlib.h>
#include <string.h>

#include "dcfg/lines.h"

/*
 * dcfg-count's tables that say where code is: loops, with their place,
 * depth and static instructions, and source lines and files.
 */

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
			if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, d->node_ids[lp->nodes.first + k])) != DCFG_NONE)
				fn(ctx, p->blocks.first + b, (struct dcfg_loop_member){ li, 1, 0 });
		if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, lp->head_node_id)) != DCFG_NONE)
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
		uint32_t h = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, lp->head_node_id), b;
		t->loop_depth[li] = 1;
		for (k = 0; k < lp->nodes.count; k++)
			if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, d->node_ids[lp->nodes.first + k])) != DCFG_NONE)
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

static int
block_in_loop(const struct dcfg_count_table *t, uint32_t block, uint32_t loop)
{
	uint32_t k;

	for (k = t->member_first[block]; k < t->member_first[block + 1]; k++)
		if (t->members[k].loop == loop && t->members[k].is_node)
			return 1;
	return 0;
}

/* Loop rows: the loops around the blocks that ran, and the edges into their heads. */
int
dcfg_count_loop_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k;
	uint32_t j, b;

	if (index_loops(t) < 0)
		return -1;
	for (k = 0; k < t->block.n_touched; k++) {
		uint32_t gb = t->block.touched[k];
		uint64_t in = dcfg_count_mul(of, t->block.value[gb], d->blocks[gb].num_instrs);
		for (j = t->member_first[gb]; j < t->member_first[gb + 1]; j++)
			if (t->members[j].is_node) {
				uint64_t *v = dcfg_tally_at(&t->group, t->members[j].loop);
				v[2] = dcfg_count_add(of, v[2], in);
			}
	}
	for (k = 0; k < t->exec.n_touched; k++) {
		const struct dcfg_edge *e = &d->edges[t->exec.touched[k]];
		uint64_t x = t->exec.value[t->exec.touched[k]];
		uint32_t sb = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->source);
		if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target)) == DCFG_NONE)
			continue;
		b += p->blocks.first;
		for (j = t->member_first[b]; j < t->member_first[b + 1]; j++) {
			uint32_t li = t->members[j].loop;
			const struct dcfg_loop *lp = &d->loops[li];
			uint64_t *v;
			if (!t->members[j].is_head)
				continue;
			v = dcfg_tally_at(&t->group, li);
			if (dcfg_range_has_node(d, lp->back_edge_sources, e->source))
				v[1] = dcfg_count_add(of, v[1], x);
			else if (!(sb != DCFG_NONE ? block_in_loop(t, p->blocks.first + sb, li) :
			    dcfg_range_has_node(d, lp->nodes, e->source)))
				v[0] = dcfg_count_add(of, v[0], x);
		}
	}
	for (k = 0; k < t->group.n_touched; k++) {
		uint32_t li = t->group.touched[k];
		const uint64_t *v = &t->group.value[3 * (size_t)li];
		if ((v[0] || v[1] || v[2]) && dcfg_count_add_row(t, n, (struct dcfg_count_row){
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
	int by_line;               /* lines, not files */
};

/* The group of a SOURCE_DATA record (DCFG_NONE: the block's image, no line). */
static uint32_t
line_group(const struct dcfg_count_table *t, int by_line, uint32_t source, uint32_t image)
{
	const struct dcfg *d = t->d;
	uint32_t f;

	if (by_line)
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
	uint32_t g = line_group(w->t, w->by_line, source, w->image);
	uint64_t *v = dcfg_tally_at(&w->t->group, g);

	if (g != w->last)
		v[0] = dcfg_count_add(w->of, v[0], w->exec);
	v[1] = dcfg_count_add(w->of, v[1], dcfg_count_mul(w->of, w->exec, instrs));
	w->last = g;
}

/* Lines or files: each executed block's instructions shared among its lines (lines.h). */
static int
line_or_file_rows(struct dcfg_count_table *t, const struct dcfg_process *p, int by_line,
    size_t *n, int *of)
{
	const struct dcfg *d = t->d;
	size_t k, nl;

	if (t->line_ids.of == NULL && dcfg_line_ids_init(&t->line_ids, d) < 0)
		return -1;
	nl = by_line ? t->line_ids.n : d->n_file_names + 1;
	for (k = 0; k < t->block.n_touched; k++) {
		const struct dcfg_block *b = &d->blocks[t->block.touched[k]];
		struct line_walk w = { t, t->block.value[t->block.touched[k]], b->image, DCFG_NONE, of,
			by_line };
		dcfg_block_lines(d, p, b, add_line_share, &w);
	}
	for (k = 0; k < t->group.n_touched; k++) {
		uint32_t g = t->group.touched[k];
		const uint64_t *v = &t->group.value[3 * (size_t)g];
		struct dcfg_count_row r = { 0, NULL, NULL, v[0], 0, v[1] };
		if (g >= nl) {          /* code on no line: its image's file name */
			const char *name = dcfg_file_name(d, d->images[g - nl].file_name_id);
			r.name = name ? name : "-";
			r.key = DCFG_COUNT_NO_LINE;
		} else if (by_line) {
			const struct dcfg_source_line *s = &d->source_lines[t->line_ids.record[g]];
			const char *name = dcfg_file_name(d, s->file_name_id);
			r.name = name ? name : "-";
			r.key = s->line;
		} else {
			r.name = g < d->n_file_names ? dcfg_string(d, d->file_names[g].name) : "-";
		}
		if ((r.exec || r.instr) && dcfg_count_add_row(t, n, r) < 0)
			return -1;
	}
	return 0;
}

int
dcfg_count_line_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	return line_or_file_rows(t, p, 1, n, of);
}

int
dcfg_count_file_rows(struct dcfg_count_table *t, const struct dcfg_process *p, size_t *n, int *of)
{
	return line_or_file_rows(t, p, 0, n, of);
}

/* A loop's cells routine .. static: where it is and what it holds. */
void
dcfg_count_out_loop(const struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_row *row, struct dcfg_table *w, const struct dcfg_names *names)
{
	const struct dcfg *d = t->d;
	const struct dcfg_loop *lp = row->loop;
	const struct dcfg_routine *r = &d->routines[lp->routine];
	const struct dcfg_block *head = dcfg_block_by_node(d, p, lp->head_node_id);
	const struct dcfg_source_line *src = head ? dcfg_source_at(d, p, head->addr) : NULL;
	const char *file = src ? dcfg_file_name(d, src->file_name_id) : NULL;
	uint32_t li = (uint32_t)(lp - d->loops);

	dcfg_table_u64(w, r->entry_node_id);
	dcfg_names_cell(w, dcfg_block_by_node(d, p, r->entry_node_id), names);
	if (src) {
		struct dcfg_table_piece at[] = { { DCFG_PIECE_NAME, file ? file : "-", 0 },
			{ DCFG_PIECE_TEXT, ":", 0 }, { DCFG_PIECE_U64, NULL, src->line } };
		dcfg_table_pieces(w, at, 3);
	} else {
		dcfg_table_text(w, "-");
	}
	dcfg_table_u64(w, t->loop_depth[li]);
	dcfg_table_text(w, t->loop_inner[li] ? "yes" : "no");
	dcfg_table_u64(w, t->loop_static[li]);
}
