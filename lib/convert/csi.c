/*
 * dcfg-convert --to csi: CSI path-tracing metadata (csi-cc's .debug_PT
 * text) for every routine of one process: its blocks with their source
 * lines, its control-flow edges, and a Ball-Larus numbering of its acyclic
 * paths (csi_paths.c).
 */
#include "csi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "common/vec.h"

static void
write_block(struct csi *s, uint32_t v)
{
	struct dcfg_output *out = s->out;
	const struct csi_node *nd = &s->nodes[v];
	struct dcfg_segments it;
	struct dcfg_segment seg;
	char buf[24];
	int any = 0;

	dcfg_out_u64(out, nd->id);
	if (v == s->exit) {
		dcfg_out_str(out, "|EXIT\n");
		return;
	}
	if (v == s->entry)
		dcfg_out_str(out, "|ENTRY");
	if (nd->block != DCFG_NONE) {
		dcfg_segments_begin(&it, s->pf, dcfg_profile_block(s->pf, nd->block));
		while (dcfg_segments_next(&it, &seg)) {
			uint64_t line, i;
			size_t len = sizeof buf;
			if (seg.src == NULL)
				continue;
			line = seg.src->line;
			do {
				buf[--len] = (char)('0' + line % 10);
				line /= 10;
			} while (line);
			buf[--len] = '|';
			for (i = 0; i < seg.instrs; i++) {
				dcfg_out_bytes(out, buf + len, sizeof buf - len);
				/* A huge NUM_INSTRS: stop once the reader has gone. */
				if ((i & 0xffff) == 0xffff && dcfg_output_failed(out))
					return;
			}
			any = 1;
		}
	}
	if (s->first[v + 1] - s->first[v] == 1 && (s->edges[s->first[v]].back ||
	    s->edges[s->first[v]].dst == s->exit)) {
		dcfg_out_str(out, "|-1");
		any = 1;
	}
	if (!any)
		dcfg_out_str(out, "|NULL");
	dcfg_out_char(out, '\n');
}

static void
write_routine(struct csi *s, const char *name)
{
	struct dcfg_output *out = s->out;
	uint32_t v, k;

	dcfg_out_str(out, "#\n");
	dcfg_out_escaped(out, name);
	dcfg_out_char(out, '\n');
	write_block(s, s->exit);
	write_block(s, s->entry);
	for (v = 0; v < s->n_nodes; v++)
		if (v != s->exit && v != s->entry)
			write_block(s, v);
	dcfg_out_str(out, "$\n");
	for (k = 0; k < s->n_edges; k++) {
		const struct csi_edge *e = &s->edges[k];
		dcfg_out_u64(out, s->nodes[e->src].id);
		dcfg_out_str(out, e->back ? "~>" : "->");
		dcfg_out_u64(out, s->nodes[e->dst].id);
		dcfg_out_char(out, '|');
		dcfg_out_u64(out, e->val);
		dcfg_out_char(out, '$');
		dcfg_out_u64(out, e->val);
		dcfg_out_char(out, '\n');
	}
}

/* Room for routine FI: nodes, edges and stacks sized by its blocks and edges. */
static int
reserve(struct csi *s, uint32_t fi)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg_profile_func *f = &pf->funcs[fi];
	size_t out = 0, n_edges, n_nodes;
	uint32_t k, b;

	for (k = 0; k < f->count; k++) {
		b = pf->blocks[f->first + k];
		out += pf->out_first[b + 1] - pf->out_first[b];
	}
	/*
	 * Intra edges, one edge to EXIT per block at most, the synthetic
	 * entry's, then one more per split; nodes: the blocks, EXIT, the
	 * synthetic entry, one per split.
	 */
	n_edges = 2 * (out + f->count + 1);
	n_nodes = (size_t)f->count + 2 + out + f->count + 1;
	if (dcfg_reserve((void **)&s->nodes, &s->cap_nodes, n_nodes, sizeof *s->nodes) < 0 ||
	    dcfg_reserve((void **)&s->first, &s->cap_first, n_nodes + 1, sizeof *s->first) < 0 ||
	    dcfg_reserve((void **)&s->dummies, &s->cap_dummies, n_edges, sizeof *s->dummies) < 0 ||
	    dcfg_reserve((void **)&s->stack, &s->cap_stack, n_nodes, sizeof *s->stack) < 0 ||
	    dcfg_reserve((void **)&s->edges, &s->cap_edges, n_edges, sizeof *s->edges) < 0 ||
	    dcfg_reserve((void **)&s->edges2, &s->cap_edges2, n_edges, sizeof *s->edges2) < 0)
		return -1;
	return 0;
}

/* Tells the caller, when it listens, that routine NAME is left out. */
static void
warn_left_out(const struct dcfg_convert_options *o, const char *name)
{
	char shown[256], msg[512];

	if (o->warning == NULL)
		return;
	dcfg_escape(shown, sizeof shown, name);
	snprintf(msg, sizeof msg, "routine %s: more than 2^64-1 acyclic paths, left out", shown);
	o->warning(o->warning_ctx, msg);
}

/* 0 (written or left out), -1 out of memory, -2 a cycle in the DAG (a bug). */
static int
routine(struct csi *s, uint32_t fi)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg_profile_func *f = &pf->funcs[fi];
	const char *name = dcfg_profile_name(pf, f);
	uint32_t k;
	int rc;

	if (reserve(s, fi) < 0)
		return -1;
	rc = dcfg_csi_paths(s, fi);
	if (rc == 1) {
		warn_left_out(s->o, name);
		rc = 0;
	} else if (rc == 0) {
		write_routine(s, name);
	}
	for (k = 0; k < f->count; k++)
		s->loc[pf->blocks[f->first + k]] = DCFG_NONE;
	return rc;
}

int
dcfg_convert_csi(const struct dcfg_convert *c, struct dcfg_error *err)
{
	const struct dcfg_process *p;
	struct dcfg_profile pf;
	struct csi s = { .pf = &pf, .out = c->out, .o = c->o };
	size_t n, i;
	uint32_t fi;
	int rc = 0;

	if ((p = dcfg_convert_processes(c, 0, &n, err)) == NULL)
		return -1;
	if (dcfg_profile_init(&pf, c->d, p, c->o->dcfg_path, err) < 0)
		return -1;
	if ((s.loc = malloc(((size_t)p->blocks.count + 1) * sizeof *s.loc)) == NULL) {
		rc = dcfg_error_set(err, c->o->dcfg_path, "out of memory");
		goto out;
	}
	/*
	 * Lines repeat once per instruction, so a NUM_INSTRS beyond one per
	 * byte, or past any block's, would have us write without end, gigabytes
	 * from a few bytes of input: refused before any output.
	 */
	for (i = 0; i < p->blocks.count; i++) {
		const struct dcfg_block *b = dcfg_profile_block(&pf, (uint32_t)i);
		s.loc[i] = DCFG_NONE;
		if (b->routine != DCFG_NONE && b->num_instrs > (b->size ? b->size : 1)) {
			rc = dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 ": block %"
			    PRIu32 " has %" PRIu64 " instructions in %" PRIu64 " bytes", p->pid,
			    b->node_id, b->num_instrs, b->size);
			goto out;
		}
		if (b->routine != DCFG_NONE && b->num_instrs > DCFG_CSI_BLOCK_INSTRS_MAX) {
			rc = dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 ": block %"
			    PRIu32 " has %" PRIu64 " instructions, more than the %lu a CSI line "
			    "list holds", p->pid, b->node_id, b->num_instrs,
			    (unsigned long)DCFG_CSI_BLOCK_INSTRS_MAX);
			goto out;
		}
	}
	for (fi = 0; fi < pf.n_funcs && rc == 0 && !dcfg_output_failed(c->out); fi++) {
		if (pf.funcs[fi].routine == DCFG_NONE)
			continue;
		rc = routine(&s, fi);
		if (rc == -1)
			dcfg_error_set(err, c->o->dcfg_path, "out of memory");
		else if (rc == -2) {
			char shown[160];
			dcfg_escape(shown, sizeof shown, dcfg_profile_name(&pf, &pf.funcs[fi]));
			rc = dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 ", routine %s: "
			    "the path graph has a cycle (a bug in dcfg-convert)", p->pid, shown);
		}
	}
out:
	free(s.loc);
	free(s.nodes);
	free(s.edges);
	free(s.edges2);
	free(s.first);
	free(s.dummies);
	free(s.pairs);
	free(s.stack);
	dcfg_profile_free(&pf);
	return rc;
}
