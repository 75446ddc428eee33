/*
 * webgrind's preprocessed format, version 7 (webgrind-preprocessed-format.txt):
 * per function its entry line, self and inclusive cost, invocations, and
 * who calls it and whom it calls, all 32-bit; then "key: value" headers.
 * The offsets come first, so every record's size is known before writing.
 */
#include "convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U32_MAX 0xffffffffu

struct call {
	uint32_t a, b;             /* sorted by a, then b: (caller, callee) or (callee, caller) */
	uint64_t line, count, cost;
};

struct wg {
	const struct dcfg_profile *pf;
	uint32_t n;                /* functions written */
	uint32_t *order;           /* their profile indices; DCFG_NONE: the "(none)" function */
	uint32_t *number;          /* per profile function: its number, or DCFG_NONE */
	uint64_t *self, *incl, *invocations;
	struct call *sub, *from;   /* aggregated; sub by caller, from by callee */
	size_t n_sub, n_from;
	uint32_t *sub_first, *from_first;   /* per function + 1 */
	unsigned cost_shift, count_shift;
	int overflow;
};

static int
by_pair(const void *x, const void *y)
{
	const struct call *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->line < q->line ? -1 : p->line > q->line;
}

static uint64_t
line_at(const struct dcfg_profile *pf, uint64_t addr)
{
	const struct dcfg_source_line *src = dcfg_source_at(pf->d, pf->p, addr);

	return src && src->line <= U32_MAX ? src->line : 0;
}

static void
add(struct wg *w, uint64_t *to, uint64_t v)
{
	w->overflow |= __builtin_add_overflow(*to, v, to);
}

/* Sorts N calls and merges those with the same (a, b, line); CSR by a into FIRST. */
static size_t
aggregate(struct wg *w, struct call *c, size_t n, uint32_t *first)
{
	size_t i, m = 0;

	qsort(c, n, sizeof *c, by_pair);
	for (i = 0; i < n; i++) {
		if (m && c[m - 1].a == c[i].a && c[m - 1].b == c[i].b && c[m - 1].line == c[i].line) {
			add(w, &c[m - 1].count, c[i].count);
			add(w, &c[m - 1].cost, c[i].cost);
		} else {
			c[m++] = c[i];
		}
	}
	for (i = 0; i < m; i++)
		first[c[i].a + 1]++;
	for (i = 0; i < w->n; i++)
		first[i + 1] += first[i];
	return m;
}

static int
collect(struct wg *w)
{
	const struct dcfg_profile *pf = w->pf;
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	size_t nf = pf->n_funcs, n_calls = 0, i;
	uint32_t f, k, e, sb, tb, from, to;

	w->number = malloc((nf + 1) * sizeof *w->number);
	w->order = malloc((nf + 1) * sizeof *w->order);
	if (!w->number || !w->order)
		return -1;
	for (f = 0; f < nf; f++) {
		w->number[f] = DCFG_NONE;
		if (dcfg_profile_ran(pf, f)) {
			w->number[f] = w->n;
			w->order[w->n++] = f;
		}
	}
	/* webgrind's reader fails on a file of no function. */
	if (w->n == 0) {
		w->order[w->n++] = nf ? 0 : DCFG_NONE;
		if (nf)
			w->number[0] = 0;
	}
	w->self = calloc(w->n, sizeof *w->self);
	w->incl = calloc(w->n, sizeof *w->incl);
	w->invocations = calloc(w->n, sizeof *w->invocations);
	w->sub = malloc(((size_t)p->edges.count + 1) * sizeof *w->sub);
	w->from = malloc(((size_t)p->edges.count + 1) * sizeof *w->from);
	w->sub_first = calloc((size_t)w->n + 1, sizeof *w->sub_first);
	w->from_first = calloc((size_t)w->n + 1, sizeof *w->from_first);
	if (!w->self || !w->incl || !w->invocations || !w->sub || !w->from ||
	    !w->sub_first || !w->from_first)
		return -1;
	for (i = 0; i < w->n; i++) {
		const struct dcfg_profile_func *fn;
		if (w->order[i] == DCFG_NONE)
			continue;
		fn = &pf->funcs[w->order[i]];
		for (k = 0; k < fn->count && !pf->fold; k++) {
			uint32_t b = pf->blocks[fn->first + k];
			uint64_t c;
			w->overflow |= __builtin_mul_overflow(pf->exec[b],
			    dcfg_profile_block(pf, b)->num_instrs, &c);
			add(w, &w->self[i], c);
		}
		if (pf->fold)
			w->self[i] = dcfg_profile_self(pf, w->order[i]);
		w->incl[i] = w->self[i];
	}
	for (e = 0; e < p->edges.count; e++) {
		const struct dcfg_edge *edge = &d->edges[p->edges.first + e];
		const struct dcfg_block *src;
		if (pf->role[e] != DCFG_ROLE_CALL || pf->count[e] == 0 ||
		    (sb = dcfg_profile_block_of(pf, edge->source)) == DCFG_NONE ||
		    (tb = dcfg_profile_block_of(pf, edge->target)) == DCFG_NONE ||
		    (from = w->number[pf->block_func[sb]]) == DCFG_NONE ||
		    (to = w->number[dcfg_profile_callee(pf, tb)]) == DCFG_NONE)
			continue;
		if (dcfg_profile_folded(pf, pf->block_func[tb]))
			tb = pf->funcs[dcfg_profile_callee(pf, tb)].entry;
		src = dcfg_profile_block(pf, sb);
		w->sub[n_calls] = (struct call){ from, to, line_at(pf, src->addr +
		    src->last_instr_offset), pf->count[e], pf->incl[e] };
		w->from[n_calls] = (struct call){ to, from, w->sub[n_calls].line, pf->count[e],
		    pf->incl[e] };
		n_calls++;
		if (tb == pf->funcs[pf->block_func[tb]].entry)
			add(w, &w->invocations[to], pf->count[e]);
		if (from != to)
			add(w, &w->incl[from], pf->incl[e]);
	}
	w->n_sub = aggregate(w, w->sub, n_calls, w->sub_first);
	w->n_from = aggregate(w, w->from, n_calls, w->from_first);
	return 0;
}

/* The smallest shift that brings V under 2^32. */
static unsigned
shift_for(uint64_t v)
{
	unsigned s = 0;

	while ((v >> s) > U32_MAX)
		s++;
	return s;
}

static void
fit(struct wg *w)
{
	uint64_t cost = w->pf->total, count = 0;
	size_t i;

	for (i = 0; i < w->n; i++) {
		cost = w->self[i] > cost ? w->self[i] : cost;
		cost = w->incl[i] > cost ? w->incl[i] : cost;
		count = w->invocations[i] > count ? w->invocations[i] : count;
	}
	for (i = 0; i < w->n_sub; i++) {
		cost = w->sub[i].cost > cost ? w->sub[i].cost : cost;
		count = w->sub[i].count > count ? w->sub[i].count : count;
	}
	w->cost_shift = shift_for(cost);
	w->count_shift = shift_for(count);
}

static const char *
func_name(const struct wg *w, uint32_t i)
{
	return w->order[i] == DCFG_NONE ? "(none)" :
	    dcfg_profile_name(w->pf, &w->pf->funcs[w->order[i]]);
}

static const char *
func_file(const struct wg *w, uint32_t i)
{
	const struct dcfg_source_line *src;
	const char *name;

	if (w->order[i] == DCFG_NONE ||
	    (src = dcfg_source_at(w->pf->d, w->pf->p, w->pf->funcs[w->order[i]].addr)) == NULL ||
	    (name = dcfg_file_name(w->pf->d, src->file_name_id)) == NULL)
		return "???";
	return name;
}

/* Values are checked to fit 32 bits before they get here. */
static void
u32(struct dcfg_output *out, uint64_t v)
{
	dcfg_out_u32le(out, (uint32_t)v);
}

/* A name on a line of its own, whatever bytes it holds. */
static void
out_line(struct dcfg_output *out, const char *s)
{
	dcfg_out_escaped(out, s);
	dcfg_out_char(out, '\n');
}

static void
out_calls(struct dcfg_output *out, const struct wg *w, const struct call *c,
    uint32_t first, uint32_t end)
{
	uint32_t k;

	for (k = first; k < end; k++) {
		u32(out, c[k].b);
		u32(out, c[k].line);
		u32(out, c[k].count >> w->count_shift);
		u32(out, c[k].cost >> w->cost_shift);
	}
}

static uint64_t
out_header(struct dcfg_output *out, const char *key, const char *value)
{
	if (out) {
		dcfg_out_str(out, key);
		dcfg_out_str(out, ": ");
		out_line(out, value);
	}
	return strlen(key) + 2 + dcfg_escape(NULL, 0, value) + 1;
}

/* Writes the header lines to OUT, or (OUT NULL) only counts their bytes. */
static uint64_t
headers(struct dcfg_output *out, const struct wg *w, uint32_t thread,
    const struct dcfg_convert_options *o)
{
	const struct dcfg_profile *pf = w->pf;
	uint64_t n = 0;
	char num[64];

	n += out_header(out, "creator", o->creator);
	snprintf(num, sizeof num, "%llu", (unsigned long long)pf->p->pid);
	n += out_header(out, "pid", num);
	if (thread != DCFG_ALL_THREADS) {
		snprintf(num, sizeof num, "%u", (unsigned)thread);
		n += out_header(out, "thread", num);
	}
	if (o->cmd)
		n += out_header(out, "cmd", o->cmd);
	if (pf->estimated)
		n += out_header(out, "desc", "Inclusive: estimated from call counts as gprof does (no trace)");
	if (w->cost_shift) {
		snprintf(num, sizeof num, "divided by 2^%u to fit in 32 bits", w->cost_shift);
		n += out_header(out, "costs", num);
	}
	if (w->count_shift) {
		snprintf(num, sizeof num, "divided by 2^%u to fit in 32 bits", w->count_shift);
		n += out_header(out, "counts", num);
	}
	n += out_header(out, "events", "Ir");
	snprintf(num, sizeof num, "%llu", (unsigned long long)(pf->total >> w->cost_shift));
	return n + out_header(out, "summary", num);
}

static int
write_profile(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err)
{
	struct wg w = { .pf = pf };
	uint64_t at, *addr = NULL;
	uint32_t i;
	int rc = -1;

	if (collect(&w) < 0 || (addr = malloc(((size_t)w.n + 1) * sizeof *addr)) == NULL) {
		dcfg_error_set(err, o->dcfg_path, "out of memory");
		goto out;
	}
	if (w.overflow) {
		dcfg_error_set(err, o->dcfg_path, "process %llu: a cost does not fit in 64 bits",
		    (unsigned long long)pf->p->pid);
		goto out;
	}
	fit(&w);
	at = 12 + 4 * (uint64_t)w.n;
	for (i = 0; i < w.n; i++) {
		addr[i] = at;
		at += 4 * (6 + 4 * (uint64_t)(w.from_first[i + 1] - w.from_first[i] +
		    w.sub_first[i + 1] - w.sub_first[i]));
		at += dcfg_escape(NULL, 0, func_file(&w, i)) + 1 + dcfg_escape(NULL, 0, func_name(&w, i)) + 1;
	}
	if (at + headers(NULL, &w, thread, o) > U32_MAX) {
		dcfg_error_set(err, o->dcfg_path, "the webgrind file would be larger than 4 GiB");
		goto out;
	}
	u32(out, 7);
	u32(out, at);
	u32(out, w.n);
	for (i = 0; i < w.n; i++)
		u32(out, addr[i]);
	for (i = 0; i < w.n; i++) {
		u32(out, w.order[i] == DCFG_NONE ? 0 : line_at(pf, pf->funcs[w.order[i]].addr));
		u32(out, w.self[i] >> w.cost_shift);
		u32(out, w.incl[i] >> w.cost_shift);
		u32(out, w.invocations[i] >> w.count_shift);
		u32(out, w.from_first[i + 1] - w.from_first[i]);
		u32(out, w.sub_first[i + 1] - w.sub_first[i]);
		out_calls(out, &w, w.from, w.from_first[i], w.from_first[i + 1]);
		out_calls(out, &w, w.sub, w.sub_first[i], w.sub_first[i + 1]);
		out_line(out, func_file(&w, i));
		out_line(out, func_name(&w, i));
	}
	headers(out, &w, thread, o);
	rc = 0;
out:
	free(addr);
	free(w.order);
	free(w.number);
	free(w.self);
	free(w.incl);
	free(w.invocations);
	free(w.sub);
	free(w.from);
	free(w.sub_first);
	free(w.from_first);
	return rc;
}

int
dcfg_convert_webgrind(const struct dcfg_convert *c, struct dcfg_error *err)
{
	return dcfg_convert_profiles(c, "webgrind.out", write_profile, err);
}
