/*
 * dcfg-convert --to dot: the text helpers, the call graph of a process, and
 * the choice between it and the routines' graphs (dot_cfg.c). Every count
 * comes from the profile (profile.c), so the numbers agree with the
 * Callgrind output.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dot.h"

/* ---- text ---- */

/*
 * A name as every table writes it (dcfg_out_escaped), then quoted for a
 * Graphviz string: the picture shows the table's text, and no name can
 * close the string, start an HTML entity or bring a control byte in.
 */
void
dcfg_dot_escaped(struct dcfg_output *out, const char *str)
{
	char one[2] = { 0, 0 }, e[8];
	size_t k, i, n;

	for (;;) {
		k = dcfg_escape_kept(str);
		for (i = 0; i < k; i++) {
			if (str[i] == '"')
				dcfg_out_str(out, "\\\"");
			else if (str[i] == '&')
				dcfg_out_str(out, "&amp;");
			else
				dcfg_out_char(out, str[i]);
		}
		str += k;
		if (*str == '\0')
			return;
		one[0] = *str++;
		n = dcfg_escape(e, sizeof e, one);
		for (i = 0; i < n; i++) {
			if (e[i] == '\\')
				dcfg_out_char(out, '\\');
			dcfg_out_char(out, e[i]);
		}
	}
}

static unsigned
bit_length(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

/* 1..8 from COUNT relative to the largest count MAX, without floating point. */
static unsigned
pen_width(uint64_t count, uint64_t max)
{
	return count == 0 || max == 0 ? 1 : 1 + 7 * bit_length(count) / bit_length(max);
}

void
dcfg_dot_edge_end(struct dcfg_output *out, uint64_t count, uint64_t max)
{
	dcfg_out_str(out, "\", penwidth=");
	dcfg_out_u64(out, pen_width(count, max));
	dcfg_out_str(out, "];\n");
}

void
dcfg_dot_header(struct dcfg_output *out, const char *name, uint64_t pid)
{
	dcfg_out_str(out, "digraph \"");
	if (name)
		dcfg_dot_escaped(out, name);
	else
		dcfg_out_u64(out, pid);
	dcfg_out_str(out, "\" {\nnode [shape=box, style=filled, fillcolor=\"#ffffff\"];\n");
}

/* ---- the call graph ---- */

struct call {
	uint32_t from, to;         /* functions */
	uint64_t count;
};

static int
by_pair(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* What the call graph's picture means, for its legend (fixed HTML text). */
static const char call_legend[] =
    "box: a routine; self: the instructions of its own blocks; inclusive: with<br/>"
    "those of the calls it made; invocations: the executions of its entry block<br/>"
    "edge: the calls from caller to callee, their count; wider for more<br/>";

/* The nodes of the functions WRITTEN, with their costs and heat. */
static void
out_functions(struct dcfg_output *out, const struct dcfg_profile *pf, const uint64_t *self,
    const uint64_t *incl, const unsigned char *written)
{
	const char *kind = pf->estimated ? "inclusive (estimated): " : "inclusive (exact): ";
	size_t i;

	for (i = 0; i < pf->n_funcs && !dcfg_output_failed(out); i++) {
		const struct dcfg_profile_func *f = &pf->funcs[i];
		if (!written[i])
			continue;
		dcfg_out_char(out, 'f');
		dcfg_out_u64(out, dcfg_profile_block(pf, f->entry)->node_id);
		dcfg_out_str(out, " [label=\"");
		dcfg_dot_escaped(out, dcfg_profile_name(pf, f));
		dcfg_out_str(out, "\\nself: ");
		dcfg_out_u64(out, self[i]);
		dcfg_out_str(out, "\\n");
		dcfg_out_str(out, kind);
		dcfg_out_u64(out, incl[i]);
		dcfg_out_str(out, "\\ninvocations: ");
		dcfg_out_u64(out, pf->exec[f->entry]);
		dcfg_out_char(out, '"');
		dcfg_dot_fill(out, incl[i], pf->total);
		dcfg_out_str(out, "];\n");
	}
}

/* The call graph being drawn: per function its costs and whether it is drawn, and the calls. */
struct graph {
	const struct dcfg_profile *pf;
	const struct dcfg_convert_options *o;
	uint64_t *self, *incl;
	unsigned char *written;
	struct call *calls;        /* one per call edge, then one per (caller, callee) drawn */
	size_t n_calls;
	uint64_t max;              /* the largest count drawn */
};

/*
 * The call edges (those that never ran too with --all-edges), and each
 * caller's inclusive instructions: its own and its calls'. -1 with ERR
 * when they do not fit in 64 bits.
 */
static int
collect_calls(struct graph *g, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = g->pf;
	const struct dcfg_process *p = pf->p;
	size_t i;

	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &pf->d->edges[p->edges.first + i];
		uint32_t sb, tb;
		if (pf->role[i] != DCFG_ROLE_CALL || (pf->count[i] == 0 && !g->o->all_edges) ||
		    (sb = dcfg_profile_block_of(pf, e->source)) == DCFG_NONE ||
		    (tb = dcfg_profile_block_of(pf, e->target)) == DCFG_NONE)
			continue;
		g->calls[g->n_calls++] = (struct call){ pf->block_func[sb], dcfg_profile_callee(pf, tb),
		    pf->count[i] };
		if (pf->block_func[sb] != dcfg_profile_callee(pf, tb) &&
		    __builtin_add_overflow(g->incl[pf->block_func[sb]], pf->incl[i],
		    &g->incl[pf->block_func[sb]])) {
			char shown[160];
			dcfg_escape(shown, sizeof shown, dcfg_profile_name(pf, &pf->funcs[pf->block_func[sb]]));
			return dcfg_error_set(err, g->o->dcfg_path, "process %" PRIu64 ": the inclusive "
			    "instructions of %s do not fit in 64 bits", p->pid, shown);
		}
	}
	return 0;
}

/*
 * Each (caller, callee) pair's calls summed into one, kept when both are
 * drawn and the sum reaches MIN. -1 with ERR when a sum does not fit.
 */
static int
merge_calls(struct graph *g, uint64_t min, struct dcfg_error *err)
{
	const struct dcfg_profile *pf = g->pf;
	size_t i, k, n;

	qsort(g->calls, g->n_calls, sizeof *g->calls, by_pair);
	for (i = 0, n = 0; i < g->n_calls; i = k) {
		struct call sum = g->calls[i];
		for (k = i + 1; k < g->n_calls && g->calls[k].from == sum.from &&
		    g->calls[k].to == sum.to; k++)
			if (__builtin_add_overflow(sum.count, g->calls[k].count, &sum.count)) {
				char from[160], to[160];
				dcfg_escape(from, sizeof from, dcfg_profile_name(pf, &pf->funcs[sum.from]));
				dcfg_escape(to, sizeof to, dcfg_profile_name(pf, &pf->funcs[sum.to]));
				return dcfg_error_set(err, g->o->dcfg_path, "process %" PRIu64 ": the "
				    "calls from %s to %s do not fit in 64 bits", pf->p->pid, from, to);
			}
		if (g->written[sum.from] && g->written[sum.to] && sum.count >= min) {
			g->calls[n++] = sum;
			if (sum.count > g->max)
				g->max = sum.count;
		}
	}
	g->n_calls = n;
	return 0;
}

static void
out_calls(struct dcfg_output *out, const struct graph *g)
{
	const struct dcfg_profile *pf = g->pf;
	size_t i;

	for (i = 0; i < g->n_calls && !dcfg_output_failed(out); i++) {
		const struct call *c = &g->calls[i];
		dcfg_out_char(out, 'f');
		dcfg_out_u64(out, dcfg_profile_block(pf, pf->funcs[c->from].entry)->node_id);
		dcfg_out_str(out, " -> f");
		dcfg_out_u64(out, dcfg_profile_block(pf, pf->funcs[c->to].entry)->node_id);
		dcfg_out_str(out, " [label=\"");
		dcfg_out_u64(out, c->count);
		dcfg_dot_edge_end(out, c->count, g->max);
	}
}

static int
call_graph(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err)
{
	size_t nf = pf->n_funcs, i;
	struct graph g = { .pf = pf, .o = o, .self = calloc(nf + 1, sizeof *g.self),
	    .incl = calloc(nf + 1, sizeof *g.incl), .written = calloc(nf + 1, 1),
	    .calls = malloc(((size_t)pf->p->edges.count + 1) * sizeof *g.calls) };
	int rc = -1;

	if (g.self == NULL || g.incl == NULL || g.written == NULL || g.calls == NULL) {
		dcfg_error_set(err, o->dcfg_path, "out of memory");
		goto out;
	}
	for (i = 0; i < nf; i++) {
		/* Cannot overflow: the view checked the sum over all blocks. */
		g.self[i] = dcfg_profile_self(pf, (uint32_t)i);
		g.incl[i] = g.self[i];
		/* --all-edges: the routines that never ran too */
		g.written[i] = (dcfg_profile_ran(pf, (uint32_t)i) || o->all_edges) &&
		    pf->exec[pf->funcs[i].entry] >= o->min_count;
	}
	if (collect_calls(&g, err) < 0 || merge_calls(&g, o->min_count, err) < 0)
		goto out;

	dcfg_dot_header(out, NULL, pf->p->pid);
	dcfg_dot_title(out, pf, thread, o, pf->estimated ?
	    "inclusive costs estimated from the call counts, as gprof does (no trace)" :
	    "inclusive costs exact, replayed from the trace");
	dcfg_dot_legend(out, pf->total, pf->estimated ? "inclusive instructions (estimated)" :
	    "inclusive instructions", call_legend);
	out_functions(out, pf, g.self, g.incl, g.written);
	out_calls(out, &g);
	dcfg_out_str(out, "}\n");
	rc = 0;
out:
	free(g.self);
	free(g.incl);
	free(g.written);
	free(g.calls);
	return rc;
}

/* Either picture of one view: the call graph, or the routines --routine and --node choose. */
static int
dot_view(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err)
{
	return o->n_routines || o->n_nodes ? dcfg_dot_routines(out, pf, thread, o, err) :
	    call_graph(out, pf, thread, o, err);
}

/*
 * Through the profile formats' driver, so the counts, the trace's replay
 * and the inclusive costs are those of the Callgrind file.
 */
int
dcfg_convert_dot(const struct dcfg_convert *c, struct dcfg_error *err)
{
	return dcfg_convert_profiles(c, "dot.out", dot_view, err);
}
