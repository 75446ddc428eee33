/*
 * dcfg-convert --to dot --routine/--node: which routines are chosen, the
 * edges between their blocks, and a stub node per other side (a routine
 * not chosen, or a special node) and direction for the edges that enter
 * or leave them. Each routine's blocks in its loops are dot_loops.c's. The
 * exact text is described in dcfg-convert(1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot.h"
#include "routine_hint.h"
#include "common/json.h"

/*
 * The function --routine names: entry node id first, then Callgrind name,
 * as the input spells it or as the tables show it (escaped).
 */
static const struct dcfg_profile_func *
find_routine(const struct dcfg_profile *pf, const char *arg)
{
	uint64_t id;
	const char *why;
	size_t i;

	if (dcfg_parse_c_integer(arg, strlen(arg), &id, &why) == 0 && id <= UINT32_MAX)
		for (i = 0; i < pf->n_funcs; i++)
			if (dcfg_profile_block(pf, pf->funcs[i].entry)->node_id == id)
				return &pf->funcs[i];
	for (i = 0; i < pf->n_funcs; i++)
		if (dcfg_name_matches(dcfg_profile_name(pf, &pf->funcs[i]), arg))
			return &pf->funcs[i];
	return NULL;
}

/*
 * A name two images share is qualified (names.h): when ARG is such a bare
 * name, say which names the user may have meant.
 */
static int
no_routine(const struct dcfg_profile *pf, const struct dcfg_convert_options *o,
    const char *arg, struct dcfg_error *err)
{
	char also[160] = "", shown[160];
	size_t i, len = strlen(arg), at = 0;
	int n = 0;

	for (i = 0; i < pf->n_funcs && at < sizeof also; i++) {
		const char *name = dcfg_profile_name(pf, &pf->funcs[i]);
		if (strncmp(name, arg, len) == 0 && name[len] == '@' && strchr(name + len + 1, '@') == NULL) {
			int w;
			dcfg_escape(shown, sizeof shown, name);
			w = snprintf(also + at, sizeof also - at, "%s%s", n++ ? ", " : "", shown);
			at += w > 0 ? (size_t)w : 0;
		}
	}
	if (n == 0) {
		char hint[320];
		dcfg_routine_hint(pf, arg, hint, sizeof hint);
		return dcfg_error_set(err, o->dcfg_path, "process %" PRIu64 " has no routine %s%s",
		    pf->p->pid, arg, hint);
	}
	return dcfg_error_set(err, o->dcfg_path, "process %" PRIu64 " has no routine %s; "
	    "images share the name: %s%s", pf->p->pid, arg, also, at >= sizeof also ? "..." : "");
}

/* ---- the chosen routines and their stubs ---- */

enum { STUB_IN, STUB_OUT };   /* the order their edges are written in, per block */

/* The edges between a block of a chosen function and one other side, one direction. */
struct stub {
	uint64_t rank;            /* the block's function << 32 | its position */
	uint64_t other;           /* a function's index, or n_funcs + a node that is no block */
	uint64_t count;           /* summed */
	uint32_t block, dir;
};

struct sel {
	const struct dcfg_convert_options *o;
	const struct dcfg_profile *pf;
	struct dcfg_output *out;
	uint64_t min, max;
	unsigned char *chosen;    /* per function */
	uint32_t *pos;            /* per block: its position in its function */
	struct stub *stubs, *nodes;
	size_t n_stubs, n_nodes;
};

static int
by_stub(const void *a, const void *b)
{
	const struct stub *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->other < y->other ? -1 : x->other > y->other;
}

static int
by_stub_node(const void *a, const void *b)
{
	const struct stub *x = a, *y = b;

	if (x->other != y->other)
		return x->other < y->other ? -1 : 1;
	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

static int
written(const struct sel *s, uint32_t b)
{
	return s->pf->exec[b] >= s->min;
}

/* The functions --routine and --node name, marked in s->chosen; how many, or -1 with ERR. */
static long
choose(struct sel *s, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg_convert_options *o = s->o;
	const struct dcfg_profile_func *f;
	uint32_t b;
	size_t i;
	long n = 0;

	for (i = 0; i < o->n_routines; i++) {
		if ((f = find_routine(pf, o->routines[i])) == NULL)
			return no_routine(pf, o, o->routines[i], err);
		s->chosen[f - pf->funcs] = 1;
	}
	for (i = 0; i < o->n_nodes; i++) {
		if (o->nodes[i] > UINT32_MAX ||
		    (b = dcfg_profile_block_of(pf, (uint32_t)o->nodes[i])) == DCFG_NONE)
			return dcfg_error_set(err, o->dcfg_path, "process %" PRIu64 " has no block %"
			    PRIu64, pf->p->pid, o->nodes[i]);
		s->chosen[pf->block_func[b]] = 1;
	}
	for (i = 0; i < pf->n_funcs; i++)
		n += s->chosen[i];
	return n;
}

/* The other end of an edge, as struct stub's OTHER. */
static uint64_t
other_side(const struct dcfg_profile *pf, uint32_t node_id, uint32_t b)
{
	return b != DCFG_NONE ? pf->block_func[b] : (uint64_t)pf->n_funcs + node_id;
}

/*
 * The stubs' edges, summed per block, direction and other side, and the
 * stub nodes some drawn edge reaches. -1 with ERR.
 */
static int
collect_stubs(struct sel *s, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg_process *p = pf->p;
	size_t i, k, n = 0;

	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &pf->d->edges[p->edges.first + i];
		uint32_t sb = dcfg_profile_block_of(pf, e->source), tb = dcfg_profile_block_of(pf, e->target);
		int sin = sb != DCFG_NONE && s->chosen[pf->block_func[sb]];
		int tin = tb != DCFG_NONE && s->chosen[pf->block_func[tb]];
		struct stub *st = &s->stubs[s->n_stubs];

		if (sin == tin)
			continue;
		st->block = sin ? sb : tb;
		st->dir = sin ? STUB_OUT : STUB_IN;
		st->other = sin ? other_side(pf, e->target, tb) : other_side(pf, e->source, sb);
		st->rank = (uint64_t)pf->block_func[st->block] << 32 | s->pos[st->block];
		st->count = pf->count[i];
		s->n_stubs++;
	}
	qsort(s->stubs, s->n_stubs, sizeof *s->stubs, by_stub);
	for (i = 0; i < s->n_stubs; i = k) {
		struct stub sum = s->stubs[i];
		for (k = i + 1; k < s->n_stubs && by_stub(&s->stubs[k], &sum) == 0; k++)
			if (__builtin_add_overflow(sum.count, s->stubs[k].count, &sum.count))
				return dcfg_error_set(err, s->o->dcfg_path, "process %" PRIu64 ": the "
				    "edges of block %" PRIu32 " to one routine do not fit in 64 bits",
				    p->pid, dcfg_profile_block(pf, sum.block)->node_id);
		if (written(s, sum.block) && sum.count >= s->min) {
			s->stubs[n++] = sum;
			if (sum.count > s->max)
				s->max = sum.count;
		}
	}
	s->n_stubs = n;
	memcpy(s->nodes, s->stubs, n * sizeof *s->nodes);
	qsort(s->nodes, n, sizeof *s->nodes, by_stub_node);
	for (i = 0, s->n_nodes = 0; i < n; i++)
		if (s->n_nodes == 0 || by_stub_node(&s->nodes[s->n_nodes - 1], &s->nodes[i]) != 0)
			s->nodes[s->n_nodes++] = s->nodes[i];
	return 0;
}

/* A stub's node name: inID or outID, the other side's entry block or node. */
static void
out_stub_id(const struct sel *s, const struct stub *st)
{
	const struct dcfg_profile *pf = s->pf;

	dcfg_out_str(s->out, st->dir == STUB_IN ? "in" : "out");
	dcfg_out_u64(s->out, st->other < pf->n_funcs ?
	    dcfg_profile_block(pf, pf->funcs[st->other].entry)->node_id : st->other - pf->n_funcs);
}

static void
out_stub_nodes(const struct sel *s)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg *d = pf->d;
	size_t i;
	uint32_t sp;

	for (i = 0; i < s->n_nodes; i++) {
		const struct stub *st = &s->nodes[i];
		out_stub_id(s, st);
		dcfg_out_str(s->out, " [label=\"");
		if (st->other < pf->n_funcs)
			dcfg_dot_escaped(s->out, dcfg_profile_name(pf, &pf->funcs[st->other]));
		else if ((sp = dcfg_idmap_get(&d->special_by_id, (uint32_t)(st->other - pf->n_funcs))) !=
		    DCFG_NONE)
			dcfg_dot_escaped(s->out, dcfg_string(d, d->special_nodes[sp].name));
		else
			dcfg_out_str(s->out, "UNKNOWN");
		dcfg_out_str(s->out, "\", shape=ellipse, style=dashed];\n");
	}
}

/* The target of out_edges[K] from block B when it is drawn between two blocks, else DCFG_NONE. */
static uint32_t
block_edge(const struct sel *s, uint32_t b, uint32_t k)
{
	const struct dcfg_profile *pf = s->pf;
	uint32_t e = pf->out_edges[k], t;

	t = dcfg_profile_block_of(pf, pf->d->edges[pf->p->edges.first + e].target);
	if (t == DCFG_NONE || !s->chosen[pf->block_func[t]] || pf->count[e] < s->min ||
	    !written(s, b) || !written(s, t))
		return DCFG_NONE;
	return t;
}

/* Block to block edges, by source (chosen functions, then position), target address, id. */
static void
out_block_edges(struct sel *s, int pass)
{
	const struct dcfg_profile *pf = s->pf;
	const struct dcfg *d = pf->d;
	uint32_t fi, at, b, k, t, e;

	for (fi = 0; fi < pf->n_funcs && !dcfg_output_failed(s->out); fi++) {
		if (!s->chosen[fi])
			continue;
		for (at = 0; at < pf->funcs[fi].count; at++) {
			b = pf->blocks[pf->funcs[fi].first + at];
			for (k = pf->out_first[b]; k < pf->out_first[b + 1]; k++) {
				const struct dcfg_edge *edge;
				if ((t = block_edge(s, b, k)) == DCFG_NONE)
					continue;
				e = pf->out_edges[k];
				if (pass == 0) {
					if (pf->count[e] > s->max)
						s->max = pf->count[e];
					continue;
				}
				edge = &d->edges[pf->p->edges.first + e];
				dcfg_out_char(s->out, 'n');
				dcfg_out_u64(s->out, dcfg_profile_block(pf, b)->node_id);
				dcfg_out_str(s->out, " -> n");
				dcfg_out_u64(s->out, dcfg_profile_block(pf, t)->node_id);
				dcfg_out_str(s->out, " [label=\"");
				dcfg_dot_edge_label(s->out, pf, edge, pf->count[e]);
				dcfg_dot_edge_end(s->out, pf->count[e], s->max);
			}
		}
	}
}

static void
out_stub_edges(const struct sel *s)
{
	size_t i;

	for (i = 0; i < s->n_stubs && !dcfg_output_failed(s->out); i++) {
		const struct stub *st = &s->stubs[i];
		if (st->dir == STUB_IN) {
			out_stub_id(s, st);
			dcfg_out_str(s->out, " -> n");
			dcfg_out_u64(s->out, dcfg_profile_block(s->pf, st->block)->node_id);
		} else {
			dcfg_out_char(s->out, 'n');
			dcfg_out_u64(s->out, dcfg_profile_block(s->pf, st->block)->node_id);
			dcfg_out_str(s->out, " -> ");
			out_stub_id(s, st);
		}
		dcfg_out_str(s->out, " [label=\"");
		dcfg_out_u64(s->out, st->count);
		dcfg_dot_edge_end(s->out, st->count, s->max);
	}
}

/* What a routine's picture means, for its legend (fixed HTML text). */
static const char cfg_legend[] =
    "box: a block: symbol+offset, source line, instructions, executions<br/>"
    "cluster: a routine, or a loop by its head's source line and depth (1: outermost)<br/>"
    "dashed ellipse: another routine, or START or END, at the other end of edges<br/>"
    "edge: its count, after a tag unless it is a branch or fall-through<br/>"
    "(jmp, ind-jmp, call, ret, bypass...: see dcfg-convert(1)); wider for more<br/>";

int
dcfg_dot_routines(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err)
{
	const struct dcfg_process *p = pf->p;
	/* Without --all-edges, what never ran is left out, as --min-count 1 would. */
	struct sel s = { .o = o, .pf = pf, .out = out,
	    .min = o->min_count == 0 && !o->all_edges ? 1 : o->min_count };
	size_t ne = (size_t)p->edges.count + 1, i, k;
	uint32_t fi, one = 0;
	long n;
	int rc = -1;

	s.chosen = calloc(pf->n_funcs + 1, 1);
	s.pos = malloc(((size_t)p->blocks.count + 1) * sizeof *s.pos);
	s.stubs = malloc(ne * sizeof *s.stubs);
	s.nodes = malloc(ne * sizeof *s.nodes);
	if (s.chosen == NULL || s.pos == NULL || s.stubs == NULL || s.nodes == NULL) {
		dcfg_error_set(err, o->dcfg_path, "out of memory");
		goto out;
	}
	if ((n = choose(&s, err)) < 0)
		goto out;
	for (i = 0; i < pf->n_funcs; i++)
		for (k = 0; k < pf->funcs[i].count; k++)
			s.pos[pf->blocks[pf->funcs[i].first + k]] = (uint32_t)k;
	if (collect_stubs(&s, err) < 0)
		goto out;
	out_block_edges(&s, 0);

	for (fi = 0; fi < pf->n_funcs && !s.chosen[fi]; fi++)
		;
	one = fi;
	/* One routine keeps the graph it always had: named after it, no cluster around it. */
	dcfg_dot_header(out, n == 1 ? dcfg_profile_name(pf, &pf->funcs[one]) : NULL, p->pid);
	dcfg_dot_title(out, pf, thread, o, n == 1 ? "the blocks of one routine, counts from the DCFG" :
	    "the blocks of the chosen routines, counts from the DCFG");
	dcfg_dot_legend(out, pf->total, "executions x instructions", cfg_legend);
	for (fi = 0; fi < pf->n_funcs && !dcfg_output_failed(out); fi++)
		if (s.chosen[fi] && dcfg_dot_routine_blocks(out, pf, fi, s.pos, s.min, n > 1) < 0) {
			dcfg_error_set(err, o->dcfg_path, "out of memory");
			goto out;
		}
	out_stub_nodes(&s);
	out_block_edges(&s, 1);
	out_stub_edges(&s);
	dcfg_out_str(out, "}\n");
	rc = 0;
out:
	free(s.chosen);
	free(s.pos);
	free(s.stubs);
	free(s.nodes);
	return rc;
}
