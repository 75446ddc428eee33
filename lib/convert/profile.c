#include "profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gprof.h"
#include "dcfg/names.h"
#include "common/vec.h"

uint32_t
dcfg_profile_block_of(const struct dcfg_profile *pf, uint32_t node_id)
{
	return dcfg_idmap_get(&dcfg_process_index(pf->d, pf->p)->block_by_node, node_id);
}

const struct dcfg_image *
dcfg_main_image(const struct dcfg *d, const struct dcfg_process *p)
{
	const struct dcfg_image *best = NULL;
	uint32_t i;

	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		if (dcfg_file_name(d, im->file_name_id) != NULL && (best == NULL || im->id < best->id))
			best = im;
	}
	return best;
}

const char *
dcfg_profile_main_image_name(const struct dcfg_profile *pf)
{
	const struct dcfg_image *im = dcfg_main_image(pf->d, pf->p);

	return im ? dcfg_file_name(pf->d, im->file_name_id) : NULL;
}

static enum dcfg_call_role
role_of(enum dcfg_edge_kind k)
{
	if (dcfg_edge_kind_is_call(k))
		return DCFG_ROLE_CALL;
	if (k == DCFG_EDGE_RETURN || k == DCFG_EDGE_SYSTEM_RETURN)
		return DCFG_ROLE_RETURN;
	return DCFG_ROLE_NONE;
}

/* ---- edges out of each block, and the calls' return sites ---- */

struct out_key {
	uint64_t target_addr;
	uint32_t source, id, edge;
};

static int
by_out_key(const void *a, const void *b)
{
	const struct out_key *x = a, *y = b;

	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	if (x->target_addr != y->target_addr)
		return x->target_addr < y->target_addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
build_edges(struct dcfg_profile *pf)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	uint32_t nb = p->blocks.count, ne = p->edges.count, i, n = 0, sb, tb;
	struct out_key *keys = malloc((ne + 1) * sizeof *keys);
	uint32_t *bypass = malloc((nb + 1) * sizeof *bypass);
	int rc = -1;

	if (keys == NULL || bypass == NULL)
		goto out;
	for (i = 0; i < nb; i++)
		bypass[i] = DCFG_NONE;
	for (i = 0; i < ne; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		sb = dcfg_profile_block_of(pf, e->source);
		tb = dcfg_profile_block_of(pf, e->target);
		pf->role[i] = (uint8_t)role_of(e->kind);
		if (sb == DCFG_NONE)
			continue;
		keys[n++] = (struct out_key){ tb == DCFG_NONE ? UINT64_MAX :
		    dcfg_profile_block(pf, tb)->addr, sb, e->id, i };
		pf->out_first[sb + 1]++;
		if ((e->kind == DCFG_EDGE_CALL_BYPASS || e->kind == DCFG_EDGE_SYSTEM_CALL_BYPASS) &&
		    bypass[sb] == DCFG_NONE)
			bypass[sb] = tb;
	}
	for (i = 0; i < nb; i++)
		pf->out_first[i + 1] += pf->out_first[i];
	qsort(keys, n, sizeof *keys, by_out_key);
	for (i = 0; i < n; i++)
		pf->out_edges[i] = keys[i].edge;

	for (i = 0; i < ne; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		pf->site[i] = DCFG_NONE;
		if (pf->role[i] == DCFG_ROLE_RETURN) {
			pf->site[i] = dcfg_profile_block_of(pf, e->target);
		} else if (pf->role[i] == DCFG_ROLE_CALL &&
		    (sb = dcfg_profile_block_of(pf, e->source)) != DCFG_NONE) {
			const struct dcfg_block *b = dcfg_profile_block(pf, sb), *next;
			if (bypass[sb] != DCFG_NONE) {
				pf->site[i] = bypass[sb];
			} else if (b->addr + b->size > b->addr &&
			    (next = dcfg_block_at(d, p, b->addr + b->size)) != NULL &&
			    next->addr == b->addr + b->size) {
				pf->site[i] = (uint32_t)(next - d->blocks - p->blocks.first);
			}
		}
	}
	rc = 0;
out:
	free(keys);
	free(bypass);
	return rc;
}

/* ---- functions ---- */

struct block_key {
	uint64_t addr;
	uint32_t func, block;     /* func: routine-relative, or routines + n for a lone block */
};

static int
by_block_key(const void *a, const void *b)
{
	const struct block_key *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}


static int
by_entry(const void *a, const void *b)
{
	const struct dcfg_profile_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->routine != y->routine)
		return x->routine < y->routine ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* A function is named as every table names code (names.h), kept in pf->names. */
static int
name_func(struct dcfg_profile *pf, const struct dcfg_names *names, size_t *cap,
    struct dcfg_profile_func *f)
{
	struct dcfg_name nm;
	size_t len;

	dcfg_name_at(names, dcfg_profile_block(pf, f->entry)->addr, &nm);
	len = dcfg_name_format(&nm, NULL, 0);
	f->name = (uint32_t)pf->n_names;
	if (dcfg_reserve((void **)&pf->names, cap, pf->n_names + len + 1, 1) < 0)
		return -1;
	dcfg_name_format(&nm, pf->names + pf->n_names, len + 1);
	pf->n_names += len + 1;
	return 0;
}

static int
build_funcs(struct dcfg_profile *pf)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	uint32_t nb = p->blocks.count, nr = p->routines.count, i, k, lone = 0, nf = 0;
	struct block_key *keys = malloc((nb + 1) * sizeof *keys);
	struct dcfg_names names = { 0 };
	size_t cap = 0;
	int rc = -1;

	if (keys == NULL)
		goto out;
	for (i = 0; i < nb; i++) {
		const struct dcfg_block *b = dcfg_profile_block(pf, i);
		uint32_t r = b->routine;
		keys[i].addr = b->addr;
		keys[i].block = i;
		keys[i].func = r != DCFG_NONE && r >= p->routines.first && r - p->routines.first < nr ?
		    r - p->routines.first : nr + lone++;
	}
	qsort(keys, nb, sizeof *keys, by_block_key);
	for (i = 0; i < nb; i = k) {
		struct dcfg_profile_func *f = &pf->funcs[nf++];
		for (k = i; k < nb && keys[k].func == keys[i].func; k++)
			pf->blocks[k] = keys[k].block;
		f->first = i;
		f->count = k - i;
		f->entry = keys[i].block;
		f->routine = DCFG_NONE;
		if (keys[i].func < nr) {
			const struct dcfg_routine *r = &d->routines[p->routines.first + keys[i].func];
			uint32_t e = dcfg_profile_block_of(pf, r->entry_node_id);
			f->routine = p->routines.first + keys[i].func;
			if (e != DCFG_NONE && dcfg_profile_block(pf, e)->routine == f->routine)
				f->entry = e;
		}
		f->addr = dcfg_profile_block(pf, f->entry)->addr;
	}
	pf->n_funcs = nf;
	qsort(pf->funcs, nf, sizeof *pf->funcs, by_entry);
	if (dcfg_names_init(&names, d, p) < 0)
		goto out;
	for (i = 0; i < nf; i++) {
		const struct dcfg_profile_func *f = &pf->funcs[i];
		for (k = 0; k < f->count; k++)
			pf->block_func[pf->blocks[f->first + k]] = i;
		if (name_func(pf, &names, &cap, &pf->funcs[i]) < 0)
			goto out;
	}
	rc = 0;
out:
	dcfg_names_free(&names);
	free(keys);
	return rc;
}

int
dcfg_profile_init(struct dcfg_profile *pf, const struct dcfg *d,
    const struct dcfg_process *p, const char *name, struct dcfg_error *err)
{
	size_t nb = (size_t)p->blocks.count + 1, ne = (size_t)p->edges.count + 1;

	memset(pf, 0, sizeof *pf);
	pf->d = d;
	pf->p = p;
	pf->funcs = malloc(nb * sizeof *pf->funcs);
	pf->blocks = malloc(nb * sizeof *pf->blocks);
	pf->block_func = malloc(nb * sizeof *pf->block_func);
	pf->out_first = calloc(nb + 1, sizeof *pf->out_first);
	pf->out_edges = malloc(ne * sizeof *pf->out_edges);
	pf->role = malloc(ne);
	pf->site = malloc(ne * sizeof *pf->site);
	pf->count = malloc(ne * sizeof *pf->count);
	pf->incl = malloc(ne * sizeof *pf->incl);
	pf->exec = malloc(nb * sizeof *pf->exec);
	if (pf->funcs == NULL || pf->blocks == NULL || pf->block_func == NULL ||
	    pf->out_first == NULL || pf->out_edges == NULL || pf->role == NULL ||
	    pf->site == NULL || pf->count == NULL || pf->incl == NULL || pf->exec == NULL ||
	    build_edges(pf) < 0 || build_funcs(pf) < 0) {
		dcfg_profile_free(pf);
		return dcfg_error_set(err, name, "out of memory");
	}
	return 0;
}

void
dcfg_profile_free(struct dcfg_profile *pf)
{
	free(pf->funcs);
	free(pf->blocks);
	free(pf->block_func);
	free(pf->out_first);
	free(pf->out_edges);
	free(pf->role);
	free(pf->site);
	free(pf->names);
	free(pf->count);
	free(pf->exec);
	free(pf->incl);
	free(pf->fold);
	free(pf->stub_depth);
	free(pf->stub_in_first);
	free(pf->stub_in);
	free(pf->stub_cost);
	free(pf->stub_left);
	memset(pf, 0, sizeof *pf);
}

int
dcfg_profile_view(struct dcfg_profile *pf, uint32_t thread, const uint64_t *incl,
    const char *name, struct dcfg_error *err)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	uint32_t i, b;
	uint64_t c;

	memset(pf->exec, 0, ((size_t)p->blocks.count + 1) * sizeof *pf->exec);
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		if (thread == DCFG_ALL_THREADS)
			c = e->total;
		else
			c = e->counts.first != DCFG_NONE && thread < e->counts.count ?
			    d->counts[e->counts.first + thread] : 0;
		pf->count[i] = c;
		if ((b = dcfg_profile_block_of(pf, e->target)) != DCFG_NONE &&
		    __builtin_add_overflow(pf->exec[b], c, &pf->exec[b]))
			return dcfg_error_set(err, name, "process %" PRIu64 ": the executions of block %"
			    PRIu32 " do not fit in 64 bits", p->pid, e->target);
	}
	pf->total = 0;
	for (b = 0; b < p->blocks.count; b++) {
		const struct dcfg_block *bl = dcfg_profile_block(pf, b);
		if (__builtin_mul_overflow(pf->exec[b], bl->num_instrs, &c) ||
		    __builtin_add_overflow(pf->total, c, &pf->total))
			return dcfg_error_set(err, name, "process %" PRIu64 ": the instructions "
			    "executed do not fit in 64 bits (block %" PRIu32 ")", p->pid, bl->node_id);
	}
	if (incl) {
		memcpy(pf->incl, incl, (size_t)p->edges.count * sizeof *incl);
		pf->estimated = 0;
		if (pf->fold && dcfg_profile_stubs_view(pf, incl + p->edges.count + 1) < 0)
			return dcfg_error_set(err, name, "out of memory");
		return 0;
	}
	pf->estimated = 1;
	if ((pf->fold && dcfg_profile_stubs_view(pf, NULL) < 0) || dcfg_gprof_estimate(pf) < 0)
		return dcfg_error_set(err, name, "out of memory");
	return 0;
}

/* ---- a block's cost lines ---- */

void
dcfg_segments_begin(struct dcfg_segments *it, const struct dcfg_profile *pf,
    const struct dcfg_block *b)
{
	it->pf = pf;
	dcfg_line_pieces_begin(&it->pieces, pf->d, pf->p, b);
}

int
dcfg_segments_next(struct dcfg_segments *it, struct dcfg_segment *s)
{
	struct dcfg_line_piece piece;

	if (!dcfg_line_pieces_next(&it->pieces, &piece))
		return 0;
	s->addr = piece.addr;
	s->instrs = piece.instrs;
	s->src = piece.source == DCFG_NONE ? NULL : &it->pf->d->source_lines[piece.source];
	return 1;
}
