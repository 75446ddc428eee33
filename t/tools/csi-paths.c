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

#include "csi-paths.h"

#define NOBLOCK SIZE_MAX

static const char *input = "-";
uint64_t limit = 1000000;

struct block *blocks;
size_t n_blocks;
static size_t cap_blocks;
struct edge *edges;
size_t n_edges;
static size_t cap_edges;
char *fname;
static size_t fname_line;

_Noreturn void
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

void *
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
	struct block b = { 0, 0, 0 };
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
