/*
 * After the pass: resolve names and ids, compute absolute addresses, and
 * build the per-process indices behind the lookups in dcfg.h.
 */
#include "index.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[DCFG_EDGE_KIND_COUNT] = {
	[DCFG_EDGE_UNDEFINED] = "UNDEFINED",
	[DCFG_EDGE_OTHER] = "OTHER",
	[DCFG_EDGE_ENTRY] = "ENTRY",
	[DCFG_EDGE_EXIT] = "EXIT",
	[DCFG_EDGE_BRANCH] = "BRANCH",
	[DCFG_EDGE_CONDITIONAL_BRANCH] = "CONDITIONAL_BRANCH",
	[DCFG_EDGE_UNCONDITIONAL_BRANCH] = "UNCONDITIONAL_BRANCH",
	[DCFG_EDGE_DIRECT_BRANCH] = "DIRECT_BRANCH",
	[DCFG_EDGE_INDIRECT_BRANCH] = "INDIRECT_BRANCH",
	[DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH] = "DIRECT_CONDITIONAL_BRANCH",
	[DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH] = "INDIRECT_CONDITIONAL_BRANCH",
	[DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH] = "DIRECT_UNCONDITIONAL_BRANCH",
	[DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH] = "INDIRECT_UNCONDITIONAL_BRANCH",
	[DCFG_EDGE_REP] = "REP",
	[DCFG_EDGE_FALL_THROUGH] = "FALL_THROUGH",
	[DCFG_EDGE_CALL] = "CALL",
	[DCFG_EDGE_DIRECT_CALL] = "DIRECT_CALL",
	[DCFG_EDGE_INDIRECT_CALL] = "INDIRECT_CALL",
	[DCFG_EDGE_RETURN] = "RETURN",
	[DCFG_EDGE_CALL_BYPASS] = "CALL_BYPASS",
	[DCFG_EDGE_SYSTEM_CALL] = "SYSTEM_CALL",
	[DCFG_EDGE_SYSTEM_RETURN] = "SYSTEM_RETURN",
	[DCFG_EDGE_SYSTEM_CALL_BYPASS] = "SYSTEM_CALL_BYPASS",
	[DCFG_EDGE_CONTEXT_CHANGE] = "CONTEXT_CHANGE",
	[DCFG_EDGE_CONTEXT_CHANGE_RETURN] = "CONTEXT_CHANGE_RETURN",
	[DCFG_EDGE_CONTEXT_CHANGE_BYPASS] = "CONTEXT_CHANGE_BYPASS",
	[DCFG_EDGE_EXCLUDED_CODE_BYPASS] = "EXCLUDED_CODE_BYPASS",
	[DCFG_EDGE_INTERRUPT] = "INTERRUPT",
	[DCFG_EDGE_INTERRUPT_RETURN] = "INTERRUPT_RETURN",
	[DCFG_EDGE_INTERRUPT_BYPASS] = "INTERRUPT_BYPASS",
	[DCFG_EDGE_UNKNOWN_IMAGE_BYPASS] = "UNKNOWN_IMAGE_BYPASS",
	[DCFG_EDGE_UNKNOWN] = "UNKNOWN",
};

const char *
dcfg_edge_kind_name(enum dcfg_edge_kind kind)
{
	return (unsigned)kind < DCFG_EDGE_KIND_COUNT ? kind_names[kind] : "UNDEFINED";
}

enum dcfg_edge_kind
dcfg_edge_kind_from_name(const char *name, size_t len)
{
	int k;

	for (k = DCFG_EDGE_ENTRY; k < DCFG_EDGE_KIND_COUNT; k++)
		if (strlen(kind_names[k]) == len && memcmp(kind_names[k], name, len) == 0)
			return (enum dcfg_edge_kind)k;
	return DCFG_EDGE_OTHER;
}

int
dcfg_edge_kind_is_call(enum dcfg_edge_kind kind)
{
	return kind == DCFG_EDGE_CALL || kind == DCFG_EDGE_DIRECT_CALL ||
	    kind == DCFG_EDGE_INDIRECT_CALL || kind == DCFG_EDGE_SYSTEM_CALL;
}

int
dcfg_edge_kind_is_branch(enum dcfg_edge_kind kind)
{
	switch (kind) {
	case DCFG_EDGE_BRANCH: case DCFG_EDGE_CONDITIONAL_BRANCH:
	case DCFG_EDGE_UNCONDITIONAL_BRANCH: case DCFG_EDGE_DIRECT_BRANCH:
	case DCFG_EDGE_INDIRECT_BRANCH: case DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH:
	case DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH: case DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH:
	case DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH: case DCFG_EDGE_FALL_THROUGH:
		return 1;
	default:
		return 0;
	}
}

int
dcfg_edge_kind_is_conditional(enum dcfg_edge_kind kind)
{
	return kind == DCFG_EDGE_CONDITIONAL_BRANCH || kind == DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH ||
	    kind == DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH;
}

int
dcfg_edge_kind_is_bypass(enum dcfg_edge_kind kind)
{
	switch (kind) {
	case DCFG_EDGE_CALL_BYPASS: case DCFG_EDGE_SYSTEM_CALL_BYPASS:
	case DCFG_EDGE_CONTEXT_CHANGE_BYPASS: case DCFG_EDGE_EXCLUDED_CODE_BYPASS:
	case DCFG_EDGE_INTERRUPT_BYPASS: case DCFG_EDGE_UNKNOWN_IMAGE_BYPASS:
		return 1;
	default:
		return 0;
	}
}

static int
by_addr(const void *a, const void *b)
{
	const struct dcfg_addr_index *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Builds a sorted address index over N records, each [addr, addr + size). */
static int
addr_index(struct dcfg_addr_index **out, size_t *n_out, const void *records,
    struct dcfg_range r, size_t stride, size_t addr_off, size_t size_off)
{
	struct dcfg_addr_index *ix;
	uint64_t addr, size;
	size_t i;

	*out = NULL;
	*n_out = 0;
	if (r.count == 0)
		return 0;
	if ((ix = malloc(r.count * sizeof *ix)) == NULL)
		return -1;
	for (i = 0; i < r.count; i++) {
		const char *rec = (const char *)records + (r.first + i) * stride;
		memcpy(&addr, rec + addr_off, sizeof addr);
		memcpy(&size, rec + size_off, sizeof size);
		ix[i].addr = addr;
		/* A zero-sized record covers its own address; none wraps past 2^64. */
		ix[i].end = size == 0 ? addr + 1 : addr + size;
		if (ix[i].end <= addr)
			ix[i].end = UINT64_MAX;
		ix[i].index = (uint32_t)(r.first + i);
	}
	/* Writers usually list records in address order already. */
	for (i = 1; i < r.count && by_addr(&ix[i - 1], &ix[i]) <= 0; i++)
		;
	if (i < r.count)
		qsort(ix, r.count, sizeof *ix, by_addr);
	*out = ix;
	*n_out = r.count;
	return 0;
}

static int
index_process(struct dcfg *d, struct dcfg_process *p, struct dcfg_process_index *px)
{
	uint32_t i, k, b;

	if (p->thread_instr_counts.first != DCFG_NONE)
		p->threads = p->thread_instr_counts.count;
	else
		for (i = 0; i < p->edges.count; i++)
			if (d->edges[p->edges.first + i].counts.count > p->threads)
				p->threads = d->edges[p->edges.first + i].counts.count;

	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		for (k = 0; k < im->blocks.count; k++) {
			struct dcfg_block *bl = &d->blocks[im->blocks.first + k];
			bl->addr = im->load_addr + bl->offset;
		}
		for (k = 0; k < im->symbols.count; k++) {
			struct dcfg_symbol *s = &d->symbols[im->symbols.first + k];
			s->addr = im->load_addr + s->offset;
		}
		for (k = 0; k < im->source_lines.count; k++) {
			struct dcfg_source_line *s = &d->source_lines[im->source_lines.first + k];
			s->addr = im->load_addr + s->offset;
		}
	}
	/* A DCFG without EDGES or BASIC_BLOCKS has NULL arrays: no arithmetic on them. */
	if (dcfg_idmap_build(&px->edge_by_id, p->edges.count ? d->edges + p->edges.first : NULL,
	    p->edges.count, sizeof *d->edges, offsetof(struct dcfg_edge, id)) < 0 ||
	    dcfg_idmap_build(&px->block_by_node, p->blocks.count ? d->blocks + p->blocks.first : NULL,
	    p->blocks.count, sizeof *d->blocks, offsetof(struct dcfg_block, node_id)) < 0)
		return -1;

	for (i = 0; i < p->routines.count; i++) {
		const struct dcfg_routine *r = &d->routines[p->routines.first + i];
		for (k = 0; k < r->nodes.count; k++) {
			b = dcfg_idmap_get(&px->block_by_node,
			    d->routine_nodes[r->nodes.first + k].node_id);
			if (b != DCFG_NONE && d->blocks[p->blocks.first + b].routine == DCFG_NONE)
				d->blocks[p->blocks.first + b].routine = p->routines.first + i;
		}
	}

	if (d->keep & DCFG_LOAD_NO_ADDR_LOOKUPS)
		return 0;
	if (addr_index(&px->blocks_by_addr, &px->n_blocks_by_addr, d->blocks,
	    p->blocks, sizeof *d->blocks, offsetof(struct dcfg_block, addr),
	    offsetof(struct dcfg_block, size)) < 0 ||
	    addr_index(&px->symbols_by_addr, &px->n_symbols_by_addr, d->symbols,
	    p->symbols, sizeof *d->symbols, offsetof(struct dcfg_symbol, addr),
	    offsetof(struct dcfg_symbol, size)) < 0 ||
	    addr_index(&px->source_by_addr, &px->n_source_by_addr, d->source_lines,
	    p->source_lines, sizeof *d->source_lines,
	    offsetof(struct dcfg_source_line, addr),
	    offsetof(struct dcfg_source_line, size)) < 0)
		return -1;
	return 0;
}

int
dcfg_index(struct dcfg *d, const char *file, struct dcfg_error *err)
{
	size_t i;
	uint32_t t;

	if (dcfg_idmap_build(&d->file_name_by_id, d->file_names, d->n_file_names,
	    sizeof *d->file_names, offsetof(struct dcfg_file_name, id)) < 0 ||
	    dcfg_idmap_build(&d->edge_type_by_id, d->edge_types, d->n_edge_types,
	    sizeof *d->edge_types, offsetof(struct dcfg_edge_type, id)) < 0 ||
	    dcfg_idmap_build(&d->special_by_id, d->special_nodes, d->n_special_nodes,
	    sizeof *d->special_nodes, offsetof(struct dcfg_special_node, id)) < 0)
		return dcfg_error_set(err, file, "out of memory");
	for (i = 0; i < d->n_edges; i++) {
		t = dcfg_idmap_get(&d->edge_type_by_id, d->edges[i].type_id);
		d->edges[i].kind = t == DCFG_NONE ? DCFG_EDGE_UNDEFINED :
		    d->edge_types[t].kind;
	}
	if (d->n_processes > 0 &&
	    (d->process_index = calloc(d->n_processes, sizeof *d->process_index)) == NULL)
		return dcfg_error_set(err, file, "out of memory");
	for (i = 0; i < d->n_processes; i++)
		if (index_process(d, &d->processes[i], &d->process_index[i]) < 0)
			return dcfg_error_set(err, file, "out of memory");
	return 0;
}

void
dcfg_free(struct dcfg *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; d->process_index != NULL && i < d->n_processes; i++) {
		struct dcfg_process_index *px = &d->process_index[i];
		dcfg_idmap_free(&px->edge_by_id);
		dcfg_idmap_free(&px->block_by_node);
		free(px->blocks_by_addr);
		free(px->symbols_by_addr);
		free(px->source_by_addr);
	}
	free(d->process_index);
	dcfg_idmap_free(&d->file_name_by_id);
	dcfg_idmap_free(&d->edge_type_by_id);
	dcfg_idmap_free(&d->special_by_id);
	free(d->file_names);
	free(d->edge_types);
	free(d->special_nodes);
	free(d->processes);
	free(d->images);
	free(d->symbols);
	free(d->source_lines);
	free(d->blocks);
	free(d->routines);
	free(d->routine_nodes);
	free(d->loops);
	free(d->edges);
	free(d->node_ids);
	free(d->counts);
	free(d->strings);
	free(d);
}

/* ---- lookups ---- */

const struct dcfg_process *
dcfg_find_process(const struct dcfg *d, uint64_t pid)
{
	size_t i;

	for (i = 0; i < d->n_processes; i++)
		if (d->processes[i].pid == pid)
			return &d->processes[i];
	return NULL;
}

const struct dcfg_edge *
dcfg_edge_by_id(const struct dcfg *d, const struct dcfg_process *p,
    uint32_t edge_id)
{
	uint32_t i = dcfg_idmap_get(&dcfg_process_index(d, p)->edge_by_id, edge_id);

	return i == DCFG_NONE ? NULL : &d->edges[p->edges.first + i];
}

const struct dcfg_block *
dcfg_block_by_node(const struct dcfg *d, const struct dcfg_process *p,
    uint32_t node_id)
{
	uint32_t i = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, node_id);

	return i == DCFG_NONE ? NULL : &d->blocks[p->blocks.first + i];
}

size_t
dcfg_edge_instrs(const struct dcfg *d, const struct dcfg_process *p, const uint32_t *ids,
    size_t n, uint64_t *instrs)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct dcfg_edge *e = dcfg_edge_by_id(d, p, ids[i]);
		const struct dcfg_block *b;
		if (e == NULL)
			return i;
		b = dcfg_block_by_node(d, p, e->source);
		instrs[i] = b ? b->num_instrs : 0;
	}
	return n;
}

size_t
dcfg_addr_index_after(const struct dcfg_addr_index *ix, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The record covering ADDR: the last one starting at or before it, or,
 * when records nest (a symbol inside a larger one), one of the few before.
 */
static const struct dcfg_addr_index *
covering(const struct dcfg_addr_index *ix, size_t n, uint64_t addr)
{
	size_t lo = dcfg_addr_index_after(ix, n, addr), steps;

	for (steps = 0; lo > 0 && steps < DCFG_ADDR_NESTING; lo--, steps++)
		if (addr < ix[lo - 1].end)
			return &ix[lo - 1];
	return NULL;
}

const struct dcfg_block *
dcfg_block_at(const struct dcfg *d, const struct dcfg_process *p, uint64_t addr)
{
	const struct dcfg_process_index *px = dcfg_process_index(d, p);
	const struct dcfg_addr_index *x = covering(px->blocks_by_addr,
	    px->n_blocks_by_addr, addr);

	return x ? &d->blocks[x->index] : NULL;
}

const struct dcfg_symbol *
dcfg_symbol_at(const struct dcfg *d, const struct dcfg_process *p,
    uint64_t addr, uint64_t *offset)
{
	const struct dcfg_process_index *px = dcfg_process_index(d, p);
	const struct dcfg_addr_index *x = covering(px->symbols_by_addr,
	    px->n_symbols_by_addr, addr);

	if (x == NULL)
		return NULL;
	if (offset)
		*offset = addr - x->addr;
	return &d->symbols[x->index];
}

const struct dcfg_source_line *
dcfg_source_at(const struct dcfg *d, const struct dcfg_process *p, uint64_t addr)
{
	const struct dcfg_process_index *px = dcfg_process_index(d, p);
	const struct dcfg_addr_index *x = covering(px->source_by_addr,
	    px->n_source_by_addr, addr);

	return x ? &d->source_lines[x->index] : NULL;
}

const struct dcfg_routine *
dcfg_block_routine(const struct dcfg *d, const struct dcfg_block *b)
{
	return b->routine == DCFG_NONE ? NULL : &d->routines[b->routine];
}

const struct dcfg_image *
dcfg_block_image(const struct dcfg *d, const struct dcfg_block *b)
{
	return b->image < d->n_images ? &d->images[b->image] : NULL;
}

const struct dcfg_loop *
dcfg_routine_loops(const struct dcfg *d, const struct dcfg_routine *r, size_t *n)
{
	*n = r->loops.count;
	return r->loops.count ? &d->loops[r->loops.first] : NULL;
}

const char *
dcfg_string(const struct dcfg *d, uint32_t offset)
{
	return offset < d->n_strings ? d->strings + offset : "";
}

const char *
dcfg_file_name(const struct dcfg *d, uint32_t file_name_id)
{
	uint32_t i = dcfg_idmap_get(&d->file_name_by_id, file_name_id);

	return i == DCFG_NONE ? NULL : dcfg_string(d, d->file_names[i].name);
}

enum dcfg_special_kind
dcfg_special_node(const struct dcfg *d, uint32_t node_id)
{
	uint32_t i = dcfg_idmap_get(&d->special_by_id, node_id);

	return i == DCFG_NONE ? DCFG_SPECIAL_NONE : d->special_nodes[i].kind;
}
