/*
 * csi-paths: a test reader for CSI path-tracing metadata, written from the
 * CSI document (../shared/spec/csi-path-tracing-metadata.txt), the facts in
 * real-readers.md and the contract of `dcfg-convert --to csi` (issue 8),
 * not from dcfg-convert's writer.
 *
 *   csi-paths [--limit N] [FILE]     (standard input without FILE or with -)
 *
 * For every function of the metadata it prints
 *
 *   FUNCTION NAME paths P ok
 *
 * where P is the number of ENTRY-to-EXIT paths of the function's DAG, or it
 * stops at the first violation: exit 1, one line `csi-paths: ...` on stderr
 * (what was printed before stays).  Usage errors and unreadable input: exit 2.
 *
 * The text is read strictly, line by line (every line ends in a newline):
 *
 *   #                      starts a function
 *   NAME                   any non-empty line
 *   ID|EXIT                exactly one; no lines
 *   ID|ENTRY|L|L...        exactly one; ID|ENTRY|NULL when it has no lines
 *   ID|L|L...              L a line number or -1 (at most one -1 per block)
 *   ID|NULL                a block without lines and without -1
 *   $
 *   A->B|INC$WEIGHT        a standard edge
 *   A~>B|INC$WEIGHT        a back edge
 *
 * Numbers are unsigned decimal without leading zeros (fitting 64 bits).
 * A bare `ID` or `ID|ENTRY` (no lines, no NULL) is refused: csi-cc and the
 * contract write NULL then.  Block ids are unique in the function; edges
 * name blocks of the function; no edge leaves the EXIT block.
 *
 * The contract's order is checked too: the EXIT block first, then the ENTRY
 * block, then the other blocks by ascending id; edges by source id, then
 * target id (equal pairs may repeat).  And its rule for -1: a block carries
 * -1 exactly when it has a single out edge and that edge is a back edge or
 * goes to EXIT.
 *
 * The paths (Ball-Larus, see real-readers.md): the DAG has the standard
 * edges; each back edge u~>h is replaced by its own dummy edge ENTRY->h
 * carrying that back edge's numbers and a dummy edge u->EXIT carrying 0.
 * Two back edges into one head are two dummy edges, so they need numbers of
 * their own: were they equal, two paths would share a sum (found below).
 * Nothing may enter the ENTRY block, where every path starts: a back edge
 * into it would need the dummy edge ENTRY->ENTRY, a cycle, and a standard
 * edge into it would make ENTRY not the DAG's source; both are refused.
 * Checked:
 *   - the DAG is acyclic; every block but EXIT has an edge out of it;
 *   - P (the number of ENTRY-to-EXIT paths) is at most 2^64-1;
 *   - P <= LIMIT (default 1000000): every path is enumerated (explicit
 *     stack, no recursion); the sums of increments are exactly
 *     {0, ..., P-1}, the sums of weights too, and every path passes exactly
 *     one block carrying -1 (a path that begins with a dummy ENTRY=>h
 *     starts running at h: the ENTRY block's own -1 is not on it);
 *   - P > LIMIT: by counting: every block's out edges, ordered by their
 *     numbers, carry 0, N1, N1+N2, ... (N the targets' path counts), for
 *     increments and for weights (Ball-Larus's own numbering, which the
 *     contract prescribes; it gives every sum set {0..P-1}), and the least
 *     and the greatest number of -1 blocks on a path are both 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOBLOCK SIZE_MAX

struct block {
	uint64_t id;
	int kind;           /* 0 plain, 1 ENTRY, 2 EXIT */
	int minus1;         /* carries -1 */
	size_t line;        /* input line, for messages */
};

struct edge {
	size_t src, dst;    /* block indices */
	int back;
	uint64_t inc, wt;
	size_t line;
};

/* A DAG edge. */
struct dedge {
	size_t src, dst;
	uint64_t inc, wt;
	int dummy;          /* 0 real, 1 ENTRY->h, 2 u->EXIT */
	size_t from;        /* index of the written edge it comes from */
};

static const char *input = "-";
static uint64_t limit = 1000000;

static struct block *blocks;
static size_t n_blocks, cap_blocks;
static struct edge *edges;
static size_t n_edges, cap_edges;
static char *fname;
static size_t fname_line;

static void
fail(const char *fmt, ...)
{
	va_list ap;
	fputs("csi-paths: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* _exit: no leak report of a sanitizer build on a found violation */
	fflush(stdout);
	_exit(1);
}

static void *
xrealloc(void *p, size_t n, size_t size)
{
	if (n != 0 && size > SIZE_MAX / n) {
		fputs("csi-paths: out of memory\n", stderr);
		exit(2);
	}
	p = realloc(p, n * size != 0 ? n * size : 1);
	if (p == NULL) {
		fputs("csi-paths: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

/* An unsigned decimal number at *s (no sign, no leading zero), advancing *s. */
static int
number(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	if (*p < '0' || *p > '9')
		return -1;
	if (*p == '0' && p[1] >= '0' && p[1] <= '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*s = p;
	*v = x;
	return 0;
}

static size_t
find_block(uint64_t id)
{
	/* the blocks are checked to be sorted by id after the first two */
	for (size_t i = 0; i < n_blocks && i < 2; i++)
		if (blocks[i].id == id)
			return i;
	size_t lo = 2, hi = n_blocks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (blocks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n_blocks && blocks[lo].id == id)
		return lo;
	return NOBLOCK;
}

static void
parse_block(const char *s, size_t ln)
{
	struct block b = { 0, 0, 0, ln };
	const char *p = s;
	if (number(&p, &b.id) != 0)
		fail("line %zu: `%s': not a block (a block id first)", ln, s);
	size_t nlines = 0;
	int null = 0;
	if (strcmp(p, "|EXIT") == 0) {
		b.kind = 2;
		p += 5;
	} else if (strcmp(p, "|NULL") == 0) {
		null = 1;
		p += 5;
	} else {
		if (strncmp(p, "|ENTRY", 6) == 0 && (p[6] == '|' || p[6] == '\0')) {
			b.kind = 1;
			p += 6;
			if (strcmp(p, "|NULL") == 0) {
				null = 1;
				p += 5;
			}
		}
		while (*p == '|') {
			p++;
			uint64_t v;
			if (strncmp(p, "-1", 2) == 0 && (p[2] == '|' || p[2] == '\0')) {
				if (b.minus1)
					fail("line %zu: `%s': -1 twice in one block", ln, s);
				b.minus1 = 1;
				p += 2;
			} else if (number(&p, &v) != 0 || (*p != '|' && *p != '\0')) {
				fail("line %zu: `%s': not a line number, -1, ENTRY, EXIT or NULL", ln, s);
			}
			nlines++;
		}
		if (*p != '\0')
			fail("line %zu: `%s': not a block", ln, s);
		if (nlines == 0 && !null)
			fail("line %zu: `%s': a block without lines is written with NULL", ln, s);
	}
	/* the contract's order: EXIT, ENTRY, then ascending ids */
	if (n_blocks == 0 && b.kind != 2)
		fail("line %zu: `%s': the first block is not the EXIT block", ln, s);
	if (n_blocks == 1 && b.kind != 1)
		fail("line %zu: `%s': the second block is not the ENTRY block", ln, s);
	if (n_blocks >= 1 && b.kind == 2)
		fail("line %zu: `%s': a second EXIT block", ln, s);
	if (n_blocks >= 2 && b.kind == 1)
		fail("line %zu: `%s': a second ENTRY block", ln, s);
	for (size_t i = 0; i < n_blocks && i < 2; i++)
		if (blocks[i].id == b.id)
			fail("line %zu: `%s': block %" PRIu64 " again", ln, s, b.id);
	if (n_blocks >= 3 && blocks[n_blocks - 1].id >= b.id)
		fail("line %zu: `%s': block %" PRIu64 " after block %" PRIu64
		    " (blocks by ascending id, or the same id again)", ln, s, b.id,
		    blocks[n_blocks - 1].id);
	if (n_blocks == cap_blocks) {
		cap_blocks = cap_blocks ? 2 * cap_blocks : 64;
		blocks = xrealloc(blocks, cap_blocks, sizeof *blocks);
	}
	blocks[n_blocks++] = b;
}

static void
parse_edge(const char *s, size_t ln)
{
	const char *p = s;
	uint64_t a, b;
	struct edge e;
	memset(&e, 0, sizeof e);
	e.line = ln;
	if (number(&p, &a) != 0)
		fail("line %zu: `%s': not an edge", ln, s);
	if (strncmp(p, "->", 2) == 0)
		e.back = 0;
	else if (strncmp(p, "~>", 2) == 0)
		e.back = 1;
	else
		fail("line %zu: `%s': not an edge (-> or ~>)", ln, s);
	p += 2;
	if (number(&p, &b) != 0 || *p++ != '|' || number(&p, &e.inc) != 0 ||
	    *p++ != '$' || number(&p, &e.wt) != 0 || *p != '\0')
		fail("line %zu: `%s': not an edge (A->B|INCREMENT$WEIGHT)", ln, s);
	e.src = find_block(a);
	e.dst = find_block(b);
	if (e.src == NOBLOCK)
		fail("line %zu: `%s': block %" PRIu64 " is not a block of %s", ln, s, a, fname);
	if (e.dst == NOBLOCK)
		fail("line %zu: `%s': block %" PRIu64 " is not a block of %s", ln, s, b, fname);
	if (blocks[e.src].kind == 2)
		fail("line %zu: `%s': an edge out of the EXIT block", ln, s);
	if (n_edges > 0) {
		const struct edge *q = &edges[n_edges - 1];
		if (blocks[q->src].id > a || (blocks[q->src].id == a && blocks[q->dst].id > b))
			fail("line %zu: `%s': edges not in order of source id, then target id", ln, s);
	}
	if (n_edges == cap_edges) {
		cap_edges = cap_edges ? 2 * cap_edges : 64;
		edges = xrealloc(edges, cap_edges, sizeof *edges);
	}
	edges[n_edges++] = e;
}

/* --- the checks of one function ------------------------------------------ */

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
check_counting(size_t entry)
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
	(void)entry;
}

static void
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
		check_counting(entry);
	}
	free(lo);
	free(hi);
	free(indeg);
	free(order);
	printf("FUNCTION %s paths %" PRIu64 " ok\n", fname, p);
}

int
main(int argc, char **argv)
{
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--limit") == 0 && i + 1 < argc) {
			const char *s = argv[++i];
			if (number(&s, &limit) != 0 || *s != '\0') {
				fprintf(stderr, "csi-paths: --limit %s: not a number\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fputs("usage: csi-paths [--limit N] [FILE]\n", stderr);
			return 2;
		} else {
			break;
		}
	}
	if (argc - i > 1) {
		fputs("usage: csi-paths [--limit N] [FILE]\n", stderr);
		return 2;
	}
	FILE *f = stdin;
	if (i < argc && strcmp(argv[i], "-") != 0) {
		input = argv[i];
		f = fopen(input, "r");
		if (f == NULL) {
			fprintf(stderr, "csi-paths: %s: %s\n", input, strerror(errno));
			return 2;
		}
	}

	enum { FUNC, NAME, BLOCKS, EDGES } state = FUNC;
	char *line = NULL;
	size_t cap = 0, ln = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) != -1) {
		ln++;
		if (len == 0 || line[len - 1] != '\n')
			fail("line %zu: the last line has no newline", ln);
		line[--len] = '\0';
		if (strlen(line) != (size_t)len)
			fail("line %zu: a NUL byte", ln);
		switch (state) {
		case FUNC:
			if (strcmp(line, "#") != 0)
				fail("line %zu: `%s': a function starts with `#'", ln, line);
			state = NAME;
			break;
		case NAME:
			if (len == 0)
				fail("line %zu: an empty function name", ln);
			free(fname);
			fname = strdup(line);
			fname_line = ln;
			n_blocks = n_edges = 0;
			state = BLOCKS;
			break;
		case BLOCKS:
			if (strcmp(line, "$") == 0) {
				if (n_blocks < 2)
					fail("line %zu: function %s has no %s block", ln, fname,
					    n_blocks == 0 ? "EXIT" : "ENTRY");
				state = EDGES;
			} else {
				parse_block(line, ln);
			}
			break;
		case EDGES:
			if (strcmp(line, "#") == 0) {
				check_function();
				state = NAME;
			} else {
				parse_edge(line, ln);
			}
			break;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "csi-paths: %s: %s\n", input, strerror(errno));
		return 2;
	}
	if (state == NAME)
		fail("line %zu: the input ends after `#' (no function name)", ln);
	if (state == BLOCKS)
		fail("line %zu: function %s (line %zu) ends before its `$'", ln, fname, fname_line);
	if (state == EDGES)
		check_function();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("csi-paths: cannot write the output\n", stderr);
		return 2;
	}
	free(line);
	return 0;
}
