/* The section 2 checks of dcfg-check. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ID 0x7fffffffu

struct checker {
	const struct dcfg *d;
	struct dcfg_findings *f;
	const struct dcfg_process *p;
	char where[128];
};

static void
say(struct checker *c, enum dcfg_severity sev, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(struct checker *c, enum dcfg_severity sev, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	dcfg_finding(c->f, sev, c->where, what);
}

static void
at(struct checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
at(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->where, sizeof c->where, fmt, ap);
	va_end(ap);
}

static int
by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Ids out of range (ZERO_OK: 0 allowed) or repeated, among N ids. ITEM
 * ("block", "edge", "image") names each finding's place in the process;
 * NULL keeps the place already set.
 */
static void
check_ids(struct checker *c, uint32_t *ids, size_t n, int zero_ok, const char *kind,
    const char *twice, const char *item)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((ids[i] == 0 && !zero_ok) || ids[i] > MAX_ID) {
			if (item)
				at(c, "process %llu %s %u", (unsigned long long)c->p->pid, item, ids[i]);
			say(c, DCFG_SEV_ERROR, "%s id %u is out of range", kind, ids[i]);
		}
	if (n > 1)
		qsort(ids, n, sizeof *ids, by_u32);
	for (i = 1; i < n; i++)
		if (ids[i] == ids[i - 1] && (i < 2 || ids[i - 2] != ids[i])) {
			if (item)
				at(c, "process %llu %s %u", (unsigned long long)c->p->pid, item, ids[i]);
			say(c, DCFG_SEV_ERROR, "%s id %u appears twice%s", kind, ids[i], twice);
		}
}

#define COLLECT(arr, first, n, field) do { \
	for (size_t k_ = 0; k_ < (n); k_++) \
		ids[k_] = (arr)[(first) + k_].field; \
} while (0)

static int
check_tables(struct checker *c, uint32_t *ids)
{
	const struct dcfg *d = c->d;

	at(c, "file names");
	COLLECT(d->file_names, 0, d->n_file_names, id);
	check_ids(c, ids, d->n_file_names, 0, "file name", "", NULL);
	at(c, "edge types");
	COLLECT(d->edge_types, 0, d->n_edge_types, id);
	check_ids(c, ids, d->n_edge_types, 0, "edge type", "", NULL);
	at(c, "special nodes");
	COLLECT(d->special_nodes, 0, d->n_special_nodes, id);
	check_ids(c, ids, d->n_special_nodes, 0, "special node", "", NULL);
	return 0;
}

/*
 * A control character (C0, DEL, C1) in a name: every output escapes it
 * (dcfg-stream(5), "Names"), so the tables read \n or \x1b where the
 * program's own tools show something else. (A byte that is not UTF-8
 * does not get this far: the JSON reader refuses it.)
 */
static void
check_name(struct checker *c, const char *table, const char *item, uint64_t id, const char *name)
{
	char shown[256], what[64];
	const char *s = name;

	for (;;) {
		s += dcfg_escape_kept(s);
		if (*s != '\\')
			break;
		s++;
	}
	if (*s == '\0')
		return;
	dcfg_escape(shown, sizeof shown, name);
	/* A symbol has no id: its offset in the image stands for one. */
	if (strcmp(item, "symbol") == 0)
		snprintf(what, sizeof what, "symbol at offset 0x%llx", (unsigned long long)id);
	else
		snprintf(what, sizeof what, "%s %llu", item, (unsigned long long)id);
	at(c, "%s", table);
	say(c, DCFG_SEV_WARNING, "%s has a control character in its name: %s", what, shown);
}

static void
check_names(struct checker *c)
{
	const struct dcfg *d = c->d;
	char table[64];
	size_t i, k;

	for (i = 0; i < d->n_file_names; i++)
		check_name(c, "file names", "file name", d->file_names[i].id,
		    dcfg_string(d, d->file_names[i].name));
	for (i = 0; i < d->n_edge_types; i++)
		check_name(c, "edge types", "edge type", d->edge_types[i].id,
		    dcfg_string(d, d->edge_types[i].name));
	for (i = 0; i < d->n_special_nodes; i++)
		check_name(c, "special nodes", "special node", d->special_nodes[i].id,
		    dcfg_string(d, d->special_nodes[i].name));
	for (i = 0; i < d->n_processes; i++) {
		const struct dcfg_process *p = &d->processes[i];
		for (k = 0; k < p->symbols.count; k++) {
			const struct dcfg_symbol *sym = &d->symbols[p->symbols.first + k];
			snprintf(table, sizeof table, "process %llu image %u symbols",
			    (unsigned long long)p->pid, d->images[sym->image].id);
			check_name(c, table, "symbol", sym->offset, dcfg_string(d, sym->name));
		}
	}
}

static int
is_node(const struct checker *c, uint32_t node)
{
	return dcfg_block_by_node(c->d, c->p, node) != NULL ||
	    dcfg_special_node(c->d, node) != DCFG_SPECIAL_NONE;
}

/* Is NODE a block of the image with index IMAGE? */
static int
block_of_image(const struct checker *c, uint32_t node, uint32_t image)
{
	const struct dcfg_block *b = dcfg_block_by_node(c->d, c->p, node);

	return b && b->image == image;
}

static int check_loops(struct checker *c, const struct dcfg_routine *r, uint32_t *stamp,
    uint32_t *head_loop, uint32_t *token);

/* -1: out of memory. */
static int
check_references(struct checker *c)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint32_t *stamp = calloc((size_t)p->blocks.count + 1, sizeof *stamp);
	uint32_t *head_loop = malloc(((size_t)p->blocks.count + 1) * sizeof *head_loop);
	uint32_t i, k, token = 0;
	int rc = 0;

	if (stamp == NULL || head_loop == NULL) {
		free(stamp);
		free(head_loop);
		return -1;
	}
	for (i = 0; i < p->blocks.count; i++)
		head_loop[i] = DCFG_NONE;

	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		at(c, "process %llu image %u", (unsigned long long)p->pid, im->id);
		if (im->file_name_id != DCFG_NONE && dcfg_file_name(d, im->file_name_id) == NULL)
			say(c, DCFG_SEV_ERROR, "file name id %u is not in FILE_NAMES", im->file_name_id);
		for (k = 0; k < im->source_lines.count; k++) {
			uint32_t f = d->source_lines[im->source_lines.first + k].file_name_id;
			if (dcfg_file_name(d, f) == NULL)
				say(c, DCFG_SEV_ERROR, "source data names file name id %u, which is not in FILE_NAMES", f);
		}
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		at(c, "process %llu edge %u", (unsigned long long)p->pid, e->id);
		if (e->kind == DCFG_EDGE_UNDEFINED)
			say(c, DCFG_SEV_ERROR, "edge type id %u is not in EDGE_TYPES", e->type_id);
		if (!is_node(c, e->source))
			say(c, DCFG_SEV_ERROR, "source node %u is neither a block nor a special node", e->source);
		if (!is_node(c, e->target))
			say(c, DCFG_SEV_ERROR, "target node %u is neither a block nor a special node", e->target);
		if (dcfg_special_node(d, e->source) == DCFG_SPECIAL_UNKNOWN ||
		    dcfg_special_node(d, e->target) == DCFG_SPECIAL_UNKNOWN)
			say(c, DCFG_SEV_WARNING, "uses the UNKNOWN special node");
	}
	for (i = 0; i < p->routines.count; i++) {
		const struct dcfg_routine *r = &d->routines[p->routines.first + i];
		uint32_t image_id = d->images[r->image].id;
		at(c, "process %llu routine %u", (unsigned long long)p->pid, r->entry_node_id);
		if (!block_of_image(c, r->entry_node_id, r->image))
			say(c, DCFG_SEV_ERROR, "entry node %u is not a block of image %u", r->entry_node_id, image_id);
		for (k = 0; k < r->exits.count; k++)
			if (!block_of_image(c, d->node_ids[r->exits.first + k], r->image))
				say(c, DCFG_SEV_ERROR, "exit node %u is not a block of image %u",
				    d->node_ids[r->exits.first + k], image_id);
		for (k = 0; k < r->nodes.count; k++)
			if (!block_of_image(c, d->routine_nodes[r->nodes.first + k].node_id, r->image))
				say(c, DCFG_SEV_ERROR, "node %u is not a block of image %u",
				    d->routine_nodes[r->nodes.first + k].node_id, image_id);
		if (check_loops(c, r, stamp, head_loop, &token) < 0)
			rc = -1;
	}
	free(stamp);
	free(head_loop);
	return rc;
}

/* Is NODE in the set last stamped with TOKEN (or, not being a block, in R)? */
static int
stamped(const struct checker *c, const uint32_t *stamp, uint32_t token, struct dcfg_range r,
    uint32_t node)
{
	uint32_t b = dcfg_idmap_get(&dcfg_process_index(c->d, c->p)->block_by_node, node);

	return b != DCFG_NONE ? stamp[b] == token : dcfg_range_has_node(c->d, r, node);
}

static void
stamp_nodes(const struct checker *c, uint32_t *stamp, uint32_t token, struct dcfg_range r)
{
	uint32_t j, b;

	for (j = 0; j < r.count; j++)
		if ((b = dcfg_idmap_get(&dcfg_process_index(c->d, c->p)->block_by_node, c->d->node_ids[r.first + j])) != DCFG_NONE)
			stamp[b] = token;
}

/*
 * A routine's loops: nodes in the routine, back-edge sources in the loop,
 * nodes in the parent loop. Membership goes through per-block stamps, so
 * deeply nested loops cost their size, not its square.
 */
static int
check_loops(struct checker *c, const struct dcfg_routine *r, uint32_t *stamp,
    uint32_t *head_loop, uint32_t *token)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint32_t k, j, b;

	/* the last loop of each head, as a search from the first would find */
	for (k = 0; k < r->loops.count; k++)
		if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, d->loops[r->loops.first + k].head_node_id)) != DCFG_NONE)
			head_loop[b] = k;
	for (k = 0; k < r->loops.count; k++) {
		const struct dcfg_loop *lp = &d->loops[r->loops.first + k], *parent = NULL;
		at(c, "process %llu loop %u", (unsigned long long)p->pid, lp->head_node_id);
		for (j = 0; j < lp->nodes.count; j++) {
			uint32_t n = d->node_ids[lp->nodes.first + j];
			const struct dcfg_block *bl = dcfg_block_by_node(d, p, n);
			if (bl == NULL || bl->routine != lp->routine)
				say(c, DCFG_SEV_ERROR, "node %u is not in routine %u", n, r->entry_node_id);
		}
		stamp_nodes(c, stamp, ++*token, lp->nodes);
		for (j = 0; j < lp->back_edge_sources.count; j++) {
			uint32_t n = d->node_ids[lp->back_edge_sources.first + j];
			if (!stamped(c, stamp, *token, lp->nodes, n))
				say(c, DCFG_SEV_ERROR, "back-edge source %u is not in the loop", n);
		}
		if (lp->parent_head_node_id == 0)
			continue;
		if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, lp->parent_head_node_id)) != DCFG_NONE) {
			if (head_loop[b] != DCFG_NONE)
				parent = &d->loops[r->loops.first + head_loop[b]];
		} else {
			for (j = r->loops.count; j-- > 0 && parent == NULL;)   /* a head that is no block */
				if (d->loops[r->loops.first + j].head_node_id == lp->parent_head_node_id)
					parent = &d->loops[r->loops.first + j];
		}
		if (parent == NULL) {
			say(c, DCFG_SEV_ERROR, "parent loop head %u is not a loop of routine %u",
			    lp->parent_head_node_id, r->entry_node_id);
			continue;
		}
		stamp_nodes(c, stamp, ++*token, parent->nodes);
		for (j = 0; j < lp->nodes.count; j++)
			if (!stamped(c, stamp, *token, parent->nodes, d->node_ids[lp->nodes.first + j]))
				say(c, DCFG_SEV_ERROR, "node %u is not in parent loop %u",
				    d->node_ids[lp->nodes.first + j], parent->head_node_id);
	}
	for (k = 0; k < r->loops.count; k++)
		if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, d->loops[r->loops.first + k].head_node_id)) != DCFG_NONE)
			head_loop[b] = DCFG_NONE;
	return 0;
}

static int
check_counts(struct checker *c)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint64_t *incoming = calloc(p->blocks.count + 1, sizeof *incoming), sum = 0;
	uint32_t i;
	int all_counted = p->blocks.count > 0;

	if (incoming == NULL)
		return -1;
	at(c, "process %llu", (unsigned long long)p->pid);
	if (p->has_instr_count && p->thread_instr_counts.first != DCFG_NONE) {
		for (i = 0; i < p->thread_instr_counts.count; i++)
			sum += d->counts[p->thread_instr_counts.first + i];
		if (sum != p->instr_count)
			say(c, DCFG_SEV_ERROR, "INSTR_COUNT %llu is not the sum of INSTR_COUNT_PER_THREAD (%llu)",
			    (unsigned long long)p->instr_count, (unsigned long long)sum);
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		uint32_t b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target);
		if (b != DCFG_NONE)
			incoming[b] += e->total;
		if (p->thread_instr_counts.first != DCFG_NONE && e->counts.count > p->threads) {
			at(c, "process %llu edge %u", (unsigned long long)p->pid, e->id);
			say(c, DCFG_SEV_ERROR, "COUNT_PER_THREAD has %u entries but the process has %u threads",
			    e->counts.count, p->threads);
		}
	}
	sum = 0;
	for (i = 0; i < p->blocks.count; i++) {
		const struct dcfg_block *b = &d->blocks[p->blocks.first + i];
		if (!b->has_count) {
			all_counted = 0;
			continue;
		}
		sum += b->count * b->num_instrs;
		if (p->edges.count > 0 && b->count != incoming[i]) {
			at(c, "process %llu block %u", (unsigned long long)p->pid, b->node_id);
			say(c, DCFG_SEV_ERROR, "COUNT %llu is not the sum of the counts of its incoming edges (%llu)",
			    (unsigned long long)b->count, (unsigned long long)incoming[i]);
		}
	}
	/*
	 * Spec 2.8 makes INSTR_COUNT the process's instruction count and 2.13
	 * a block's instructions COUNT x NUM_INSTRS, but nothing ties the two:
	 * Intel's writer counts instructions its blocks do not (1 to 25 in
	 * real files). A fact for the reader, not a fault.
	 */
	if (all_counted && p->has_instr_count && sum != p->instr_count) {
		at(c, "process %llu", (unsigned long long)p->pid);
		say(c, DCFG_SEV_NOTE, "INSTR_COUNT %llu differs from the sum of COUNT x NUM_INSTRS over its blocks (%llu)",
		    (unsigned long long)p->instr_count, (unsigned long long)sum);
	}
	free(incoming);
	return 0;
}

struct pair {
	uint32_t node, idom;
};

static int
by_node(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

static const struct pair *
find_pair(const struct pair *v, size_t n, uint32_t node)
{
	struct pair key = { node, 0 };

	return n ? bsearch(&key, v, n, sizeof *v, by_node) : NULL;
}

static int
check_routines(struct checker *c)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint32_t *in = calloc(p->blocks.count + 1, sizeof *in), i, k, b;

	if (in == NULL)
		return -1;
	for (i = 0; i < p->routines.count; i++) {
		const struct dcfg_routine *r = &d->routines[p->routines.first + i];
		struct pair *v = malloc((r->nodes.count + 1) * sizeof *v);
		uint8_t *state = calloc((size_t)r->nodes.count + 1, 1);
		uint32_t *walk = malloc(((size_t)r->nodes.count + 1) * sizeof *walk);
		if (v == NULL || state == NULL || walk == NULL) {
			free(v);
			free(state);
			free(walk);
			free(in);
			return -1;
		}
		for (k = 0; k < r->nodes.count; k++) {
			const struct dcfg_routine_node *rn = &d->routine_nodes[r->nodes.first + k];
			v[k] = (struct pair){ rn->node_id, rn->idom_node_id };
			if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, rn->node_id)) != DCFG_NONE)
				in[b]++;
		}
		if (r->nodes.count > 1)
			qsort(v, r->nodes.count, sizeof *v, by_node);
		at(c, "process %llu routine %u", (unsigned long long)p->pid, r->entry_node_id);
		const struct pair *entry = find_pair(v, r->nodes.count, r->entry_node_id);
		if (entry && entry->idom != entry->node)
			say(c, DCFG_SEV_ERROR, "the entry node's IDOM_NODE_ID is %u, not itself", entry->idom);
		/*
		 * Up the dominator tree: every chain must end at the entry without
		 * a cycle. Each node's answer is kept (state: 0 unknown, 1 reaches
		 * the entry, 2 does not, 3 on the walk), so a long chain is walked once.
		 */
		for (k = 0; k < r->nodes.count; k++) {
			uint32_t x = k, n = 0, res;
			const struct pair *up;
			while (state[x] == 0) {
				if (v[x].node == r->entry_node_id) {
					state[x] = 1;
					break;
				}
				state[x] = 3;
				walk[n++] = x;
				if (v[x].idom == v[x].node ||
				    (up = find_pair(v, r->nodes.count, v[x].idom)) == NULL)
					break;
				x = (uint32_t)(up - v);
			}
			res = state[x] == 1 ? 1 : 2;
			while (n)
				state[walk[--n]] = (uint8_t)res;
		}
		for (k = 0; k < r->nodes.count; k++) {
			const struct pair *x = &v[k];
			if (x->node == r->entry_node_id)
				continue;
			if (find_pair(v, r->nodes.count, x->idom) == NULL)
				say(c, DCFG_SEV_ERROR, "node %u has IDOM_NODE_ID %u, which is not in the routine",
				    x->node, x->idom);
			else if (state[k] != 1)
				say(c, DCFG_SEV_ERROR, "node %u's IDOM_NODE_ID chain does not reach the entry", x->node);
		}
		free(state);
		free(walk);
		free(v);
	}
	for (i = 0; i < p->blocks.count; i++) {
		/*
		 * Judged once per node id (a repeated row is its own finding), and
		 * only in an image with routines: ROUTINES is optional (2.10), and
		 * "every node in exactly one routine" (2.14) speaks of its rows.
		 */
		if (in[i] == 1 || d->images[d->blocks[p->blocks.first + i].image].routines.count == 0 ||
		    dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, d->blocks[p->blocks.first + i].node_id) != i)
			continue;
		at(c, "process %llu block %u", (unsigned long long)p->pid,
		    d->blocks[p->blocks.first + i].node_id);
		if (in[i] == 0)
			say(c, DCFG_SEV_ERROR, "node %u is in no routine", d->blocks[p->blocks.first + i].node_id);
		else
			say(c, DCFG_SEV_ERROR, "node %u is in %u routines", d->blocks[p->blocks.first + i].node_id, in[i]);
	}
	free(in);
	return 0;
}

/* Spec 2.16: with the call counted, its bypass edge should be 0. */
static int
check_bypass(struct checker *c)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p = c->p;
	uint8_t *calls = calloc(p->blocks.count + 1, 1);   /* block ends in a counted call */
	uint32_t i, b;

	if (calls == NULL)
		return -1;
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		if (e->total > 0 && dcfg_edge_kind_is_call(e->kind) && e->kind != DCFG_EDGE_SYSTEM_CALL &&
		    (b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->source)) != DCFG_NONE)
			calls[b] = 1;
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		if (e->kind != DCFG_EDGE_CALL_BYPASS || e->total == 0 ||
		    (b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->source)) == DCFG_NONE || !calls[b])
			continue;
		at(c, "process %llu edge %u", (unsigned long long)p->pid, e->id);
		say(c, DCFG_SEV_WARNING, "bypass edge counted (%llu) while its block's call edge is counted too",
		    (unsigned long long)e->total);
	}
	free(calls);
	return 0;
}

int
dcfg_check_dcfg(const struct dcfg *d, struct dcfg_findings *f)
{
	struct checker c = { .d = d, .f = f };
	size_t most = d->n_file_names + d->n_edge_types + d->n_special_nodes + d->n_blocks +
	    d->n_edges + d->n_images + 1;
	uint32_t *ids = malloc(most * sizeof *ids);
	size_t i;
	uint32_t k;

	if (ids == NULL)
		return -1;
	check_tables(&c, ids);
	check_names(&c);
	for (i = 0; i < d->n_processes && !f->stopped; i++) {
		const struct dcfg_process *p = c.p = &d->processes[i];
		COLLECT(d->images, p->images.first, p->images.count, id);
		check_ids(&c, ids, p->images.count, 1, "image", " in the process", "image");
		COLLECT(d->edges, p->edges.first, p->edges.count, id);
		check_ids(&c, ids, p->edges.count, 0, "edge", " in the process", "edge");
		COLLECT(d->blocks, p->blocks.first, p->blocks.count, node_id);
		check_ids(&c, ids, p->blocks.count, 0, "node", " in the process", "block");
		for (k = 0; k < p->blocks.count; k++) {
			const struct dcfg_block *b = &d->blocks[p->blocks.first + k];
			if (dcfg_special_node(d, b->node_id) != DCFG_SPECIAL_NONE) {
				at(&c, "process %llu block %u", (unsigned long long)p->pid, b->node_id);
				say(&c, DCFG_SEV_ERROR, "node id %u is also a special node", b->node_id);
			}
		}
		if (check_references(&c) < 0 || check_counts(&c) < 0 || check_routines(&c) < 0 || check_bypass(&c) < 0) {
			free(ids);
			return -1;
		}
	}
	free(ids);
	return 0;
}
