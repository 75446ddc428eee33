/*
 * gen-pair: each routine's dominators and natural loops, and an image's
 * rows of the DCFG (SYMBOLS, SOURCE_DATA, BASIC_BLOCKS, ROUTINES): what is
 * written per routine. gen-pair-dcfg.c writes the file around them.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen-pair.h"

/* ---- dominators and loops -------------------------------------------------- */

/* Intra-routine successors of block B: bypass edges in, calls out. */
static int
isuccs(int b, int *o)
{
	const Blk *k = &blk[b];
	int i;

	switch (k->term) {
	case T_FALL: case T_SYSCALL:
		o[0] = b + 1;
		return 1;
	case T_JMP:
		o[0] = ed[k->s0].dst;
		return 1;
	case T_COND: case T_COLD: case T_CONT: case T_LATCH: case T_WHILE: case T_DRIVER:
		o[0] = ed[k->s0].dst;
		o[1] = ed[k->s1].dst;
		return 2;
	case T_SWITCH:
		for (i = 0; i < sw[k->aux].n; i++)
			o[i] = sc_blk[sw[k->aux].first + i];
		return sw[k->aux].n;
	case T_CALL:
		o[0] = b + 1;
		return 1;
	default:
		return 0;
	}
}

/* Per routine: preds in CSR form over local indexes. */
static int *pstart, *plist, *rpo, *rponum, *idom_l, *stk, *sidx, *mark;

static void
routine_preds(const Rt *r)
{
	int i, j, n, o[MAX_CASES];

	for (i = 0; i <= r->n; i++)
		pstart[i] = 0;
	for (i = 0; i < r->n; i++) {
		n = isuccs(r->first + i, o);
		for (j = 0; j < n; j++)
			pstart[o[j] - r->first + 1]++;
	}
	for (i = 0; i < r->n; i++)
		pstart[i + 1] += pstart[i];
	for (i = 0; i < r->n; i++)
		sidx[i] = pstart[i];
	for (i = 0; i < r->n; i++) {
		n = isuccs(r->first + i, o);
		for (j = 0; j < n; j++)
			plist[sidx[o[j] - r->first]++] = i;
	}
}

static int
intersect(int a, int b)
{
	while (a != b) {
		while (rponum[a] > rponum[b])
			a = idom_l[a];
		while (rponum[b] > rponum[a])
			b = idom_l[b];
	}
	return a;
}

void
dominators(void)
{
	size_t maxn = 1, ri;
	int i, j, n, sp, nr, changed, o[MAX_CASES];

	for (ri = 0; ri < nrt; ri++)
		if ((size_t)rt[ri].n > maxn)
			maxn = (size_t)rt[ri].n;
	pstart = xrealloc(NULL, (maxn + 1) * sizeof *pstart);
	plist = xrealloc(NULL, maxn * MAX_CASES * sizeof *plist);
	rpo = xrealloc(NULL, maxn * sizeof *rpo);
	rponum = xrealloc(NULL, maxn * sizeof *rponum);
	idom_l = xrealloc(NULL, maxn * sizeof *idom_l);
	stk = xrealloc(NULL, maxn * sizeof *stk);
	sidx = xrealloc(NULL, maxn * sizeof *sidx);
	mark = xrealloc(NULL, maxn * sizeof *mark);

	for (ri = 0; ri < nrt; ri++) {
		const Rt *r = &rt[ri];

		routine_preds(r);
		/* postorder by an explicit DFS from the entry (local 0) */
		for (i = 0; i < r->n; i++)
			mark[i] = 0, sidx[i] = 0, rponum[i] = -1, idom_l[i] = -1;
		nr = 0;
		sp = 0;
		stk[sp++] = 0;
		mark[0] = 1;
		while (sp) {
			int v = stk[sp - 1];
			n = isuccs(r->first + v, o);
			if (sidx[v] < n) {
				int s = o[sidx[v]++] - r->first;
				if (s < 0 || s >= r->n)
					die("internal error: successor outside its routine", NULL);
				if (!mark[s])
					mark[s] = 1, stk[sp++] = s;
			} else {
				rpo[nr++] = v; /* postorder for now */
				sp--;
			}
		}
		if (nr != r->n)
			die("internal error: a block unreachable in its routine", r->name);
		for (i = 0; i < nr / 2; i++)
			j = rpo[i], rpo[i] = rpo[nr - 1 - i], rpo[nr - 1 - i] = j;
		for (i = 0; i < nr; i++)
			rponum[rpo[i]] = i;
		/* Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm" */
		idom_l[0] = 0;
		do {
			changed = 0;
			for (i = 1; i < nr; i++) {
				int v = rpo[i], nd = -1;
				for (j = pstart[v]; j < pstart[v + 1]; j++) {
					int p = plist[j];
					if (idom_l[p] < 0)
						continue;
					nd = nd < 0 ? p : intersect(p, nd);
				}
				if (idom_l[v] != nd)
					idom_l[v] = nd, changed = 1;
			}
		} while (changed);
		for (i = 0; i < r->n; i++)
			blk[r->first + i].idom = blk[r->first + idom_l[i]].id;
	}
}

/* ---- an image's rows of the DCFG ---------------------------------------------- */

/* S as a JSON string; SLASH: "/" as "\/" (JSON allows both). */
void
jstr(const char *s, int slash)
{
	putc('"', jf);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || (*s == '/' && slash))
			putc('\\', jf);
		putc(*s, jf);
	}
	putc('"', jf);
}

/* Is B a source of a back edge into L's head: its latch or a continue? */
static int
is_latch(int b, int l)
{
	return b == lp[l].latch || (blk[b].term == T_CONT && blk[b].loop == l);
}

static void
write_loops(const Rt *r)
{
	int l, i, j, b, sp, first = 1;

	for (l = r->loop_first; l < r->loop_first + r->nloops; l++) {
		const Loop *L = &lp[l];
		int h = L->head - r->first;

		/* the natural loop of the back edges latch -> head */
		for (i = 0; i < r->n; i++)
			mark[i] = 0;
		mark[h] = 1;
		sp = 0;
		for (b = L->head; b < L->end; b++)
			if (is_latch(b, l) && !mark[b - r->first])
				mark[b - r->first] = 1, stk[sp++] = b - r->first;
		while (sp) {
			int v = stk[--sp];
			for (j = pstart[v]; j < pstart[v + 1]; j++)
				if (!mark[plist[j]])
					mark[plist[j]] = 1, stk[sp++] = plist[j];
		}
		fprintf(jf, "%s\n                    [ %" PRIu32 ", [ ", first ? "" : ",", blk[L->head].id);
		for (b = L->head, j = 0; b < L->end; b++)
			if (is_latch(b, l))
				fprintf(jf, "%s%" PRIu32, j++ ? ", " : "", blk[b].id);
		fprintf(jf, " ], [ ");
		for (i = 0, j = 0; i < r->n; i++)
			if (mark[i])
				fprintf(jf, "%s%" PRIu32, j++ ? ", " : "", blk[r->first + i].id);
		fprintf(jf, " ]");
		if (L->parent >= 0)
			fprintf(jf, ", %" PRIu32, blk[lp[L->parent].head].id);
		fprintf(jf, " ]");
		first = 0;
	}
}

enum { D_FILE, D_SYMBOLS, D_SOURCE, D_BLOCKS, D_ROUTINES };

static void
write_symbols(const Img *im, const int *order, int n)
{
	int j;

	fprintf(jf, "\"SYMBOLS\" : [\n                [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]");
	for (j = 0; j < im->nplt + (im->nplt > 0); j++) {
		fprintf(jf, ",\n                [ \"%s%s\", \"0x%" PRIx64 "\", 16 ]",
		    j ? im->plt[j - 1] : ".plt", j ? "@plt" : "", im->plt_off + 16 * (uint64_t)j);
	}
	for (j = 0; j < n; j++) {
		const Rt *r = &rt[order[j]];
		fprintf(jf, ",\n                [ ");
		jstr(r->name, 0);
		fprintf(jf, ", \"0x%" PRIx64 "\", %" PRIu64 " ]", r->off, r->size);
	}
	fprintf(jf, " ]");
}

/* An open SOURCE_DATA range: instructions at OFF, SIZE bytes. */
typedef struct {
	uint64_t off;
	uint32_t size;
	int file, line, n, left, gap;
} Range;

static void
flush_range(Range *g)
{
	if (g->n && !g->gap)
		fprintf(jf, ",\n                [ %d, %d, \"0x%" PRIx64 "\", %" PRIu32 ", %d ]",
		    g->file, g->line, g->off, g->size, g->n);
	g->n = g->left = 0;
}

/* The next range of routine R from OFF: a new line, or (a for loop's test
 * after its body) one of the routine's earlier lines; now and then none,
 * but never at the routine's entry (a function's first line is known). */
static void
open_range(Range *g, const Rt *r, int *line, uint64_t off)
{
	g->off = off;
	g->size = 0;
	g->left = 1 + (int)below(&G, 6);
	g->gap = below(&G, 8) == 0 && off != blk[r->first].off;
	if (*line > r->line0 && below(&G, 4) == 0) {
		g->line = r->line0 + (int)below(&G, (uint32_t)(*line - r->line0 + 1));
	} else {
		*line += 1 + (int)below(&G, 3);
		g->line = *line;
	}
}

/*
 * SOURCE_DATA as Pin writes it from a line table: ranges follow the
 * instructions, not the blocks. A block spans several ranges, a range runs
 * on into the next block when the two are adjacent (so a block can start
 * or end inside a range, or lie wholly inside one), a range's NUM_INSTRS
 * need not follow its bytes, a line comes back in a later range, and some
 * instructions are on no line.
 */
static void
write_source(const int *order, int n)
{
	int j, b, q;

	fprintf(jf, "\"SOURCE_DATA\" : [\n"
	    "                [ \"FILE_NAME_ID\", \"LINE_NUM\",\n"
	    "                  \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ]");
	for (j = 0; j < n; j++) {
		const Rt *r = &rt[order[j]];
		int line = r->line0;
		Range g = { 0, 0, r->file, line, 0, 0, 0 };
		for (b = r->first; b < r->first + r->n; b++) {
			const Blk *k2 = &blk[b];
			uint64_t off = k2->off;
			if (g.n && g.off + g.size != off)
				flush_range(&g);
			for (q = 0; q < k2->ninstr; q++) {
				uint8_t len = ilens[k2->ilen + (size_t)q];
				if (g.left == 0) {
					flush_range(&g);
					open_range(&g, r, &line, off);
				}
				g.size += len;
				g.n++;
				g.left--;
				off += len;
			}
		}
		flush_range(&g);
	}
	fprintf(jf, " ]");
}

static void
write_blocks(const int *order, int n)
{
	int j, b;

	fprintf(jf, "\"BASIC_BLOCKS\" : [\n"
	    "                [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\",\n"
	    "                  \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\" ]");
	for (j = 0; j < n; j++) {
		const Rt *r = &rt[order[j]];
		for (b = r->first; b < r->first + r->n; b++)
			fprintf(jf, ",\n                [ %" PRIu32 ", \"0x%" PRIx64 "\", %" PRIu32
			    ", %d, %" PRIu32 ", %" PRIu64 " ]", blk[b].id, blk[b].off,
			    blk[b].size, blk[b].ninstr, blk[b].lastoff, blk[b].count);
	}
	fprintf(jf, " ]");
}

static void
write_routines(const int *order, int n)
{
	int j, k, b;

	fprintf(jf, "\"ROUTINES\" : [\n"
	    "                [ \"ENTRY_NODE_ID\", \"EXIT_NODE_IDS\", \"NODES\", \"LOOPS\" ]");
	for (j = 0; j < n; j++) {
		const Rt *r = &rt[order[j]];
		fprintf(jf, ",\n                [ %" PRIu32 ", [ ", blk[r->entry].id);
		for (k = 0; k < r->nexits; k++)
			fprintf(jf, "%s%" PRIu32, k ? ", " : "", blk[exits[r->exit_first + k]].id);
		fprintf(jf, " ],\n                  [ [ \"NODE_ID\", \"IDOM_NODE_ID\" ]");
		for (b = r->first; b < r->first + r->n; b++)
			fprintf(jf, ", [ %" PRIu32 ", %" PRIu32 " ]", blk[b].id, blk[b].idom);
		fprintf(jf, " ]");
		/* no LOOPS value at all where there is no loop, as in real files */
		if (r->nloops) {
			routine_preds(r);
			fprintf(jf, ",\n                  [ [ \"LOOP_HEAD_NODE_ID\", "
			    "\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\",\n"
			    "                      \"LOOP_NODE_IDS\", \"PARENT_LOOP_HEAD_NODE_ID\" ],");
			write_loops(r);
			fprintf(jf, " ]");
		}
		fprintf(jf, " ]");
	}
	fprintf(jf, " ]");
}

/* An image's row; IMAGE_DATA's keys in the seed's order. */
void
write_image(int i)
{
	const Img *im = &img[i];
	int *order, j, k, n = im->rt_n, b, sep = 0;

	/* routines in address order */
	order = xrealloc(NULL, (size_t)n * sizeof *order);
	for (j = 0; j < n; j++)
		order[j] = im->rt_first + j;
	for (j = 1; j < n; j++)
		for (k = j; k > 0 && rt[order[k - 1]].off > rt[order[k]].off; k--)
			b = order[k], order[k] = order[k - 1], order[k - 1] = b;

	fprintf(jf, "          [ %d, \"0x%" PRIx64 "\", %" PRIu64 ",\n            { ", im->id, im->load, im->size);
	for (k = 0; k < 5; k++) {
		int key = S.img_order[k];
		if (key == D_SOURCE && im->nosrc)
			continue;
		if (sep++)
			fprintf(jf, ",\n              ");
		switch (key) {
		case D_FILE:
			fprintf(jf, "\"FILE_NAME_ID\" : %d", im->file);
			break;
		case D_SYMBOLS:
			write_symbols(im, order, n);
			break;
		case D_SOURCE:
			write_source(order, n);
			break;
		case D_BLOCKS:
			write_blocks(order, n);
			break;
		default:
			write_routines(order, n);
			break;
		}
	}
	fprintf(jf, " } ]");
	free(order);
}

/* An image of symbols only: FILE_NAME_ID and SYMBOLS, in the seed's order. */
void
write_symimg(const SymImg *si)
{
	int k, j, sep = 0;

	fprintf(jf, "          [ %d, \"0x%" PRIx64 "\", %" PRIu64 ",\n            { ", si->id, si->load, si->size);
	for (k = 0; k < 5; k++) {
		if (S.img_order[k] != D_FILE && S.img_order[k] != D_SYMBOLS)
			continue;
		if (sep++)
			fprintf(jf, ",\n              ");
		if (S.img_order[k] == D_FILE) {
			fprintf(jf, "\"FILE_NAME_ID\" : %d", si->file);
			continue;
		}
		fprintf(jf, "\"SYMBOLS\" : [\n                [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]");
		for (j = 0; j < si->n; j++) {
			fprintf(jf, ",\n                [ ");
			jstr(si->names[j], 0);
			fprintf(jf, ", \"0x%" PRIx32 "\", %" PRIu32 " ]", si->off[j], si->sz[j]);
		}
		fprintf(jf, " ]");
	}
	fprintf(jf, " } ]");
}

