#include "callgrind.h"

#include <stdlib.h>

#include "convert.h"

/* Name compression (spec: "(id) name"); one id space per kind of name. */
struct names {
	uint32_t *ids;             /* per slot: 0 until first written */
	uint32_t next;
};

struct writer {
	struct dcfg_output *out;
	const struct dcfg_profile *pf;
	struct names objects;      /* per image, and one for no image */
	struct names files;        /* per FILE_NAMES entry, and one for "???" */
	struct names funcs;
	uint32_t unknown_object, unknown_file;
	uint32_t file;             /* the current file of cost lines */
};

static void
out_name(struct dcfg_output *out, const char *key, struct names *n, uint32_t slot,
    const char *text)
{
	dcfg_out_str(out, key);
	dcfg_out_char(out, '(');
	if (n->ids[slot] == 0) {
		n->ids[slot] = ++n->next;
		dcfg_out_u64(out, n->ids[slot]);
		dcfg_out_str(out, ") ");
		dcfg_out_escaped(out, text);
	} else {
		dcfg_out_u64(out, n->ids[slot]);
		dcfg_out_char(out, ')');
	}
	dcfg_out_char(out, '\n');
}

static uint32_t
file_slot(const struct writer *w, const struct dcfg_source_line *src)
{
	uint32_t i = src ? dcfg_idmap_get(&w->pf->d->file_name_by_id, src->file_name_id) : DCFG_NONE;

	return i == DCFG_NONE ? w->unknown_file : i;
}

static void
out_file(struct writer *w, const char *key, uint32_t slot)
{
	const struct dcfg *d = w->pf->d;

	out_name(w->out, key, &w->files, slot, slot == w->unknown_file ? "???" :
	    dcfg_string(d, d->file_names[slot].name));
}

static uint32_t
func_file(const struct writer *w, const struct dcfg_profile_func *f)
{
	return file_slot(w, dcfg_source_at(w->pf->d, w->pf->p, f->addr));
}

static void
out_object(struct writer *w, const char *key, const struct dcfg_profile_func *f)
{
	const struct dcfg *d = w->pf->d;
	const struct dcfg_block *b = dcfg_profile_block(w->pf, f->entry);
	const struct dcfg_image *im = dcfg_block_image(d, b);
	const char *name = im ? dcfg_file_name(d, im->file_name_id) : NULL;

	out_name(w->out, key, &w->objects, im ? b->image : w->unknown_object,
	    name ? name : "???");
}

static void
out_func(struct writer *w, const char *key, uint32_t f)
{
	out_name(w->out, key, &w->funcs, f, dcfg_profile_name(w->pf, &w->pf->funcs[f]));
}

/* "0xADDR LINE" of an address; switches the current file to its own first. */
static void
out_position(struct writer *w, uint64_t addr, const struct dcfg_source_line *src)
{
	dcfg_out_hex(w->out, addr);
	dcfg_out_char(w->out, ' ');
	dcfg_out_u64(w->out, src ? src->line : 0);
}

/* A cost line: the position and COST. */
static void
out_cost(struct writer *w, uint64_t addr, const struct dcfg_source_line *src, uint64_t cost)
{
	out_position(w, addr, src);
	dcfg_out_char(w->out, ' ');
	dcfg_out_u64(w->out, cost);
	dcfg_out_char(w->out, '\n');
}

static void
switch_file(struct writer *w, const struct dcfg_source_line *src)
{
	uint32_t slot;

	if (src && (slot = file_slot(w, src)) != w->file) {
		w->file = slot;
		out_file(w, "fi=", slot);
	}
}

static void
block_costs(struct writer *w, const struct dcfg_block *b, uint64_t exec)
{
	struct dcfg_segments it;
	struct dcfg_segment s;

	dcfg_segments_begin(&it, w->pf, b);
	while (dcfg_segments_next(&it, &s)) {
		switch_file(w, s.src);
		out_cost(w, s.addr, s.src, exec * s.instrs);
	}
}

static void
block_calls(struct writer *w, uint32_t b)
{
	const struct dcfg_profile *pf = w->pf;
	const struct dcfg *d = pf->d;
	const struct dcfg_block *bl = dcfg_profile_block(pf, b);
	uint64_t site = bl->addr + bl->last_instr_offset;
	const struct dcfg_source_line *ssrc = dcfg_source_at(d, pf->p, site);
	uint32_t k, e, t, callee;

	for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
		const struct dcfg_edge *edge;
		const struct dcfg_block *tb;
		e = pf->out_edges[k];
		edge = &d->edges[pf->p->edges.first + e];
		if (pf->role[e] != DCFG_ROLE_CALL || pf->count[e] == 0 ||
		    (t = dcfg_profile_block_of(pf, edge->target)) == DCFG_NONE)
			continue;
		callee = dcfg_profile_callee(pf, t);
		if (callee != pf->block_func[t])
			t = pf->funcs[callee].entry;
		tb = dcfg_profile_block(pf, t);
		switch_file(w, ssrc);
		out_object(w, "cob=", &pf->funcs[callee]);
		out_file(w, "cfl=", func_file(w, &pf->funcs[callee]));
		out_func(w, "cfn=", callee);
		dcfg_out_str(w->out, "calls=");
		dcfg_out_u64(w->out, pf->count[e]);
		dcfg_out_char(w->out, ' ');
		out_position(w, tb->addr, dcfg_source_at(d, pf->p, tb->addr));
		dcfg_out_char(w->out, '\n');
		out_cost(w, site, ssrc, pf->incl[e]);
		/* the stubs' instructions: the caller's own, at the call */
		if (dcfg_profile_stub_cost(pf, e))
			out_cost(w, site, ssrc, pf->stub_cost[e]);
	}
}

static void
block_jumps(struct writer *w, uint32_t b)
{
	const struct dcfg_profile *pf = w->pf;
	const struct dcfg *d = pf->d;
	const struct dcfg_block *bl = dcfg_profile_block(pf, b);
	uint64_t site = bl->addr + bl->last_instr_offset;
	const struct dcfg_source_line *ssrc = dcfg_source_at(d, pf->p, site), *tsrc;
	uint32_t k, e, t, f = pf->block_func[b];
	int conditional = 0;

	for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++)
		conditional |= dcfg_edge_kind_is_conditional(d->edges[pf->p->edges.first + pf->out_edges[k]].kind);
	for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
		const struct dcfg_edge *edge;
		const struct dcfg_block *tb;
		uint32_t slot;
		e = pf->out_edges[k];
		edge = &d->edges[pf->p->edges.first + e];
		if (!dcfg_edge_kind_is_branch(edge->kind) || pf->count[e] == 0 ||
		    (t = dcfg_profile_block_of(pf, edge->target)) == DCFG_NONE ||
		    pf->block_func[t] != f)
			continue;
		tb = dcfg_profile_block(pf, t);
		tsrc = dcfg_source_at(d, pf->p, tb->addr);
		switch_file(w, ssrc);
		if (tsrc && (slot = file_slot(w, tsrc)) != w->file)
			out_file(w, "jfi=", slot);
		if (dcfg_edge_kind_is_conditional(edge->kind) ||
		    (edge->kind == DCFG_EDGE_FALL_THROUGH && conditional)) {
			dcfg_out_str(w->out, "jcnd=");
			dcfg_out_u64(w->out, pf->count[e]);
			dcfg_out_char(w->out, '/');
			dcfg_out_u64(w->out, pf->exec[b]);
		} else {
			dcfg_out_str(w->out, "jump=");
			dcfg_out_u64(w->out, pf->count[e]);
		}
		dcfg_out_char(w->out, ' ');
		out_position(w, tb->addr, tsrc);
		dcfg_out_char(w->out, '\n');
		out_position(w, site, ssrc);
		dcfg_out_char(w->out, '\n');
	}
}

static void
function(struct writer *w, uint32_t fi)
{
	const struct dcfg_profile *pf = w->pf;
	const struct dcfg_profile_func *f = &pf->funcs[fi];
	uint64_t any = 0;
	uint32_t k, b;

	for (k = 0; k < f->count; k++)
		any |= pf->exec[pf->blocks[f->first + k]];
	if (any == 0 || (dcfg_profile_folded(pf, fi) && pf->stub_left[fi] == 0))
		return;
	w->file = func_file(w, f);
	out_object(w, "ob=", f);
	out_file(w, "fl=", w->file);
	out_func(w, "fn=", fi);
	if (dcfg_profile_folded(pf, fi)) {
		/* what no call ran of a folded stub, at its entry */
		const struct dcfg_source_line *src = dcfg_source_at(pf->d, pf->p, f->addr);
		switch_file(w, src);
		out_cost(w, f->addr, src, pf->stub_left[fi]);
		dcfg_out_char(w->out, '\n');
		return;
	}
	for (k = 0; k < f->count; k++) {
		b = pf->blocks[f->first + k];
		if (pf->exec[b] == 0)
			continue;
		block_costs(w, dcfg_profile_block(pf, b), pf->exec[b]);
		block_calls(w, b);
		block_jumps(w, b);
	}
	dcfg_out_char(w->out, '\n');
}

int
dcfg_callgrind_write(struct dcfg_output *out, const struct dcfg_profile *pf,
    const struct dcfg_callgrind_header *h)
{
	const struct dcfg *d = pf->d;
	struct writer w = { .out = out, .pf = pf };
	const char *cmd;
	uint32_t f;
	int rc = -1;

	w.unknown_object = (uint32_t)d->n_images;
	w.unknown_file = (uint32_t)d->n_file_names;
	w.objects.ids = calloc(d->n_images + 1, sizeof *w.objects.ids);
	w.files.ids = calloc(d->n_file_names + 1, sizeof *w.files.ids);
	w.funcs.ids = calloc(pf->n_funcs + 1, sizeof *w.funcs.ids);
	if (!w.objects.ids || !w.files.ids || !w.funcs.ids)
		goto out;

	/* callgrind_annotate: positions before events, which ends the header. */
	dcfg_out_str(out, "# callgrind format\nversion: 1\ncreator: ");
	dcfg_out_escaped(out, h->creator);
	dcfg_out_str(out, "\npid: ");
	dcfg_out_u64(out, pf->p->pid);
	dcfg_out_char(out, '\n');
	if (h->thread != DCFG_ALL_THREADS) {
		dcfg_out_str(out, "thread: ");
		dcfg_out_u64(out, h->thread);
		dcfg_out_char(out, '\n');
	}
	if ((cmd = h->cmd ? h->cmd : dcfg_profile_main_image_name(pf)) != NULL) {
		dcfg_out_str(out, "cmd: ");
		dcfg_out_escaped(out, cmd);
		dcfg_out_char(out, '\n');
	}
	if (pf->estimated)
		dcfg_out_str(out, "desc: Inclusive: estimated from call counts as gprof does (no trace)\n");
	dcfg_out_str(out, "positions: instr line\nevents: Ir\nsummary: ");
	dcfg_out_u64(out, pf->total);
	dcfg_out_str(out, "\n\n");
	for (f = 0; f < pf->n_funcs && !dcfg_output_failed(out); f++)
		function(&w, f);
	dcfg_out_str(out, "totals: ");
	dcfg_out_u64(out, pf->total);
	dcfg_out_char(out, '\n');
	rc = 0;
out:
	free(w.objects.ids);
	free(w.files.ids);
	free(w.funcs.ids);
	return rc;
}

static int
write_profile(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err)
{
	struct dcfg_callgrind_header h = { o->creator, o->cmd, thread };

	if (dcfg_callgrind_write(out, pf, &h) < 0)
		return dcfg_error_set(err, o->dcfg_path, "out of memory");
	return 0;
}

int
dcfg_convert_callgrind(const struct dcfg_convert *c, struct dcfg_error *err)
{
	return dcfg_convert_profiles(c, "callgrind.out", write_profile, err);
}
