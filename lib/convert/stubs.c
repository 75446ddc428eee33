/*
 * Stubs folded (dcfg-convert(1) STUBS): which functions only pass control
 * on to one other function, and where their instructions are counted.
 * The DCFG's structure decides what a stub is (every edge, whatever its
 * count), so every thread's view and the sums fold the same functions.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

/* Drops F from the stubs, and the stubs it made valid by jumping into them. */
static void
drop(uint32_t *target, unsigned char *stub, uint32_t f)
{
	uint32_t next;

	/* A stub jumps into one function only: the chain is a path, not a tree. */
	while (f != DCFG_NONE && stub[f]) {
		stub[f] = 0;
		next = target[f];
		f = next;
	}
}

/* Candidates: no call or return of their own, every exit into one other function's entry. */
static void
candidates(const struct dcfg_profile *pf, uint32_t *target, unsigned char *stub)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	uint32_t i, sb, tb, fs, ft;

	for (i = 0; i < pf->n_funcs; i++) {
		stub[i] = 1;
		target[i] = DCFG_NONE;
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		if ((sb = dcfg_profile_block_of(pf, e->source)) == DCFG_NONE)
			continue;
		fs = pf->block_func[sb];
		tb = dcfg_profile_block_of(pf, e->target);
		if (pf->role[i] != DCFG_ROLE_NONE || tb == DCFG_NONE) {
			stub[fs] = 0;
			continue;
		}
		if ((ft = pf->block_func[tb]) == fs)
			continue;
		if (tb != pf->funcs[ft].entry || (target[fs] != DCFG_NONE && target[fs] != ft))
			stub[fs] = 0;
		else
			target[fs] = ft;
	}
	for (i = 0; i < pf->n_funcs; i++)
		if (target[i] == DCFG_NONE)
			stub[i] = 0;
}

/*
 * Entered from outside only by calls and by stubs: a jump from elsewhere
 * would leave the stub's instructions no call site. A stub dropped later
 * drops the stubs it jumps into as it goes (drop), so one pass does.
 */
static void
entries(const struct dcfg_profile *pf, uint32_t *target, unsigned char *stub)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	uint32_t i, sb, tb, fs, ft;

	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		if ((tb = dcfg_profile_block_of(pf, e->target)) == DCFG_NONE)
			continue;
		ft = pf->block_func[tb];
		sb = dcfg_profile_block_of(pf, e->source);
		fs = sb == DCFG_NONE ? DCFG_NONE : pf->block_func[sb];
		if (fs == ft || (fs != DCFG_NONE && pf->role[i] == DCFG_ROLE_CALL))
			continue;
		/* from a special node, a return, or a jump out of what is no stub */
		if (fs == DCFG_NONE || pf->role[i] != DCFG_ROLE_NONE || !stub[fs])
			drop(target, stub, ft);
	}
}

/*
 * Each stub's chain followed to its end: a function that is no stub. A
 * chain that runs into a loop of stubs ends nowhere: none of it is folded.
 * Every function is walked once (the marks), so this is linear.
 */
static int
chains(struct dcfg_profile *pf, const uint32_t *target, const unsigned char *stub)
{
	size_t nf = pf->n_funcs;
	uint32_t *path = malloc((nf + 1) * sizeof *path), f, g, end, n, depth;
	unsigned char *mark = calloc(nf + 1, 1);   /* 1 on the path being walked, 2 done */

	if (path == NULL || mark == NULL) {
		free(path);
		free(mark);
		return -1;
	}
	for (f = 0; f < nf; f++) {
		pf->fold[f] = f;
		pf->stub_depth[f] = 0;
	}
	for (f = 0; f < nf; f++) {
		if (!stub[f] || mark[f])
			continue;
		n = 0;
		for (g = f; stub[g] && mark[g] == 0; g = target[g]) {
			mark[g] = 1;
			path[n++] = g;
		}
		depth = 0;
		if (!stub[g])
			end = g;
		else if (mark[g] == 2 && pf->fold[g] != g)
			end = pf->fold[g], depth = pf->stub_depth[g];
		else
			end = DCFG_NONE;   /* a loop, on this path or ahead of it */
		while (n > 0) {
			g = path[--n];
			mark[g] = 2;
			if (end != DCFG_NONE) {
				pf->fold[g] = end;
				pf->stub_depth[g] = ++depth;
			}
		}
	}
	free(path);
	free(mark);
	return 0;
}

/* The edges entering each folded stub from other functions, for the view's split. */
static int
incoming(struct dcfg_profile *pf)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	size_t nf = pf->n_funcs;
	uint32_t i, sb, tb, ft, pass;

	pf->stub_in_first = calloc(nf + 2, sizeof *pf->stub_in_first);
	pf->stub_in = malloc(((size_t)p->edges.count + 1) * sizeof *pf->stub_in);
	if (pf->stub_in_first == NULL || pf->stub_in == NULL)
		return -1;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			if ((tb = dcfg_profile_block_of(pf, e->target)) == DCFG_NONE ||
			    (sb = dcfg_profile_block_of(pf, e->source)) == DCFG_NONE ||
			    !dcfg_profile_folded(pf, ft = pf->block_func[tb]) ||
			    pf->block_func[sb] == ft)
				continue;
			if (pass == 0)
				pf->stub_in_first[ft + 2]++;
			else
				pf->stub_in[pf->stub_in_first[ft + 1]++] = i;
		}
		if (pass == 0)
			for (i = 0; i < nf; i++)
				pf->stub_in_first[i + 2] += pf->stub_in_first[i + 1];
	}
	return 0;
}

int
dcfg_profile_fold_stubs(struct dcfg_profile *pf, const char *name, struct dcfg_error *err)
{
	size_t nf = pf->n_funcs;
	uint32_t *target = malloc((nf + 1) * sizeof *target);
	unsigned char *stub = malloc(nf + 1);
	int rc = -1;

	pf->fold = malloc((nf + 1) * sizeof *pf->fold);
	pf->stub_depth = malloc((nf + 1) * sizeof *pf->stub_depth);
	pf->stub_left = calloc(nf + 1, sizeof *pf->stub_left);
	pf->stub_cost = calloc((size_t)pf->p->edges.count + 1, sizeof *pf->stub_cost);
	if (target && stub && pf->fold && pf->stub_depth && pf->stub_left && pf->stub_cost) {
		candidates(pf, target, stub);
		entries(pf, target, stub);
		rc = chains(pf, target, stub) < 0 ? -1 : incoming(pf);
	}
	free(target);
	free(stub);
	if (rc < 0)
		return dcfg_error_set(err, name, "out of memory");
	return 0;
}

/* ---- the view ---- */

static uint64_t
blocks_cost(const struct dcfg_profile *pf, uint32_t f)
{
	const struct dcfg_profile_func *fn = &pf->funcs[f];
	uint64_t n = 0;
	uint32_t k, b;

	/* Cannot overflow: the view checked the sum over all blocks. */
	for (k = 0; k < fn->count; k++) {
		b = pf->blocks[fn->first + k];
		n += pf->exec[b] * dcfg_profile_block(pf, b)->num_instrs;
	}
	return n;
}

/* The order in which stubs pass their instructions back: nearest the chain's end first. */
static uint32_t *
depth_order(const struct dcfg_profile *pf, uint32_t *n)
{
	size_t nf = pf->n_funcs;
	uint32_t *order = malloc((nf + 1) * sizeof *order);
	uint32_t *first = calloc(nf + 2, sizeof *first), f;

	*n = 0;
	if (order == NULL || first == NULL) {
		free(order);
		free(first);
		return NULL;
	}
	/* a counting sort: depths are below the number of functions */
	for (f = 0; f < nf; f++)
		if (dcfg_profile_folded(pf, f))
			first[pf->stub_depth[f] + 1]++, (*n)++;
	for (f = 0; f < nf; f++)
		first[f + 1] += first[f];
	for (f = 0; f < nf; f++)
		if (dcfg_profile_folded(pf, f))
			order[first[pf->stub_depth[f]]++] = f;
	free(first);
	return order;
}

/*
 * Without a trace: a stub's instructions, and those passed back to it by
 * the stubs it jumps into, are shared among the edges entering it by their
 * counts (the last share takes the rounding), as gprof shares a callee's.
 */
static int
split(struct dcfg_profile *pf)
{
	uint64_t *pool = calloc(pf->n_funcs + 1, sizeof *pool);
	uint32_t *order = NULL, n, i, k, f, e, sb;
	int rc = -1;

	if (pool == NULL || (order = depth_order(pf, &n)) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		pool[order[i]] = blocks_cost(pf, order[i]);
	for (i = 0; i < n; i++) {
		unsigned __int128 sum = 0, cum = 0, before = 0, now;
		unsigned shift = 0;
		f = order[i];
		for (k = pf->stub_in_first[f]; k < pf->stub_in_first[f + 1]; k++)
			sum += pf->count[pf->stub_in[k]];
		if (sum == 0) {
			pf->stub_left[f] = pool[f];
			continue;
		}
		while ((sum >> shift) > UINT64_MAX)
			shift++;
		for (k = pf->stub_in_first[f]; k < pf->stub_in_first[f + 1]; k++) {
			e = pf->stub_in[k];
			cum += pf->count[e];
			now = (unsigned __int128)pool[f] * (cum >> shift) / (sum >> shift);
			if (pf->role[e] == DCFG_ROLE_CALL) {
				pf->stub_cost[e] += (uint64_t)(now - before);
			} else {
				sb = dcfg_profile_block_of(pf, pf->d->edges[pf->p->edges.first + e].source);
				pool[pf->block_func[sb]] += (uint64_t)(now - before);
			}
			before = now;
		}
	}
	rc = 0;
out:
	free(pool);
	free(order);
	return rc;
}

int
dcfg_profile_stubs_view(struct dcfg_profile *pf, const uint64_t *traced)
{
	const struct dcfg *d = pf->d;
	const struct dcfg_process *p = pf->p;
	uint32_t i, tb;

	memset(pf->stub_cost, 0, ((size_t)p->edges.count + 1) * sizeof *pf->stub_cost);
	memset(pf->stub_left, 0, (pf->n_funcs + 1) * sizeof *pf->stub_left);
	if (traced == NULL)
		return split(pf);
	/* A call's stub instructions, or on another edge into a stub those no call ran. */
	for (i = 0; i < p->edges.count; i++) {
		if (traced[i] == 0)
			continue;
		if (pf->role[i] == DCFG_ROLE_CALL) {
			pf->stub_cost[i] = traced[i];
			pf->incl[i] = pf->incl[i] > traced[i] ? pf->incl[i] - traced[i] : 0;
		} else if ((tb = dcfg_profile_block_of(pf, d->edges[p->edges.first + i].target)) !=
		    DCFG_NONE) {
			pf->stub_left[pf->block_func[tb]] += traced[i];
		}
	}
	return 0;
}

uint64_t
dcfg_profile_self(const struct dcfg_profile *pf, uint32_t f)
{
	const struct dcfg_profile_func *fn = &pf->funcs[f];
	uint64_t n;
	uint32_t k, j;

	if (dcfg_profile_folded(pf, f))
		return pf->stub_left[f];
	n = blocks_cost(pf, f);
	if (pf->fold == NULL)
		return n;
	for (k = 0; k < fn->count; k++) {
		uint32_t b = pf->blocks[fn->first + k];
		for (j = pf->out_first[b]; j < pf->out_first[b + 1]; j++)
			n += pf->stub_cost[pf->out_edges[j]];
	}
	return n;
}

int
dcfg_profile_ran(const struct dcfg_profile *pf, uint32_t f)
{
	const struct dcfg_profile_func *fn = &pf->funcs[f];
	uint64_t any = 0;
	uint32_t k;

	if (dcfg_profile_folded(pf, f))
		return pf->stub_left[f] != 0;
	for (k = 0; k < fn->count; k++)
		any |= pf->exec[pf->blocks[fn->first + k]];
	return any != 0;
}
