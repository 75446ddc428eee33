/*
 * csi-paths' checks of one function (csi-paths.c's comment lists them): the
 * DAG, its paths enumerated or counted. Apart from the reading of the text,
 * they see only the blocks and edges it leaves (csi-paths.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csi-paths.h"

/* A DAG edge. */
struct dedge {
	size_t src, dst;
	uint64_t inc, wt;
	int dummy;          /* 0 real, 1 ENTRY->h, 2 u->EXIT */
	size_t from;        /* index of the written edge it comes from */
};

static struct dedge *dag;
static size_t n_dag;
static size_t *out_first;   /* per block + 1 */
static size_t *out_list;    /* DAG edge indices by source */
static uint64_t *npaths;    /* per block: paths to EXIT */
static char *over;          /* per block: more than 2^64-1 paths to EXIT */

static void
add_dag(size_t src, size_t dst, uint64_t inc, uint64_t wt, int dummy, size_t from)
{
	dag = xrealloc(dag, n_dag + 1, sizeof *dag);
	dag[n_dag++] = (struct dedge){ src, dst, inc, wt, dummy, from };
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Prints the block ids of a path (edge list) into buf. */
static const char *
path_text(const size_t *pe, size_t n, size_t entry)
{
	static char buf[4096];
	size_t len = 0;
	len += (size_t)snprintf(buf, sizeof buf, "%" PRIu64, blocks[entry].id);
	for (size_t i = 0; i < n && len < sizeof buf - 64; i++) {
		const struct dedge *d = &dag[pe[i]];
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%" PRIu64,
		    d->dummy ? " =>" : " ", blocks[d->dst].id);
		/* two dummy edges into one head differ only by their back edge */
		if (d->dummy == 1)
			len += (size_t)snprintf(buf + len, sizeof buf - len, " (for %" PRIu64
			    "~>%" PRIu64 ")", blocks[edges[d->from].src].id, blocks[d->dst].id);
	}
	if (len >= sizeof buf - 64)
		snprintf(buf + len, sizeof buf - len, " ...");
	return buf;
}

/*
 * Enumerates the paths from ENTRY. MODE 0: fills inc[] and wt[] with the sums
 * and checks -1; MODE 1: prints (in the failure message) a path whose
 * increment sum (WHICH 0) or weight sum (WHICH 1) is V.
 */
static void
enumerate(size_t entry, size_t ex, uint64_t *incs, uint64_t *wts, int mode, int which,
    uint64_t v, const char *why)
{
	size_t *cur = xrealloc(NULL, n_blocks + 1, sizeof *cur);   /* next out edge per depth */
	size_t *pe = xrealloc(NULL, n_blocks + 1, sizeof *pe);     /* edge taken per depth */
	uint64_t *si = xrealloc(NULL, n_blocks + 2, sizeof *si);
	uint64_t *sw = xrealloc(NULL, n_blocks + 2, sizeof *sw);
	int *oi = xrealloc(NULL, n_blocks + 2, sizeof *oi);        /* sum overflowed */
	int *ow = xrealloc(NULL, n_blocks + 2, sizeof *ow);
	size_t *m1 = xrealloc(NULL, n_blocks + 2, sizeof *m1);
	size_t depth = 0, k = 0;
	size_t node = entry;
	si[0] = sw[0] = 0;
	oi[0] = ow[0] = 0;
	m1[0] = blocks[entry].minus1 ? 1 : 0;
	cur[0] = out_first[entry];
	for (;;) {
		if (node == ex) {
			if (mode == 0) {
				if (m1[depth] != 1)
					fail("function %s: the path %s passes %zu blocks carrying -1",
					    fname, path_text(pe, depth, entry), m1[depth]);
				incs[k] = oi[depth] ? UINT64_MAX : si[depth];
				wts[k] = ow[depth] ? UINT64_MAX : sw[depth];
			} else {
				uint64_t s = which ? sw[depth] : si[depth];
				int o = which ? ow[depth] : oi[depth];
				if (!o && s == v)
					fail("function %s: %s: the path %s", fname, why,
					    path_text(pe, depth, entry));
			}
			k++;
		}
		/* next edge at this depth, or go up */
		while (node == ex || cur[depth] == out_first[node + 1]) {
			if (depth == 0)
				goto done;
			depth--;
			node = dag[pe[depth]].src;
		}
		size_t e = out_list[cur[depth]++];
		pe[depth] = e;
		const struct dedge *d = &dag[e];
		si[depth + 1] = si[depth] + d->inc;
		oi[depth + 1] = oi[depth] || si[depth + 1] < si[depth];
		sw[depth + 1] = sw[depth] + d->wt;
		ow[depth + 1] = ow[depth] || sw[depth + 1] < sw[depth];
		/* a path that starts by a dummy ENTRY=>h starts at h: the entry
		 * block does not run on it */
		m1[depth + 1] = (depth == 0 && d->dummy == 1 ? 0 : m1[depth]) +
		    (blocks[d->dst].minus1 ? 1 : 0);
		depth++;
		node = d->dst;
		cur[depth] = out_first[node];
	}
done:
	free(cur);
	free(pe);
	free(si);
	free(sw);
	free(oi);
	free(ow);
	free(m1);
}

static void
check_sums(uint64_t *s, uint64_t p, int which, size_t entry, size_t ex)
{
	const char *what = which ? "weights" : "increments";
	qsort(s, (size_t)p, sizeof *s, cmp_u64);
	for (uint64_t i = 0; i < p; i++) {
		if (s[i] == i)
			continue;
		char why[200];
		if (s[i] >= p) {
			snprintf(why, sizeof why, "the sum of %s %s %" PRIu64 " paths",
			    what, s[i] == UINT64_MAX ? "overflows or is not below" : "is not below", p);
			enumerate(entry, ex, NULL, NULL, 1, which, s[i], why);
			fail("function %s: a sum of %s is %" PRIu64 ", not below the %" PRIu64
			    " paths", fname, what, s[i], p);
		}
		if (i > 0 && s[i] == s[i - 1]) {
			snprintf(why, sizeof why, "two paths have the sum of %s %" PRIu64, what, s[i]);
			enumerate(entry, ex, NULL, NULL, 1, which, s[i], why);
		}
		fail("function %s: no path has the sum of %s %" PRIu64 " (%" PRIu64 " paths)",
		    fname, what, i, p);
	}
}

/* Ball-Larus's own numbering, checked block by block (for many paths). */
static void
check_counting(void)
{
	size_t maxdeg = 0;
	for (size_t v = 0; v < n_blocks; v++)
		if (out_first[v + 1] - out_first[v] > maxdeg)
			maxdeg = out_first[v + 1] - out_first[v];
	size_t *tmp = xrealloc(NULL, maxdeg + 1, sizeof *tmp);
	for (int which = 0; which < 2; which++) {
		for (size_t v = 0; v < n_blocks; v++) {
			size_t n = 0;
			if (over[v])    /* not reached from ENTRY (its count fits) */
				continue;
			for (size_t i = out_first[v]; i < out_first[v + 1]; i++)
				tmp[n++] = out_list[i];
			/* insertion sort by the number */
			for (size_t i = 1; i < n; i++) {
				size_t x = tmp[i], j = i;
				uint64_t kx = which ? dag[x].wt : dag[x].inc;
				while (j > 0 && (which ? dag[tmp[j - 1]].wt : dag[tmp[j - 1]].inc) > kx) {
					tmp[j] = tmp[j - 1];
					j--;
				}
				tmp[j] = x;
			}
			uint64_t sum = 0;
			for (size_t i = 0; i < n; i++) {
				const struct dedge *d = &dag[tmp[i]];
				uint64_t val = which ? d->wt : d->inc;
				if (val != sum)
					fail("function %s: block %" PRIu64 ": an edge to %" PRIu64
					    " carries %s %" PRIu64 ", Ball-Larus gives %" PRIu64
					    " (checked by counting: more than %" PRIu64 " paths)",
					    fname, blocks[v].id, blocks[d->dst].id,
					    which ? "weight" : "increment", val, sum, limit);
				sum += npaths[d->dst];
			}
		}
	}
	free(tmp);
}

void
check_function(void)
{
	if (n_blocks < 2)
		fail("function %s: no ENTRY block", fname);
	size_t ex = 0, entry = 1;

	/* the contract's -1 rule */
	size_t *nout = xrealloc(NULL, n_blocks, sizeof *nout);
	size_t *last = xrealloc(NULL, n_blocks, sizeof *last);
	memset(nout, 0, n_blocks * sizeof *nout);
	for (size_t i = 0; i < n_edges; i++) {
		nout[edges[i].src]++;
		last[edges[i].src] = i;
	}
	for (size_t v = 0; v < n_blocks; v++) {
		if (v == ex)
			continue;
		int ends = nout[v] == 1 && (edges[last[v]].back || edges[last[v]].dst == ex);
		if (blocks[v].minus1 && !ends)
			fail("function %s: block %" PRIu64 " carries -1 but its %s",
			    fname, blocks[v].id, nout[v] == 1 ? "edge neither is a back edge "
			    "nor goes to EXIT" : "out edges are not exactly one");
		if (!blocks[v].minus1 && ends)
			fail("function %s: block %" PRIu64 " ends paths (its only edge %s) but "
			    "carries no -1", fname, blocks[v].id,
			    edges[last[v]].back ? "is a back edge" : "goes to EXIT");
	}
	free(nout);
	free(last);

	/* the DAG */
	n_dag = 0;
	for (size_t i = 0; i < n_edges; i++) {
		const struct edge *e = &edges[i];
		if (e->dst == entry)
			fail("function %s: line %zu: %s into the ENTRY block %" PRIu64 " (%s)",
			    fname, e->line, e->back ? "a back edge" : "an edge", blocks[entry].id,
			    e->back ? "its dummy edge ENTRY->ENTRY would be a cycle" :
			    "every path starts at ENTRY: nothing enters it");
		if (!e->back) {
			add_dag(e->src, e->dst, e->inc, e->wt, 0, i);
			continue;
		}
		add_dag(e->src, ex, 0, 0, 2, i);
		add_dag(entry, e->dst, e->inc, e->wt, 1, i);
	}
	out_first = xrealloc(out_first, n_blocks + 1, sizeof *out_first);
	out_list = xrealloc(out_list, n_dag + 1, sizeof *out_list);
	memset(out_first, 0, (n_blocks + 1) * sizeof *out_first);
	for (size_t i = 0; i < n_dag; i++)
		out_first[dag[i].src + 1]++;
	for (size_t v = 0; v < n_blocks; v++)
		out_first[v + 1] += out_first[v];
	{
		size_t *fill = xrealloc(NULL, n_blocks + 1, sizeof *fill);
		memcpy(fill, out_first, (n_blocks + 1) * sizeof *fill);
		for (size_t i = 0; i < n_dag; i++)
			out_list[fill[dag[i].src]++] = i;
		free(fill);
	}
	for (size_t v = 0; v < n_blocks; v++)
		if (v != ex && out_first[v + 1] == out_first[v])
			fail("function %s: block %" PRIu64 " has no edge out and is not EXIT",
			    fname, blocks[v].id);

	/* topological order (Kahn) */
	size_t *indeg = xrealloc(NULL, n_blocks, sizeof *indeg);
	size_t *order = xrealloc(NULL, n_blocks, sizeof *order);
	memset(indeg, 0, n_blocks * sizeof *indeg);
	for (size_t i = 0; i < n_dag; i++)
		indeg[dag[i].dst]++;
	size_t head = 0, tail = 0;
	for (size_t v = 0; v < n_blocks; v++)
		if (indeg[v] == 0)
			order[tail++] = v;
	while (head < tail) {
		size_t v = order[head++];
		for (size_t i = out_first[v]; i < out_first[v + 1]; i++)
			if (--indeg[dag[out_list[i]].dst] == 0)
				order[tail++] = dag[out_list[i]].dst;
	}
	if (tail < n_blocks) {
		for (size_t v = 0; v < n_blocks; v++)
			if (indeg[v] != 0)
				fail("function %s: the graph without back edges has a cycle "
				    "(through block %" PRIu64 ")", fname, blocks[v].id);
	}

	/* paths to EXIT and -1 blocks on them, in reverse topological order */
	npaths = xrealloc(npaths, n_blocks, sizeof *npaths);
	over = xrealloc(over, n_blocks, sizeof *over);
	size_t *lo = xrealloc(NULL, n_blocks, sizeof *lo);
	size_t *hi = xrealloc(NULL, n_blocks, sizeof *hi);
	for (size_t r = n_blocks; r-- > 0;) {
		size_t v = order[r];
		if (v == ex) {
			npaths[v] = 1;
			over[v] = 0;
			lo[v] = hi[v] = 0;
			continue;
		}
		uint64_t n = 0;
		int big = 0;
		size_t l = SIZE_MAX, h = 0;
		for (size_t i = out_first[v]; i < out_first[v + 1]; i++) {
			size_t t = dag[out_list[i]].dst;
			if (over[t] || n + npaths[t] < n)
				big = 1;
			else
				n += npaths[t];
			if (lo[t] < l)
				l = lo[t];
			if (hi[t] > h)
				h = hi[t];
		}
		npaths[v] = n;
		over[v] = big;
		lo[v] = l + (blocks[v].minus1 ? 1 : 0);
		hi[v] = h + (blocks[v].minus1 ? 1 : 0);
	}
	/* the entry again: its own -1 does not count on the dummy starts */
	{
		size_t l = SIZE_MAX, h = 0, own = blocks[entry].minus1 ? 1 : 0;
		for (size_t i = out_first[entry]; i < out_first[entry + 1]; i++) {
			const struct dedge *d = &dag[out_list[i]];
			size_t a = lo[d->dst] + (d->dummy == 1 ? 0 : own);
			size_t b = hi[d->dst] + (d->dummy == 1 ? 0 : own);
			if (a < l)
				l = a;
			if (b > h)
				h = b;
		}
		lo[entry] = l;
		hi[entry] = h;
	}
	uint64_t p = npaths[entry];
	if (over[entry])
		fail("function %s: more than 2^64-1 paths", fname);

	if (p <= limit) {
		uint64_t *incs = xrealloc(NULL, (size_t)p, sizeof *incs);
		uint64_t *wts = xrealloc(NULL, (size_t)p, sizeof *wts);
		enumerate(entry, ex, incs, wts, 0, 0, 0, NULL);
		check_sums(incs, p, 0, entry, ex);
		check_sums(wts, p, 1, entry, ex);
		free(incs);
		free(wts);
	} else {
		if (lo[entry] != 1 || hi[entry] != 1)
			fail("function %s: paths pass %zu to %zu blocks carrying -1, not exactly one",
			    fname, lo[entry], hi[entry]);
		check_counting();
	}
	free(lo);
	free(hi);
	free(indeg);
	free(order);
	printf("FUNCTION %s paths %" PRIu64 " ok\n", fname, p);
}
