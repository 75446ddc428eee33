/*
 * gen-pair [--seed S] [--threads T] [--edges N] [--blocks B] [--long-loops L] OUTDIR
 *
 * Simulates a synthetic program and writes a consistent pair:
 *   OUTDIR/prog.dcfg.json  a DCFG (format 1.00, section 2) of the program
 *                          with the exact counts of the run below;
 *   OUTDIR/prog.edges      the true edge sequence of that run as an edge
 *                          stream (dcfg-stream(5)): "# dcfg-stream 1",
 *                          "# process PID", then per thread "# thread TID"
 *                          and one decimal edge id per line;
 *   OUTDIR/prog.inclusive  the true self and inclusive instructions of every
 *                          routine per thread, from the walk itself (below).
 * Test and benchmark tool, not installed. The output depends only on the
 * arguments (SEED defaults to 1, T to 2, N to 100000, B to 2000).
 *
 * The program: a main binary at 0x400000 and one or two shared libraries
 * at high addresses, about B basic blocks in all. Each routine is a
 * structured CFG grown from templates: sequences, if/then, if/else,
 * early returns, do-while loops (head, body, latch with the back edge),
 * while loops (head test, body, latch jumping back), "continue"s (more
 * back edges to the innermost loop's head: several latches per head),
 * switches (indirect jumps), calls (direct, or indirect with 2-3 targets)
 * and, in the libraries, system calls (SYSTEM_CALL_BYPASS). Some routines
 * are a loop from their first block: the loop's head is the entry. Cold
 * paths hang off conditional branches that are never taken. Routines may
 * only call routines generated before them (libraries only within
 * themselves), so the call graph is acyclic and every walk ends. Two roots
 * come last: "main" (thread 0) and "worker_main" (threads 1..T-1), each a
 * driver loop around a switch that dispatches to the routines nobody else
 * calls.
 *
 * The shapes of real DCFGs (/work/shared/real/README.md) vary with the
 * seed (draw_shapes), so that a few seeds show all of them:
 *   - region DCFGs (about one seed in three), as seeded from a whole
 *     run: most routines are dead (libm may be wholly), called only from
 *     cold paths or dead code or by nobody, so most blocks, edges and
 *     loops have count 0; every seed has some cold paths, switch cases of
 *     weight 0 and indirect-call targets never chosen;
 *   - SOURCE_DATA left out for some images; images with only FILE_NAME_ID
 *     and SYMBOLS ("[vdso]", libdl); ROUTINES rows without LOOPS and LOOPS
 *     rows without a parent (always, where there is none);
 *   - EDGES rows in shuffled id order (always), the keys of the top-level,
 *     process and image objects in a drawn order; file names with "\/"
 *     (about one seed in two);
 *   - INSTR_COUNT_PER_THREAD off by a few instructions per thread (about
 *     two seeds in three; INSTR_COUNT, still their sum, then differs from
 *     the sum of COUNT x NUM_INSTRS by -10 to 25, never 0);
 *   - the same names in several images: a routine "_init" in each image
 *     (where one is small enough), ".plt" and "NAME@plt" symbols (no
 *     blocks) in front of the code of the main binary, libc and maybe
 *     libm, always with "__cxa_finalize@plt".
 *
 * Every block execution takes exactly one edge out of the block: a call
 * block its call edge (the CALL_BYPASS edge to the return site exists,
 * count 0, spec 2.16), a return block the RETURN edge to the return site
 * on top of the walk's explicit stack, the root's return block the EXIT
 * edge to END. Each thread is one walk: ENTRY from START to its root's
 * entry, branches drawn from per-branch probabilities (cold paths and
 * cases or targets of weight 0 never), loop trip counts drawn on loop
 * entry, by any edge into the head from outside the loop (1..M, M <= 50,
 * smaller for costly bodies), until the thread has taken N/T edges
 * (thread 0 also the remainder); from then on every loop leaves at its
 * next test, no "continue" is taken and the driver loop ends, so the
 * thread overshoots by at most one loop-free path to its EXIT edge. A
 * "continue" in a do-while ends an iteration as its latch does (taken
 * only while iterations are left); in a while loop it goes back to the
 * head's test.
 *
 * With --long-loops L, some outermost loops run L iterations of the same
 * edges each (long_loop, below): a trace with long loops, as real programs
 * have, whose repeats dcfg-encode and dcfg-expand --runs can find.
 *
 * Edges are streamed to prog.edges as they are taken; only per-thread
 * edge counts are kept, so any N fits in memory. The DCFG, written last,
 * holds every edge of the CFG (untaken ones with zero counts), each
 * block's COUNT (the sum of its incoming edge counts), IDOM_NODE_IDs from
 * the Cooper-Harvey-Kennedy algorithm on each routine's intra-routine
 * graph (bypass edges included, calls and returns not), natural loops of
 * all the back edges into a head with their parents, and
 * INSTR_COUNT_PER_THREAD: the sum over a thread's edges of the source
 * block's NUM_INSTRS (START counts 0), plus the seed's per-thread error
 * (above; never below 0). The true instructions of a thread are the sum
 * without that error; prog.inclusive holds them.
 * Ids are spread out: node ids from about 1000 with gaps, edge ids with
 * gaps and shuffled, edge-type ids shuffled.
 *
 * prog.inclusive is counted during the walk from the walk's own knowledge
 * of activations, not by matching returns to call sites. Per thread, the
 * instructions so far are the sum of NUM_INSTRS over the blocks entered by
 * the thread's edges. An activation stack runs parallel to the return
 * stack: the ENTRY edge activates the thread's root (start 0); a call edge
 * activates its callee, start = the instructions so far before the
 * callee's entry block; a return block (T_RET, the root's too, which takes
 * the EXIT edge) ends the top activation, which is its routine's, and the
 * routine's inclusive cost grows by the instructions so far (the return
 * block counted) minus the start. A routine's self cost is the NUM_INSTRS
 * of its blocks entered. The call graph is acyclic, so no activation is
 * nested in another of the same routine, and every thread ends at its
 * root's EXIT with the stack empty: the root's inclusive cost is the
 * thread's true instructions (INSTR_COUNT_PER_THREAD without the seed's
 * error), as is the sum of the self costs. Only
 * two arrays per thread and routine are kept. The file, tab-separated, a
 * comment line then one line per thread and routine with a cost > 0, in
 * thread order then ENTRY_NODE_ID order:
 *   # thread<TAB>routine<TAB>name<TAB>self<TAB>inclusive
 *   THREAD<TAB>ENTRY_NODE_ID<TAB>NAME<TAB>SELF<TAB>INCLUSIVE
 * NAME is the routine's symbol, at its entry; "_init" names a routine in
 * several images, every other name is a single routine's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MAX_THREADS 8
#define MAX_TRIP 50
#define LOOP_CAP 3000.0  /* expected edges per loop execution, at most */
#define CALL_CAP 2500.0  /* expected edges per call of a non-root callee */
#define NEST 5           /* nesting depth of compound statements */
#define MAX_CASES 8

/* ---- errors, memory, PRNG ----------------------------------------- */

static void
die(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "gen-pair: %s: %s\n", msg, arg);
	else
		fprintf(stderr, "gen-pair: %s\n", msg);
	exit(2);
}

static void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		die("out of memory", NULL);
	return q;
}

#define GROW(arr, n, cap) do { \
	if ((n) >= (cap)) { \
		(cap) = (cap) ? 2 * (cap) : 64; \
		(arr) = xrealloc((arr), (cap) * sizeof *(arr)); \
	} \
} while (0)

typedef struct {
	uint64_t s;
} rng;

static uint64_t
splitmix(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static void
seed_rng(rng *r, uint64_t seed)
{
	r->s = splitmix(seed);
	if (r->s == 0)
		r->s = 1;
}

static inline uint64_t
rnd(rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(2685821657736338717);
}

static inline uint32_t
rnd32(rng *r)
{
	return (uint32_t)(rnd(r) >> 32);
}

/* Uniform in 0..n-1 (n >= 1). */
static inline uint32_t
below(rng *r, uint32_t n)
{
	return (uint32_t)(((uint64_t)rnd32(r) * n) >> 32);
}

static uint32_t
between(rng *r, uint32_t lo, uint32_t hi)
{
	return lo + below(r, hi - lo + 1);
}

static rng G; /* the generator's stream; each thread's walk has its own */

/* ---- the program ---------------------------------------------------- */

enum term {
	T_OPEN,    /* not yet decided: falls through to the next block */
	T_FALL,    /* s0 = b+1, FALL_THROUGH */
	T_JMP,     /* s0, DIRECT_UNCONDITIONAL_BRANCH */
	T_SYSCALL, /* s0 = b+1, SYSTEM_CALL_BYPASS */
	T_COND,    /* s0 taken (DIRECT_CONDITIONAL_BRANCH), s1 = b+1 not taken */
	T_COLD,    /* like T_COND, never falls through to s1, the cold path */
	T_CONT,    /* "continue": like T_COND, s0 = head of loop LOOP (a back
	            * edge), taken only while the loop may iterate */
	T_LATCH,   /* do-while latch: s0 = head (taken, back edge), s1 = b+1 */
	T_WHILE,   /* while head: s0 = exit (taken), s1 = b+1 = body */
	T_DRIVER,  /* a root's driver latch: like T_LATCH, runs to the budget */
	T_SWITCH,  /* aux = switch: INDIRECT_UNCONDITIONAL_BRANCH to the cases */
	T_CALL,    /* aux = call site; return site and bypass target b+1 */
	T_RET      /* return; exitidx = index among the routine's exits */
};

typedef struct {
	int rt, term, s0, s1, loop, aux, headof, exitidx;
	uint32_t p;       /* T_COND: taken if rnd32 < p */
	/* layout */
	int ninstr, line;
	uint32_t size, lastoff;
	size_t ilen;      /* offset of the instruction lengths in ilens */
	uint64_t off;
	uint32_t id, idom;
	uint64_t count;
} Blk;

typedef struct {
	int head, latch, parent, rt, kind; /* kind: 0 do-while, 1 while, 2 driver */
	int end;       /* the loop's blocks are [head, end): the exit is END */
	uint32_t trips;                    /* M: do-while 1..M, while 0..M */
} Loop;

typedef struct {
	int block, n, first, indirect; /* targets in ct_* [first, first+n) */
} Call;

typedef struct {
	int n, first; /* cases in sc_* [first, first+n) */
} Switch;

typedef struct {
	int img, first, n, entry, nexits, exit_first, loop_first, nloops;
	int called, root, dead, file, line0;
	double cost;
	char *name;
	uint64_t off, size;
} Rt;

typedef struct {
	int id, file, lib, rt_first, rt_n;
	uint64_t load, size, text;
	const char *path;
	const char *const *names;   /* real names first, for the libraries */
	const char *const *sources; /* source files (relative) */
	const char *srcdir;
	int nsources, *srcfile;     /* FILE_NAME_IDs of the used sources */
	int *srcline;               /* next free line per source */
	int nosrc;                  /* no SOURCE_DATA */
	int dead;                   /* region DCFGs: every routine dead */
	int nplt;                   /* ".plt" and NPLT "NAME@plt" symbols */
	const char *plt[16];
	uint64_t plt_off;
} Img;

/* An image with only FILE_NAME_ID and SYMBOLS, as "[vdso]" and libdl in
 * real files: code that ran, or did not, with no blocks recorded. */
typedef struct {
	const char *path;
	const char *const *names;
	int id, file, n;
	uint64_t load, size;
	uint32_t off[16], sz[16];
} SymImg;

/* The seed's choice among the shapes of real DCFGs (see the top). */
static struct {
	int region;       /* most of the program never runs */
	int dead_pct;     /* region: the share of routines that are dead */
	int cold_w;       /* weight of cold paths among the statements */
	int zero_pct;     /* switch cases and indirect targets of weight 0 */
	int entry_pct;    /* routines that are a loop from their entry */
	int delta;        /* INSTR_COUNT_PER_THREAD off from the blocks' sum */
	int slash;        /* file names written with "\/", as Intel's writer does */
	int top_order[6], proc_order[4], img_order[5];
} S;

static Blk *blk;
static size_t nblk, capblk;
static Loop *lp;
static size_t nlp, caplp;
static Call *cs;
static size_t ncs, capcs;
static int *ct_rt, *ct_edge, *ct_ret;
static uint32_t *ct_thr;
static size_t nct, capct;
static Switch *sw;
static size_t nsw, capsw;
static int *sc_blk, *sc_edge;
static uint32_t *sc_thr;
static size_t nsc, capsc;
static Rt *rt;
static size_t nrt, caprt;
static int *exits;
static size_t nexits, capexits;
static uint8_t *ilens;
static size_t nilens, capilens;
static Img img[3];
static int nimg;
static SymImg simg[2];
static int nsimg;

static int g_rt = -1, g_img, g_root; /* the routine being generated */
static int g_cold;                   /* > 0: generating code never run */
static int main_first;               /* first routine of the main image */

static int
newblk(void)
{
	Blk *b;

	GROW(blk, nblk, capblk);
	b = &blk[nblk];
	memset(b, 0, sizeof *b);
	b->rt = g_rt;
	b->term = T_OPEN;
	b->s0 = b->s1 = b->loop = b->aux = b->headof = b->exitidx = -1;
	return (int)nblk++;
}

static int
newloop(int head, int parent, int kind)
{
	GROW(lp, nlp, caplp);
	lp[nlp].head = head;
	lp[nlp].latch = -1;
	lp[nlp].parent = parent;
	lp[nlp].rt = g_rt;
	lp[nlp].kind = kind;
	lp[nlp].end = -1;
	lp[nlp].trips = 1;
	blk[head].headof = (int)nlp;
	return (int)nlp++;
}

/* Branch probabilities are mostly biased, as in real code. */
static uint32_t
draw_p(void)
{
	uint32_t u = below(&G, 100), pct;

	if (u < 35)
		pct = between(&G, 2, 20);
	else if (u < 70)
		pct = between(&G, 80, 98);
	else
		pct = between(&G, 20, 80);
	return (uint32_t)((uint64_t)pct * UINT32_MAX / 100);
}

static double
pfrac(uint32_t p)
{
	return p / 4294967296.0;
}

/* Cumulative thresholds for N weights; the last one is UINT32_MAX. */
static void
thresholds(uint32_t *thr, const uint32_t *w, int n, double *frac)
{
	uint64_t sum = 0, acc = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += w[i];
	for (i = 0; i < n; i++) {
		acc += w[i];
		thr[i] = i == n - 1 ? UINT32_MAX : (uint32_t)(acc * UINT32_MAX / sum);
		frac[i] = (double)w[i] / (double)sum;
	}
}

/* ---- call targets ---------------------------------------------------- */

/* Code that runs: not cold and not in a dead routine. */
static int
live_code(void)
{
	return !g_cold && !rt[g_rt].dead;
}

/* Only code that never runs calls dead routines. */
static int
cand_ok(int r)
{
	return !rt[r].root && (!rt[r].dead || !live_code()) &&
	    (g_root || rt[r].cost <= CALL_CAP);
}

/* A callee from routines [lo, hi), preferring ones nobody calls yet. */
static int
pick_one(int lo, int hi)
{
	int best = -1, i, r;

	if (hi <= lo)
		return -1;
	for (i = 0; i < 12; i++) {
		r = lo + (int)below(&G, (uint32_t)(hi - lo));
		if (!cand_ok(r))
			continue;
		if (!rt[r].called)
			return r;
		if (best < 0)
			best = r;
	}
	return best;
}

/* Fills TG with 1 target (direct) or 2-3 (indirect); returns the count. */
static int
pick_callees(int *tg, int *indirect)
{
	int lo, n, want, j, r, tries;

	*indirect = 0;
	if (img[g_img].lib) {
		r = pick_one(img[g_img].rt_first, g_rt);
	} else {
		if (below(&G, 100) < 15 && g_rt - main_first >= 3) {
			want = (int)between(&G, 2, 3);
			for (n = 0, tries = 0; n < want && tries < 30; tries++) {
				r = pick_one(main_first, g_rt);
				if (r < 0)
					break;
				for (j = 0; j < n && tg[j] != r; j++)
					;
				if (j == n)
					tg[n++] = r;
			}
			if (n >= 2) {
				*indirect = 1;
				return n;
			}
		}
		lo = below(&G, 100) < 60 && g_rt > main_first ? main_first : 0;
		r = pick_one(lo, g_rt);
	}
	if (r < 0)
		return 0;
	tg[0] = r;
	return 1;
}

/* Ends CUR with a call; returns the new return-site block. *COST gets the
 * expected edges of the call: the callee's plus the return site's. */
static int
emit_call(int cur, int n, const int *tg, int indirect, double *cost)
{
	uint32_t w[3] = { 1, 1, 1 };
	double frac[3] = { 1, 0, 0 };
	size_t cap0;
	int i;

	GROW(cs, ncs, capcs);
	cs[ncs].block = cur;
	cs[ncs].n = n;
	cs[ncs].first = (int)nct;
	cs[ncs].indirect = indirect;
	blk[cur].term = T_CALL;
	blk[cur].aux = (int)ncs++;
	/* an indirect call's later targets may never be chosen (weight 0) */
	for (i = 0; i < n; i++)
		w[i] = i > 0 && below(&G, 100) < (uint32_t)S.zero_pct ? 0 : between(&G, 1, 8);
	for (i = 0; i < n; i++) {
		cap0 = capct;
		GROW(ct_rt, nct, capct);
		if (capct != cap0) {
			ct_thr = xrealloc(ct_thr, capct * sizeof *ct_thr);
			ct_edge = xrealloc(ct_edge, capct * sizeof *ct_edge);
			ct_ret = xrealloc(ct_ret, capct * sizeof *ct_ret);
		}
		ct_rt[nct++] = tg[i];
		/* a routine called only by code that never runs is not called:
		 * a root will call it, unless it is dead */
		if (w[i] > 0 && live_code())
			rt[tg[i]].called = 1;
	}
	thresholds(ct_thr + cs[ncs - 1].first, w, n, frac);
	*cost = 1;
	for (i = 0; i < n; i++)
		*cost += frac[i] * rt[tg[i]].cost;
	return newblk();
}

/* Ends S with a switch over N new case blocks CASES (filled by the
 * caller afterwards through sc_blk); returns the switch index. */
static int
emit_switch(int s, int n, const int *cases, const uint32_t *w, double *frac)
{
	size_t cap0;
	int i;

	GROW(sw, nsw, capsw);
	sw[nsw].n = n;
	sw[nsw].first = (int)nsc;
	for (i = 0; i < n; i++) {
		cap0 = capsc;
		GROW(sc_blk, nsc, capsc);
		if (capsc != cap0) {
			sc_thr = xrealloc(sc_thr, capsc * sizeof *sc_thr);
			sc_edge = xrealloc(sc_edge, capsc * sizeof *sc_edge);
		}
		sc_blk[nsc++] = cases[i];
	}
	thresholds(sc_thr + sw[nsw].first, w, n, frac);
	blk[s].term = T_SWITCH;
	blk[s].aux = (int)nsw;
	return (int)nsw++;
}

static uint32_t
max_trips(double iter, double divisor)
{
	double m = LOOP_CAP * divisor / (iter > 1 ? iter : 1);

	if (m > MAX_TRIP)
		m = MAX_TRIP;
	if (m < 1)
		m = 1;
	return (uint32_t)m;
}

/* ---- routine bodies ----------------------------------------------------- */

enum {
	K_PLAIN, K_CALL, K_IF, K_IFELSE, K_RET, K_DO, K_WHILE, K_SWITCH, K_SYS,
	K_CONT, K_COLD, K_N
};

static int gen_seq(int cur, int budget, int depth, int loop, double *cost);

/* A do-while loop headed at the open block H, inside loop PARENT: H ...
 * latch, whose back edge goes to H. Returns the exit, open; *COST gets
 * the expected edges of one execution. */
static int
emit_do(int H, int sub, int depth, int parent, double *cost)
{
	double sub_c, iter;
	int l = newloop(H, parent, 0), tail, X;

	tail = gen_seq(H, sub, depth + 1, l, &sub_c);
	X = newblk();
	blk[tail].term = T_LATCH;
	blk[tail].s0 = H;
	blk[tail].s1 = X;
	blk[tail].loop = l;
	lp[l].latch = tail;
	lp[l].end = X;
	iter = 1 + sub_c;
	lp[l].trips = between(&G, 1, max_trips(iter, 2));
	*cost = (1 + lp[l].trips) / 2.0 * iter + 1;
	return X;
}

/* A while loop headed at the open block H: H tests (taken: exit), the
 * body follows, its end jumps back to H. */
static int
emit_while(int H, int sub, int depth, int parent, double *cost)
{
	double sub_c, iter;
	int l = newloop(H, parent, 1), T, tail, X;

	T = newblk();
	tail = gen_seq(T, sub, depth + 1, l, &sub_c);
	X = newblk();
	blk[tail].term = T_JMP;
	blk[tail].s0 = H;
	lp[l].latch = tail;
	lp[l].end = X;
	blk[H].term = T_WHILE;
	blk[H].s0 = X;
	blk[H].s1 = T;
	blk[H].loop = l;
	iter = 2 + sub_c;
	lp[l].trips = between(&G, 1, max_trips(iter, 2));
	*cost = lp[l].trips / 2.0 * iter + 2;
	return X;
}

/*
 * Appends statements after the open block CUR (the last block emitted)
 * until at least BUDGET more blocks exist; returns the open block at the
 * end, again the last one emitted. *COST gets the expected edges taken
 * by one execution, not counting CUR's own. LOOP is the innermost loop.
 */
static int
gen_seq(int cur, int budget, int depth, int loop, double *cost)
{
	double c = 0, m = 1, sub_c, sub_c2, frac[MAX_CASES], iter, pf;
	size_t start = nblk;
	int w[K_N], k, i, left, sub, tot, a, C, T, E, J, tail, tail2;
	int tg[3], n, ind, cases[MAX_CASES], tails[MAX_CASES];
	uint32_t cw[MAX_CASES];

	while ((int)(nblk - start) < budget) {
		left = budget - (int)(nblk - start);
		memset(w, 0, sizeof w);
		w[K_PLAIN] = 18;
		w[K_CALL] = 24;
		if (left >= 2) {
			w[K_IF] = 14;
			if (!g_root)
				w[K_RET] = 3;
			if (!g_cold)
				w[K_COLD] = S.cold_w;
		}
		if (left >= 3)
			w[K_IFELSE] = 12;
		if (depth < NEST) {
			if (left >= 2)
				w[K_DO] = 8;
			if (left >= 3)
				w[K_WHILE] = 6;
			if (left >= 6)
				w[K_SWITCH] = 3;
		}
		if (img[g_img].lib)
			w[K_SYS] = 2;
		if (loop >= 0 && lp[loop].kind != 2)
			w[K_CONT] = 5;
		for (tot = 0, k = 0; k < K_N; k++)
			tot += w[k];
		a = (int)below(&G, (uint32_t)tot);
		for (k = 0; a >= w[k]; k++)
			a -= w[k];
		sub = left <= 2 ? 0 : (int)below(&G, (uint32_t)(left < 24 ? left : 24));

		switch (k) {
		case K_CALL:
			n = pick_callees(tg, &ind);
			if (n > 0) {
				cur = emit_call(cur, n, tg, ind, &sub_c);
				c += m * sub_c;
				break;
			}
			/* FALLTHROUGH */
		case K_PLAIN:
			cur = newblk();
			c += m;
			break;
		case K_SYS:
			blk[cur].term = T_SYSCALL;
			cur = newblk();
			c += m;
			break;
		case K_IF: /* C: taken -> J, not taken -> T ... -> J */
			C = cur;
			T = newblk();
			tail = gen_seq(T, sub, depth + 1, loop, &sub_c);
			J = newblk();
			(void)tail; /* falls through to J */
			blk[C].term = T_COND;
			blk[C].s0 = J;
			blk[C].s1 = T;
			blk[C].p = draw_p();
			pf = pfrac(blk[C].p);
			c += m * ((1 - pf) * (1 + sub_c) + 1);
			cur = J;
			break;
		case K_COLD: /* C: taken -> J always; T ... -> J never runs */
			C = cur;
			g_cold++;
			T = newblk();
			(void)gen_seq(T, sub, depth + 1, loop, &sub_c);
			g_cold--;
			J = newblk();
			blk[C].term = T_COLD;
			blk[C].s0 = J;
			blk[C].s1 = T;
			c += m;
			cur = J;
			break;
		case K_IFELSE: /* C: taken -> E ... -> J, not taken -> T ... jmp J */
			C = cur;
			a = (int)below(&G, (uint32_t)sub + 1);
			T = newblk();
			tail = gen_seq(T, a, depth + 1, loop, &sub_c);
			E = newblk();
			tail2 = gen_seq(E, sub - a, depth + 1, loop, &sub_c2);
			J = newblk();
			(void)tail2;
			blk[tail].term = T_JMP;
			blk[tail].s0 = J;
			blk[C].term = T_COND;
			blk[C].s0 = E;
			blk[C].s1 = T;
			blk[C].p = draw_p();
			pf = pfrac(blk[C].p);
			c += m * (pf * (1 + sub_c2) + (1 - pf) * (1 + sub_c) + 1);
			cur = J;
			break;
		case K_RET: /* C: taken -> J (go on), not taken -> R (return) */
			C = cur;
			T = newblk();
			blk[T].term = T_RET;
			J = newblk();
			blk[C].term = T_COND;
			blk[C].s0 = J;
			blk[C].s1 = T;
			blk[C].p = (uint32_t)((uint64_t)between(&G, 80, 98) * UINT32_MAX / 100);
			c += m;
			m *= pfrac(blk[C].p);
			cur = J;
			break;
		case K_CONT: /* C: taken -> the loop's head, not taken -> J */
			C = cur;
			J = newblk();
			blk[C].term = T_CONT;
			blk[C].s0 = lp[loop].head;
			blk[C].s1 = J;
			blk[C].loop = loop;
			blk[C].p = draw_p();
			c += m;
			m *= 1 - pfrac(blk[C].p);
			cur = J;
			break;
		case K_DO: /* H ... latch: taken -> H, not taken -> X */
			cur = emit_do(newblk(), sub, depth, loop, &sub_c);
			c += m * sub_c;
			break;
		case K_WHILE: /* H: taken -> X, not taken -> B ... jmp H */
			cur = emit_while(newblk(), sub, depth, loop, &sub_c);
			c += m * sub_c;
			break;
		case K_SWITCH: /* S: indirect jump to cases; each ... jmp J */
			C = cur;
			n = (int)between(&G, 2, 5);
			/* later cases may never be chosen (weight 0) */
			for (i = 0; i < n; i++)
				cw[i] = i > 0 && below(&G, 100) < (uint32_t)S.zero_pct ? 0 : between(&G, 1, 10);
			for (i = 0; i < n; i++) {
				cases[i] = newblk();
				a = sub / n + (i < sub % n);
				g_cold += cw[i] == 0;
				tails[i] = gen_seq(cases[i], a, depth + 1, loop, &frac[i]);
				g_cold -= cw[i] == 0;
			}
			J = newblk();
			for (i = 0; i < n - 1; i++) {
				blk[tails[i]].term = T_JMP;
				blk[tails[i]].s0 = J;
			}
			{
				double cc[MAX_CASES];
				memcpy(cc, frac, sizeof cc);
				emit_switch(C, n, cases, cw, frac);
				for (iter = 1, i = 0; i < n; i++)
					iter += frac[i] * (1 + cc[i]);
			}
			c += m * iter;
			cur = J;
			break;
		}
	}
	*cost = c;
	return cur;
}

static int
begin_routine(int im, int root)
{
	GROW(rt, nrt, caprt);
	memset(&rt[nrt], 0, sizeof rt[nrt]);
	rt[nrt].img = im;
	rt[nrt].root = root;
	rt[nrt].first = (int)nblk;
	rt[nrt].loop_first = (int)nlp;
	g_rt = (int)nrt++;
	g_img = im;
	g_root = root;
	rt[g_rt].entry = newblk();
	return rt[g_rt].entry;
}

static void
end_routine(int tail, double cost)
{
	Rt *r = &rt[g_rt];
	int b;

	blk[tail].term = T_RET;
	r->n = (int)nblk - r->first;
	r->nloops = (int)nlp - r->loop_first;
	r->cost = cost;
	r->exit_first = (int)nexits;
	for (b = r->first; b < r->first + r->n; b++) {
		if (blk[b].term == T_OPEN)
			blk[b].term = T_FALL, blk[b].s0 = b + 1;
		if (blk[b].term == T_RET) {
			GROW(exits, nexits, capexits);
			blk[b].exitidx = r->nexits++;
			exits[nexits++] = b;
		}
	}
	g_root = 0;
}

static void
gen_routine(int im, int size)
{
	double c, c0 = 0;
	int cur = begin_routine(im, 0), sub;

	rt[g_rt].dead = img[im].dead ||
	    (S.region && below(&G, 100) < (uint32_t)S.dead_pct);
	/* a loop whose head is the entry block: the calls enter the loop */
	if (size >= 2 && below(&G, 100) < (uint32_t)S.entry_pct) {
		sub = (int)below(&G, (uint32_t)(size < 24 ? size : 24));
		if (size >= 3 && below(&G, 3) == 0)
			cur = emit_while(cur, sub, 1, -1, &c0);
		else
			cur = emit_do(cur, sub, 1, -1, &c0);
	}
	cur = gen_seq(cur, size - ((int)nblk - rt[g_rt].first), 0, -1, &c);
	end_routine(cur, c0 + 1 + c);
}

/*
 * A root: a little setup, then a driver loop around a switch whose cases
 * call the FORCED routines (and more), then a little cleanup.
 */
static int
gen_root(int im, const int *forced, int nforced, int size)
{
	double c, frac[MAX_CASES];
	int cur, r, H, J, X, l, i, j, n, cases[MAX_CASES], tails[MAX_CASES];
	uint32_t w[MAX_CASES];

	cur = begin_routine(im, 1);
	r = g_rt;
	cur = gen_seq(cur, (int)between(&G, 2, 5), 1, -1, &c);
	H = newblk();
	l = newloop(H, -1, 2);
	n = nforced / 3 + 2;
	if (n > MAX_CASES)
		n = MAX_CASES;
	for (i = 0; i < n; i++) {
		w[i] = between(&G, 1, 10);
		cases[i] = cur = newblk();
		for (j = i; j < nforced; j += n) {
			cur = gen_seq(cur, (int)below(&G, 3), 2, l, &c);
			cur = emit_call(cur, 1, &forced[j], 0, &c);
		}
		tails[i] = gen_seq(cur, size / n, 2, l, &c);
	}
	J = newblk();
	for (i = 0; i < n - 1; i++) {
		blk[tails[i]].term = T_JMP;
		blk[tails[i]].s0 = J;
	}
	emit_switch(H, n, cases, w, frac);
	X = newblk();
	blk[J].term = T_DRIVER;
	blk[J].s0 = H;
	blk[J].s1 = X;
	blk[J].loop = l;
	lp[l].latch = J;
	lp[l].end = X;
	cur = gen_seq(X, (int)between(&G, 1, 4), 1, -1, &c);
	end_routine(cur, 0);
	return r;
}

/* ---- names ------------------------------------------------------------ */

static const char *const verbs[] = {
	"parse", "read", "write", "init", "free", "alloc", "hash", "find",
	"insert", "remove", "update", "compute", "check", "scan", "emit",
	"load", "store", "flush", "merge", "sort", "split", "encode", "decode",
	"visit", "build", "reset", "push", "pop", "lookup", "resize", "copy",
	"compare", "print", "format", "open", "close", "process", "handle",
	"apply", "validate", NULL
};
static const char *const nouns[] = {
	"header", "block", "buffer", "node", "table", "entry", "list", "tree",
	"token", "symbol", "record", "field", "config", "state", "cache",
	"chunk", "edge", "graph", "queue", "stack", "string", "file", "stream",
	"frame", "context", "packet", "index", "key", "value", "map", "range",
	"region", "page", "request", "reply", "event", "task", "options",
	"matrix", "vector", NULL
};
static const char *const libc_names[] = {
	"memcpy", "memmove", "memset", "memcmp", "strlen", "strcmp", "strncmp",
	"strchr", "strrchr", "strcpy", "strncpy", "strdup", "strtol", "strtoul",
	"atoi", "malloc", "free", "calloc", "realloc", "_int_malloc",
	"_int_free", "malloc_consolidate", "sysmalloc", "printf", "fprintf",
	"sprintf", "snprintf", "__vfprintf_internal", "fputs", "fwrite",
	"fread", "fgets", "fopen", "fclose", "fflush", "_IO_file_write",
	"_IO_file_xsputn", "_IO_do_write", "new_do_write", "__write", "__read",
	"__open64", "__close", "qsort", "msort_with_tmp", "bsearch", "getenv",
	"pthread_mutex_lock", "pthread_mutex_unlock", "__lll_lock_wait",
	"isatty", "__errno_location", "__strchrnul_avx2",
	"__memcpy_avx_unaligned_erms", "__memset_avx2_unaligned_erms",
	"__strlen_avx2", "__memcmp_avx2_movbe", "__strcmp_avx2", NULL
};
static const char *const libm_names[] = {
	"sin", "cos", "tan", "exp", "log", "pow", "sqrt", "floor", "ceil",
	"fmod", "atan2", "__sin_fma", "__cos_fma", "__ieee754_exp",
	"__ieee754_log", "__ieee754_pow", "__exp1", "__mpsin", "__branred",
	"__kernel_standard", "hypot", "cbrt", "log10", "log2", "expm1", "tanh",
	"sinh", "cosh", "asin", "acos", "atan", "lround", "rint", "trunc",
	"modf", "frexp", "ldexp", "erf", "lgamma", "tgamma", NULL
};
static const char *const main_sources[] = {
	"main.c", "parse.c", "lexer.c", "hash.c", "table.c", "buffer.c", "io.c",
	"util.c", "alloc.c", "graph.c", "sort.c", "config.c", "net.c",
	"worker.c", "log.c", "stats.c", NULL
};
static const char *const libc_sources[] = {
	"malloc/malloc.c", "stdio-common/vfprintf-internal.c", "libio/fileops.c",
	"libio/genops.c", "string/strlen.c", "stdlib/msort.c",
	"stdlib/strtol_l.c", "nptl/pthread_mutex_lock.c",
	"sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S",
	"sysdeps/unix/sysv/linux/write.c", NULL
};
static const char *const libm_sources[] = {
	"sysdeps/ieee754/dbl-64/e_exp.c", "sysdeps/ieee754/dbl-64/s_sin.c",
	"sysdeps/ieee754/dbl-64/e_log.c", "sysdeps/ieee754/dbl-64/e_pow.c",
	"math/w_pow_template.c", "sysdeps/ieee754/dbl-64/branred.c", NULL
};
static const char *const lib_words[] = {
	"lock", "unlock", "init", "fini", "alloc", "free", "find", "copy", "fill",
	"scan", "flush", "grow", "trim", "check", "slow", "fast", NULL
};

/* Names in use: an open-addressing hash set. */
static char **names_set;
static size_t names_cap, names_n;

static uint64_t
hash_str(const char *p)
{
	uint64_t h = UINT64_C(14695981039346656037);

	while (*p)
		h = (h ^ (unsigned char)*p++) * UINT64_C(1099511628211);
	return h;
}

static char **
name_slot(const char *s)
{
	size_t i = (size_t)hash_str(s) & (names_cap - 1);

	while (names_set[i] && strcmp(names_set[i], s) != 0)
		i = (i + 1) & (names_cap - 1);
	return &names_set[i];
}

static int
name_used(const char *s)
{
	return names_cap && *name_slot(s) != NULL;
}

static char *
name_add(const char *s)
{
	char **old = names_set, **slot;
	size_t i, oldcap = names_cap;

	if (2 * (names_n + 1) > names_cap) {
		names_cap = names_cap ? 2 * names_cap : 256;
		names_set = xrealloc(NULL, names_cap * sizeof *names_set);
		memset(names_set, 0, names_cap * sizeof *names_set);
		for (i = 0; i < oldcap; i++)
			if (old[i])
				*name_slot(old[i]) = old[i];
		free(old);
	}
	slot = name_slot(s);
	*slot = xrealloc(NULL, strlen(s) + 1);
	strcpy(*slot, s);
	names_n++;
	return *slot;
}

static size_t
count_strs(const char *const *v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

static char *
make_name(const Img *im, int k)
{
	static const char *const sfx[] = { ".part.0", ".constprop.0", ".isra.0", ".cold" };
	char buf[96];
	int tries;

	if (im->lib && (size_t)k < count_strs(im->names) && !name_used(im->names[k]))
		snprintf(buf, sizeof buf, "%s", im->names[k]);
	else {
		for (tries = 0; ; tries++) {
			if (im->lib)
				snprintf(buf, sizeof buf, "__%s_%s%s",
				    im->names[below(&G, (uint32_t)count_strs(im->names))],
				    lib_words[below(&G, (uint32_t)count_strs(lib_words))],
				    tries > 20 ? "_1" : "");
			else
				snprintf(buf, sizeof buf, "%s_%s%s",
				    verbs[below(&G, (uint32_t)count_strs(verbs))],
				    nouns[below(&G, (uint32_t)count_strs(nouns))],
				    below(&G, 100) < 6 ? sfx[below(&G, 3)] : "");
			if (tries > 40)
				snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ".%d", k);
			if (!name_used(buf))
				break;
		}
	}
	return name_add(buf);
}

/* ---- generation ------------------------------------------------------- */

static uint32_t
draw_size(uint32_t left)
{
	uint32_t u = below(&G, 100), s;

	if (u < 45)
		s = between(&G, 1, 6);
	else if (u < 80)
		s = between(&G, 6, 20);
	else if (u < 95)
		s = between(&G, 20, 60);
	else
		s = between(&G, 60, 200);
	if (s > left)
		s = left;
	return s ? s : 1;
}

static int main_rt, worker_rt;

static const char *const main_plt[] = {
	"malloc", "free", "calloc", "realloc", "memcpy", "memset", "strlen",
	"strcmp", "printf", "fprintf", "puts", "fwrite", "fputc", "qsort",
	"getenv", "abort", "__stack_chk_fail", "pthread_create", "pthread_join",
	"sin", "cos", "exp", "log", "pow", "sqrt", "time", "localtime", NULL
};
static const char *const lib_plt[] = {
	"__tls_get_addr", "_dl_exception_create", "__tunable_get_val",
	"_dl_catch_exception", "_dl_signal_error", "_dl_find_dso_for_object",
	"__errno_location", "free", "malloc", "calloc", "memcpy", "memset", NULL
};
static const char *const vdso_syms[] = {
	"__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_time",
	"__vdso_getcpu", "__vdso_clock_getres", "LINUX_2.6", NULL
};
static const char *const libdl_syms[] = {
	"_init", ".plt", "__cxa_finalize@plt", "free@plt", "dlopen", "dlclose",
	"dlsym", "dlvsym", "dlerror", "dladdr", "dladdr1", "dlinfo", "dlmopen",
	"_fini", NULL
};

/* The PLTs (".plt" and "NAME@plt": symbols without blocks, before the
 * code) of the main binary, libc and sometimes libm, each with
 * "__cxa_finalize@plt"; and 0 to 2 images of symbols only. */
static void
plt_and_symbol_images(void)
{
	int i, j;

	for (i = 0; i < nimg; i++) {
		const char *const *v = i == 0 ? main_plt : lib_plt;
		if (i == 2 && below(&G, 2))
			continue;
		img[i].plt[img[i].nplt++] = "__cxa_finalize";
		for (j = 0; v[j] && img[i].nplt < 16; j++)
			if (below(&G, 100) < 30)
				img[i].plt[img[i].nplt++] = v[j];
	}
	nsimg = (int)below(&G, 3);
	for (i = 0; i < nsimg; i++) {
		int dl = nsimg == 2 ? i : (int)below(&G, 2);
		simg[i].path = dl ? "/lib/x86_64-linux-gnu/libdl.so.2" : "[vdso]";
		simg[i].names = dl ? libdl_syms : vdso_syms;
	}
}

static void
generate(uint32_t blocks)
{
	uint32_t lib_budget, main_budget, root_size, s;
	size_t used;
	int i, r, *forced = NULL, nf = 0, *rest = NULL, nr = 0;

	if (blocks < 24)
		blocks = 24;
	nimg = blocks >= 200 ? 2 + (int)below(&G, 2) : 2;
	lib_budget = blocks / 4 + below(&G, blocks / 10 + 1);
	root_size = 8 + blocks / 100;
	if (root_size > 200)
		root_size = 200;
	main_budget = blocks - lib_budget - 2 * root_size;
	/* compound statements and the roots' calls overshoot by about 5% */
	main_budget = main_budget > blocks / 20 ? main_budget - blocks / 20 : 0;

	/* images: 0 = main, 1 = libc, 2 = libm */
	img[0].path = "/home/dev/synth/build/prog";
	img[0].sources = main_sources;
	img[0].srcdir = "/home/dev/synth/src/";
	img[0].lib = 0;
	img[1].path = "/lib/x86_64-linux-gnu/libc.so.6";
	img[1].names = libc_names;
	img[1].sources = libc_sources;
	img[1].srcdir = "/usr/src/glibc-2.35/";
	img[1].lib = 1;
	img[2].path = "/lib/x86_64-linux-gnu/libm.so.6";
	img[2].names = libm_names;
	img[2].sources = libm_sources;
	img[2].srcdir = "/usr/src/glibc-2.35/";
	img[2].lib = 1;
	/* region DCFGs: libm may be loaded, and run in the whole program,
	 * but not in the region */
	img[2].dead = S.region && below(&G, 2);

	/* libraries first: each calls only itself */
	for (i = 1; i < nimg; i++) {
		uint32_t budget = nimg == 3 ? (i == 1 ? lib_budget * 2 / 3 : lib_budget / 3) : lib_budget;
		img[i].rt_first = (int)nrt;
		for (used = 0; used < budget; used += s) {
			s = draw_size(budget - (uint32_t)used);
			gen_routine(i, (int)s);
		}
		img[i].rt_n = (int)nrt - img[i].rt_first;
	}
	/* then the main binary's routines, then the two roots */
	main_first = (int)nrt;
	img[0].rt_first = main_first;
	for (used = 0; used < main_budget; used += s) {
		s = draw_size(main_budget - (uint32_t)used);
		gen_routine(0, (int)s);
	}
	for (r = 0; r < (int)nrt; r++)
		if (!rt[r].called && !rt[r].dead) {
			if (below(&G, 2)) {
				forced = xrealloc(forced, (size_t)(nf + 1) * sizeof *forced);
				forced[nf++] = r;
			}
		}
	worker_rt = gen_root(0, forced, nf, (int)root_size);
	for (r = 0; r < worker_rt; r++)
		if (!rt[r].called && !rt[r].dead) {
			rest = xrealloc(rest, (size_t)(nr + 1) * sizeof *rest);
			rest[nr++] = r;
		}
	main_rt = gen_root(0, rest, nr, (int)root_size);
	img[0].rt_n = (int)nrt - main_first;
	free(forced);
	free(rest);

	/* names: "_init" for a small routine of each image (as the same
	 * name in several images of real files), then the others' */
	for (i = 0; i < nimg; i++) {
		int k = 0, init = -1, seen = 0;
		for (r = img[i].rt_first; r < img[i].rt_first + img[i].rt_n; r++)
			if (!rt[r].root && rt[r].n <= 4 && below(&G, (uint32_t)++seen) == 0)
				init = r;
		if (init >= 0)
			rt[init].name = "_init";
		for (r = img[i].rt_first; r < img[i].rt_first + img[i].rt_n; r++) {
			if (r == main_rt || r == init)
				continue;
			if (r == worker_rt) {
				rt[r].name = "worker_main";
				continue;
			}
			rt[r].name = make_name(&img[i], k++);
		}
	}
	rt[main_rt].name = "main";
	plt_and_symbol_images();
}

/* ---- layout, ids, edges ------------------------------------------------ */

enum etype {
	ET_ENTRY, ET_EXIT, ET_BRANCH, ET_CONDITIONAL_BRANCH,
	ET_UNCONDITIONAL_BRANCH, ET_DIRECT_BRANCH, ET_INDIRECT_BRANCH,
	ET_DIRECT_CONDITIONAL_BRANCH, ET_INDIRECT_CONDITIONAL_BRANCH,
	ET_DIRECT_UNCONDITIONAL_BRANCH, ET_INDIRECT_UNCONDITIONAL_BRANCH,
	ET_REP, ET_FALL_THROUGH, ET_CALL, ET_DIRECT_CALL, ET_INDIRECT_CALL,
	ET_RETURN, ET_CALL_BYPASS, ET_SYSTEM_CALL, ET_SYSTEM_RETURN,
	ET_SYSTEM_CALL_BYPASS, ET_CONTEXT_CHANGE, ET_CONTEXT_CHANGE_RETURN,
	ET_CONTEXT_CHANGE_BYPASS, ET_EXCLUDED_CODE_BYPASS, ET_UNKNOWN, ET_N
};
static const char *const etype_names[ET_N] = {
	"ENTRY", "EXIT", "BRANCH", "CONDITIONAL_BRANCH", "UNCONDITIONAL_BRANCH",
	"DIRECT_BRANCH", "INDIRECT_BRANCH", "DIRECT_CONDITIONAL_BRANCH",
	"INDIRECT_CONDITIONAL_BRANCH", "DIRECT_UNCONDITIONAL_BRANCH",
	"INDIRECT_UNCONDITIONAL_BRANCH", "REP", "FALL_THROUGH", "CALL",
	"DIRECT_CALL", "INDIRECT_CALL", "RETURN", "CALL_BYPASS", "SYSTEM_CALL",
	"SYSTEM_RETURN", "SYSTEM_CALL_BYPASS", "CONTEXT_CHANGE",
	"CONTEXT_CHANGE_RETURN", "CONTEXT_CHANGE_BYPASS",
	"EXCLUDED_CODE_BYPASS", "UNKNOWN"
};
static uint32_t etype_id[ET_N];

#define N_START (-1)
#define N_END (-2)
static uint32_t start_id, end_id, unknown_id;

typedef struct {
	int src, dst, type, init; /* init: loop whose counter entering dst starts */
	uint32_t id;
} Edge;

static Edge *ed;
static size_t ned, caped;
static int entry_edge[2];

static int
add_edge(int src, int dst, int type)
{
	GROW(ed, ned, caped);
	ed[ned].src = src;
	ed[ned].dst = dst;
	ed[ned].type = type;
	ed[ned].init = -1;
	/* an edge into a loop's head from outside the loop (not a back
	 * edge) starts the loop's count */
	if (dst >= 0 && blk[dst].headof >= 0) {
		const Loop *L = &lp[blk[dst].headof];
		if (L->kind != 2 && (src < L->head || src >= L->end))
			ed[ned].init = blk[dst].headof;
	}
	return (int)ned++;
}

static const uint8_t body_len[] = { 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 7, 7, 8, 3, 4, 2, 5 };

static uint8_t
last_len(const Blk *b)
{
	switch (b->term) {
	case T_JMP:
		return below(&G, 2) ? 2 : 5;
	case T_COND: case T_COLD: case T_CONT: case T_LATCH: case T_WHILE: case T_DRIVER:
		return below(&G, 2) ? 2 : 6;
	case T_SWITCH:
		return below(&G, 2) ? 2 : 7;
	case T_CALL:
		if (cs[b->aux].indirect)
			return (uint8_t)(below(&G, 3) == 0 ? 6 : 2 + below(&G, 2));
		return 5;
	case T_RET:
		return 1;
	case T_SYSCALL:
		return 2;
	default:
		return body_len[below(&G, sizeof body_len)];
	}
}

static void
layout(void)
{
	int i, j, k, r, *order, n;
	uint64_t off;
	uint32_t id;
	Blk *b;

	/* block shapes */
	for (size_t x = 0; x < nblk; x++) {
		b = &blk[x];
		b->ninstr = below(&G, 10) == 0 ? (int)between(&G, 1, 24)
		    : 1 + (int)below(&G, 3) + (int)below(&G, 4);
		b->ilen = nilens;
		b->size = 0;
		for (k = 0; k < b->ninstr; k++) {
			GROW(ilens, nilens, capilens);
			ilens[nilens] = k == b->ninstr - 1 ? last_len(b)
			    : body_len[below(&G, sizeof body_len)];
			b->lastoff = b->size;
			b->size += ilens[nilens++];
		}
	}
	/* images, routines in shuffled order; node ids in address order */
	id = 1000 + below(&G, 100);
	for (i = 0; i < nimg; i++) {
		Img *im = &img[i];
		n = im->rt_n;
		order = xrealloc(NULL, (size_t)n * sizeof *order);
		for (j = 0; j < n; j++)
			order[j] = im->rt_first + j;
		for (j = n - 1; j > 0; j--) {
			k = (int)below(&G, (uint32_t)j + 1);
			r = order[j], order[j] = order[k], order[k] = r;
		}
		off = im->plt_off = i == 0 ? 0x1020 + 16 * below(&G, 64) : 0x24000 + 0x10 * below(&G, 4096);
		if (im->nplt)
			off += 16 * (uint64_t)(im->nplt + 1) + 16 * below(&G, 8);
		im->text = off;
		for (j = 0; j < n; j++) {
			Rt *ro = &rt[order[j]];
			off = (off + 15) & ~(uint64_t)15;
			ro->off = off;
			for (k = ro->first; k < ro->first + ro->n; k++) {
				blk[k].off = off;
				off += blk[k].size;
				blk[k].id = id;
				id += 1 + (below(&G, 4) == 0 ? below(&G, 6) : 0);
			}
			ro->size = off - ro->off;
			off += below(&G, 4) == 0 ? below(&G, 32) : 0;
		}
		free(order);
		im->size = ((off + 0x1fff) & ~(uint64_t)0xfff) + 0x1000 * below(&G, 64);
	}
	img[0].load = 0x400000;
	img[0].id = 1;
	img[1].load = UINT64_C(0x7f0000000000) + ((uint64_t)below(&G, 0x7ffff) << 20);
	img[1].id = 2 + (int)below(&G, 3);
	if (nimg == 3) {
		img[2].load = ((img[1].load + img[1].size + 0xfff) & ~(uint64_t)0xfff) +
		    0x200000 * between(&G, 1, 16);
		img[2].id = img[1].id + 1 + (int)below(&G, 3);
	}
	/* the images of symbols only: libdl after the libraries, [vdso] high */
	for (i = 0; i < nsimg; i++) {
		SymImg *si = &simg[i];
		uint64_t o = 0x1000;
		const Img *last = &img[nimg - 1];
		for (j = 0; si->names[j] && j < 16; j++) {
			const char *nm = si->names[j];
			uint32_t sz = strcmp(nm, "_init") == 0 ? 24 : strcmp(nm, "_fini") == 0 ? 9
			    : strstr(nm, "plt") ? 16 : 32 + 16 * below(&G, 24);
			o = (o + 15) & ~(uint64_t)15;
			si->off[j] = (uint32_t)o;
			si->sz[j] = sz;
			o += sz;
		}
		si->n = j;
		si->size = (o + 0xfff) & ~(uint64_t)0xfff;
		si->id = (i ? simg[i - 1].id : last->id) + 1 + (int)below(&G, 2);
		si->load = si->names == vdso_syms
		    ? UINT64_C(0x7ffc00000000) + ((uint64_t)below(&G, 0xfffff) << 12)
		    : ((last->load + last->size + 0xfff) & ~(uint64_t)0xfff) + 0x200000 * between(&G, 20, 40);
	}
	start_id = 1 + below(&G, 300);
	end_id = start_id + 1 + below(&G, 300);
	unknown_id = end_id + 1 + below(&G, 300);
	/* edge-type ids: increasing with gaps, then shuffled */
	{
		uint32_t v = 1 + below(&G, 4);
		for (i = 0; i < ET_N; i++) {
			etype_id[i] = v;
			v += 1 + below(&G, 3);
		}
		for (i = ET_N - 1; i > 0; i--) {
			uint32_t t;
			k = (int)below(&G, (uint32_t)i + 1);
			t = etype_id[i], etype_id[i] = etype_id[k], etype_id[k] = t;
		}
	}
}

static void
make_edges(void)
{
	size_t x, i;
	int b, t, e, j;

	entry_edge[0] = add_edge(N_START, rt[main_rt].entry, ET_ENTRY);
	entry_edge[1] = add_edge(N_START, rt[worker_rt].entry, ET_ENTRY);
	for (x = 0; x < nblk; x++) {
		Blk *bk = &blk[x];
		b = (int)x;
		switch (bk->term) {
		case T_FALL:
			bk->s0 = add_edge(b, b + 1, ET_FALL_THROUGH);
			break;
		case T_JMP:
			bk->s0 = add_edge(b, bk->s0, ET_DIRECT_UNCONDITIONAL_BRANCH);
			break;
		case T_SYSCALL:
			bk->s0 = add_edge(b, b + 1, ET_SYSTEM_CALL_BYPASS);
			break;
		case T_COND: case T_COLD: case T_CONT: case T_LATCH: case T_WHILE: case T_DRIVER:
			bk->s0 = add_edge(b, bk->s0, ET_DIRECT_CONDITIONAL_BRANCH);
			bk->s1 = add_edge(b, bk->s1, ET_FALL_THROUGH);
			break;
		case T_SWITCH:
			for (j = 0; j < sw[bk->aux].n; j++) {
				i = (size_t)sw[bk->aux].first + (size_t)j;
				sc_edge[i] = add_edge(b, sc_blk[i], ET_INDIRECT_UNCONDITIONAL_BRANCH);
			}
			break;
		case T_CALL: {
			Call *c = &cs[bk->aux];
			for (j = 0; j < c->n; j++) {
				i = (size_t)c->first + (size_t)j;
				ct_edge[i] = add_edge(b, rt[ct_rt[i]].entry,
				    c->indirect ? ET_INDIRECT_CALL : ET_DIRECT_CALL);
			}
			bk->s1 = add_edge(b, b + 1, ET_CALL_BYPASS);
			for (j = 0; j < c->n; j++) {
				i = (size_t)c->first + (size_t)j;
				t = ct_rt[i];
				ct_ret[i] = (int)ned;
				for (e = 0; e < rt[t].nexits; e++)
					add_edge(exits[rt[t].exit_first + e], b + 1, ET_RETURN);
			}
			break;
		}
		case T_RET:
			if (rt[bk->rt].root)
				bk->s0 = add_edge(b, N_END, ET_EXIT);
			break;
		default:
			die("internal error: open block", NULL);
		}
	}
	/* edge ids: increasing with gaps, then shuffled */
	{
		uint32_t v = 1 + below(&G, 50);
		for (x = 0; x < ned; x++) {
			ed[x].id = v;
			v += 1 + below(&G, 3);
		}
		for (x = ned - 1; x > 0; x--) {
			uint32_t tmp;
			i = below(&G, (uint32_t)x + 1);
			tmp = ed[x].id, ed[x].id = ed[i].id, ed[i].id = tmp;
		}
	}
}

/* ---- the walk ------------------------------------------------------------ */

typedef struct {
	int32_t dst, init;
} WEdge;

typedef struct {
	uint32_t p;
	int32_t e0, e1, aux;
	int32_t term;
} WBlk;

typedef struct {
	char s[12];
	uint32_t len;
} EStr;

static uint64_t *counts; /* [thread][edge] */
/* [thread][routine]: instructions of the routine's own blocks, and of its
 * activations from its entry block up to its return (see walk_all) */
static uint64_t *self_ic, *incl_ic;

static char obuf[1 << 20];
static size_t opos;
static FILE *eout;
static const char *eout_path;

static void
oflush(void)
{
	if (opos && fwrite(obuf, 1, opos, eout) != opos)
		die("write error", eout_path);
	opos = 0;
}

static void
oputs(const char *s)
{
	size_t n = strlen(s);

	if (opos + n > sizeof obuf)
		oflush();
	memcpy(obuf + opos, s, n);
	opos += n;
}

/*
 * --long-loops N: about one outermost loop in three (not the drivers) runs
 * N iterations when entered outside every other long loop, each the same
 * edges: the walk's generator is put back at each iteration's start to
 * where it stood at the loop's entry, so the iteration draws the same
 * branches, switch cases, call targets and inner trip counts. Only the
 * last iterations may differ, when the thread reaches its edges.
 */
static int
long_loop(uint64_t seed, int l)
{
	return lp[l].kind != 2 && lp[l].parent < 0 &&
	    splitmix(seed ^ ((uint64_t)l * UINT64_C(0x9e3779b97f4a7c15))) % 3 == 0;
}

static void
walk_all(int threads, uint64_t total, uint64_t seed, uint32_t pid, uint64_t long_trips)
{
	WEdge *we = xrealloc(NULL, ned * sizeof *we);
	WBlk *wb = xrealloc(NULL, nblk * sizeof *wb);
	EStr *es = xrealloc(NULL, ned * sizeof *es);
	uint32_t *cnt = xrealloc(NULL, (nlp ? nlp : 1) * sizeof *cnt);
	uint32_t *trips = xrealloc(NULL, (nlp ? nlp : 1) * sizeof *trips);
	uint8_t *kind = xrealloc(NULL, (nlp ? nlp : 1));
	int32_t *stack = xrealloc(NULL, (nrt + 2) * sizeof *stack);
	/* the activations, parallel to STACK with the root at the bottom */
	int32_t *act_rt = xrealloc(NULL, (nrt + 3) * sizeof *act_rt);
	uint64_t *act_start = xrealloc(NULL, (nrt + 3) * sizeof *act_start);
	rng *saved = xrealloc(NULL, (nlp ? nlp : 1) * sizeof *saved);
	size_t x;
	char line[64];
	int t;

	for (x = 0; x < ned; x++) {
		we[x].dst = ed[x].dst < 0 ? -1 : ed[x].dst;
		we[x].init = ed[x].init;
		es[x].len = (uint32_t)snprintf(es[x].s, sizeof es[x].s, "%" PRIu32 "\n", ed[x].id);
	}
	for (x = 0; x < nblk; x++) {
		wb[x].term = blk[x].term;
		wb[x].p = blk[x].p;
		wb[x].e0 = blk[x].s0;
		wb[x].e1 = blk[x].s1;
		wb[x].aux = blk[x].term == T_RET ? blk[x].exitidx
		    : blk[x].term == T_LATCH || blk[x].term == T_WHILE || blk[x].term == T_CONT
		    ? blk[x].loop : blk[x].aux;
	}
	for (x = 0; x < nlp; x++) {
		trips[x] = lp[x].trips;
		kind[x] = (uint8_t)lp[x].kind;
		cnt[x] = 0;
	}
	counts = xrealloc(NULL, (size_t)threads * ned * sizeof *counts);
	memset(counts, 0, (size_t)threads * ned * sizeof *counts);
	self_ic = xrealloc(NULL, (size_t)threads * nrt * sizeof *self_ic);
	memset(self_ic, 0, (size_t)threads * nrt * sizeof *self_ic);
	incl_ic = xrealloc(NULL, (size_t)threads * nrt * sizeof *incl_ic);
	memset(incl_ic, 0, (size_t)threads * nrt * sizeof *incl_ic);

	snprintf(line, sizeof line, "# dcfg-stream 1\n# process %" PRIu32 "\n", pid);
	oputs(line);
	for (t = 0; t < threads; t++) {
		uint64_t *cn = counts + (size_t)t * ned;
		uint64_t target = total / (uint64_t)threads + (t == 0 ? total % (uint64_t)threads : 0);
		uint64_t n = 0, ic = 0; /* IC: instructions so far in the thread */
		uint64_t *self = self_ic + (size_t)t * nrt, *incl = incl_ic + (size_t)t * nrt;
		int32_t e = entry_edge[t == 0 ? 0 : 1], b, l, sp = 0, asp = 0;
		int32_t on = -1, on_sp = 0; /* the long loop running, the stack at its entry */
		rng r;

		/* the ENTRY edge activates the thread's root */
		act_rt[asp] = t == 0 ? main_rt : worker_rt;
		act_start[asp++] = 0;

		seed_rng(&r, seed * UINT64_C(0x100000001b3) + (uint64_t)t + 1);
		snprintf(line, sizeof line, "# thread %d\n", t);
		oputs(line);
		for (;;) {
			const WBlk *w;

			cn[e]++;
			n++;
			if (opos > sizeof obuf - 16)
				oflush();
			memcpy(obuf + opos, es[e].s, 12);
			opos += es[e].len;
			l = we[e].init;
			if (l >= 0 && long_trips && on < 0 && long_loop(seed, l)) {
				cnt[l] = (uint32_t)long_trips;
				saved[l] = r;
				on = l;
				on_sp = sp;
			} else if (l >= 0)
				cnt[l] = kind[l] ? below(&r, trips[l] + 1) : 1 + below(&r, trips[l]);
			b = we[e].dst;
			if (b < 0)
				break;
			/* left by its exit, an early return or a break */
			if (on >= 0 && (sp < on_sp || (sp == on_sp && (b < lp[on].head || b >= lp[on].end))))
				on = -1;
			w = &wb[b];
			ic += (uint64_t)blk[b].ninstr;
			self[blk[b].rt] += (uint64_t)blk[b].ninstr;
			switch (w->term) {
			case T_COND:
				e = rnd32(&r) < w->p ? w->e0 : w->e1;
				break;
			case T_COLD:
				e = w->e0;
				break;
			case T_LATCH:
				e = n < target && --cnt[w->aux] > 0 ? w->e0 : w->e1;
				if (w->aux == on && e == w->e0)
					r = saved[on];
				break;
			case T_CONT:
				/* another back edge: a do-while's iteration ends here
				 * as at its latch; a while's head tests again */
				l = w->aux;
				if (rnd32(&r) < w->p && n < target && (kind[l] == 1 || cnt[l] > 1)) {
					cnt[l] -= kind[l] == 0;
					e = w->e0;
					if (l == on)
						r = saved[on];
				} else
					e = w->e1;
				break;
			case T_WHILE:
				if (w->aux == on)
					r = saved[on];
				if (n < target && cnt[w->aux] > 0) {
					cnt[w->aux]--;
					e = w->e1;
				} else
					e = w->e0;
				break;
			case T_DRIVER:
				e = n < target ? w->e0 : w->e1;
				break;
			case T_SWITCH: {
				const Switch *s = &sw[w->aux];
				uint32_t v = rnd32(&r);
				int i = s->first;
				while (v > sc_thr[i])
					i++;
				e = sc_edge[i];
				break;
			}
			case T_CALL: {
				const Call *c = &cs[w->aux];
				int i = c->first;
				if (c->n > 1) {
					uint32_t v = rnd32(&r);
					while (v > ct_thr[i])
						i++;
				}
				stack[sp++] = ct_ret[i];
				e = ct_edge[i];
				/* the callee's activation starts before its entry */
				act_rt[asp] = ct_rt[i];
				act_start[asp++] = ic;
				break;
			}
			case T_RET:
				e = sp ? stack[--sp] + w->aux : w->e0;
				/* ends the activation of the block's routine, with
				 * the return block counted */
				if (asp == 0 || act_rt[asp - 1] != blk[b].rt)
					die("internal error: a return outside its activation", NULL);
				asp--;
				incl[act_rt[asp]] += ic - act_start[asp];
				break;
			default: /* T_FALL, T_JMP, T_SYSCALL */
				e = w->e0;
				break;
			}
		}
		if (asp != 0)
			die("internal error: a thread ends inside an activation", NULL);
	}
	oflush();
	free(act_rt);
	free(act_start);
	free(we);
	free(wb);
	free(es);
	free(cnt);
	free(trips);
	free(kind);
	free(stack);
	free(saved);
}

/* ---- inclusive costs ------------------------------------------------------- */

static int
by_entry_id(const void *a, const void *b)
{
	uint32_t x = blk[rt[*(const int *)a].entry].id, y = blk[rt[*(const int *)b].entry].id;

	return x < y ? -1 : x > y;
}

/* OUTDIR/prog.inclusive from the walk's self_ic and incl_ic. */
static void
write_inclusive(const char *path, int threads)
{
	FILE *f = fopen(path, "w");
	int *order = xrealloc(NULL, (nrt ? nrt : 1) * sizeof *order);
	size_t i;
	int t;

	if (f == NULL)
		die(strerror(errno), path);
	for (i = 0; i < nrt; i++)
		order[i] = (int)i;
	qsort(order, nrt, sizeof *order, by_entry_id);
	fprintf(f, "# thread\troutine\tname\tself\tinclusive\n");
	for (t = 0; t < threads; t++)
		for (i = 0; i < nrt; i++) {
			size_t k = (size_t)t * nrt + (size_t)order[i];
			if (self_ic[k] == 0 && incl_ic[k] == 0)
				continue;
			fprintf(f, "%d\t%" PRIu32 "\t%s\t%" PRIu64 "\t%" PRIu64 "\n", t,
			    blk[rt[order[i]].entry].id, rt[order[i]].name, self_ic[k], incl_ic[k]);
		}
	if (ferror(f) || fclose(f) != 0)
		die("write error", path);
	free(order);
}

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

static void
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

/* ---- the DCFG ---------------------------------------------------------------- */

static FILE *jf;

/* S as a JSON string; SLASH: "/" as "\/" (JSON allows both). */
static void
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

static uint32_t
node_id(int n)
{
	return n == N_START ? start_id : n == N_END ? end_id : blk[n].id;
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

static void
write_source(const int *order, int n)
{
	int j, b;

	fprintf(jf, "\"SOURCE_DATA\" : [\n"
	    "                [ \"FILE_NAME_ID\", \"LINE_NUM\",\n"
	    "                  \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ]");
	for (j = 0; j < n; j++) {
		const Rt *r = &rt[order[j]];
		int line = r->line0;
		for (b = r->first; b < r->first + r->n; b++) {
			const Blk *k2 = &blk[b];
			int groups = 1 + (int)below(&G, k2->ninstr < 3 ? (uint32_t)k2->ninstr : 3);
			int at = 0, g;
			uint64_t off = k2->off;
			for (g = 0; g < groups; g++) {
				int cnt = g == groups - 1 ? k2->ninstr - at
				    : 1 + (int)below(&G, (uint32_t)(k2->ninstr - at - (groups - 1 - g)));
				uint32_t sz = 0;
				int q;
				for (q = 0; q < cnt; q++)
					sz += ilens[k2->ilen + (size_t)at + (size_t)q];
				fprintf(jf, ",\n                [ %d, %d, \"0x%" PRIx64 "\", %" PRIu32 ", %d ]",
				    r->file, line, off, sz, cnt);
				off += sz;
				at += cnt;
				line += 1 + (int)below(&G, 3);
			}
		}
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
static void
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
static void
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

/* The seed's error of INSTR_COUNT_PER_THREAD (see the top): a few
 * instructions more or fewer per thread, never below 0, in all from -10
 * to 25 and not 0. */
static void
instr_error(uint64_t *instrs, int threads)
{
	int64_t want = below(&G, 4) == 0 ? -(int64_t)between(&G, 1, 10) : (int64_t)between(&G, 1, 25);
	int64_t d, sum = 0;
	int t;

	for (t = 1; t < threads; t++) {
		d = (int64_t)below(&G, 7) - 2;
		if (d < 0 && instrs[t] < (uint64_t)-d)
			d = -(int64_t)instrs[t];
		instrs[t] += (uint64_t)d;
		sum += d;
	}
	d = want - sum;
	if (d < 0 && instrs[0] < (uint64_t)-d)
		d = -(int64_t)instrs[0];
	instrs[0] += (uint64_t)d;
}

enum { P_PER_THREAD, P_COUNT, P_IMAGES, P_EDGES };

static void
write_process(uint32_t pid, int threads, const uint64_t *instrs, uint64_t total)
{
	size_t x;
	int i, k, t, next;

	fprintf(jf, "\"PROCESSES\" : [\n    [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n"
	    "    [ %" PRIu32 ",\n      { ", pid);
	for (k = 0; k < 4; k++) {
		if (k)
			fprintf(jf, ",\n        ");
		switch (S.proc_order[k]) {
		case P_PER_THREAD:
			fprintf(jf, "\"INSTR_COUNT_PER_THREAD\" : [ ");
			for (t = 0; t < threads; t++)
				fprintf(jf, "%s%" PRIu64, t ? ", " : "", instrs[t]);
			fprintf(jf, " ]");
			break;
		case P_COUNT:
			fprintf(jf, "\"INSTR_COUNT\" : %" PRIu64, total);
			break;
		case P_IMAGES:
			/* in image id order, the images of symbols only among them */
			fprintf(jf, "\"IMAGES\" : [\n          [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ]");
			for (i = 0, next = 0; i < nimg; i++) {
				for (; next < nsimg && simg[next].id < img[i].id; next++) {
					fprintf(jf, ",\n");
					write_symimg(&simg[next]);
				}
				fprintf(jf, ",\n");
				write_image(i);
			}
			for (; next < nsimg; next++) {
				fprintf(jf, ",\n");
				write_symimg(&simg[next]);
			}
			fprintf(jf, " ]");
			break;
		default:
			fprintf(jf, "\"EDGES\" : [\n          [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\",\n"
			    "            \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]");
			for (x = 0; x < ned; x++) {
				fprintf(jf, ",\n          [ %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", [ ",
				    ed[x].id, node_id(ed[x].src), node_id(ed[x].dst), etype_id[ed[x].type]);
				for (t = 0; t < threads; t++)
					fprintf(jf, "%s%" PRIu64, t ? ", " : "", counts[(size_t)t * ned + x]);
				fprintf(jf, " ] ]");
			}
			fprintf(jf, " ]");
			break;
		}
	}
	fprintf(jf, " } ] ]");
}

static void
write_dcfg(const char *path, int threads, uint32_t pid)
{
	uint64_t instrs[MAX_THREADS] = { 0 }, total = 0;
	uint32_t fid;
	size_t x;
	int i, j, k, t, nfile = 0;
	struct { uint32_t id; char *name; int own; } *files = NULL;
	static char vbuf[1 << 16];

	/* counts */
	for (x = 0; x < ned; x++)
		for (t = 0; t < threads; t++) {
			uint64_t c = counts[(size_t)t * ned + x];
			if (ed[x].dst >= 0)
				blk[ed[x].dst].count += c;
			if (ed[x].src >= 0)
				instrs[t] += c * (uint64_t)blk[ed[x].src].ninstr;
		}
	if (S.delta)
		instr_error(instrs, threads);
	for (t = 0; t < threads; t++)
		total += instrs[t];

	/* file names: images, then the sources their routines use */
	fid = 1 + below(&G, 3);
	files = xrealloc(NULL, 64 * sizeof *files);
	for (i = 0; i < nimg + nsimg; i++) {
		if (i < nimg)
			img[i].file = (int)fid;
		else
			simg[i - nimg].file = (int)fid;
		files[nfile].id = fid;
		files[nfile].own = 0;
		files[nfile++].name = (char *)(i < nimg ? img[i].path : simg[i - nimg].path);
		fid += 1 + below(&G, 2);
	}
	for (i = 0; i < nimg; i++) {
		Img *im = &img[i];
		int ns = (int)count_strs(im->sources);
		if (im->nosrc)
			continue;
		im->srcfile = xrealloc(NULL, (size_t)ns * sizeof *im->srcfile);
		im->srcline = xrealloc(NULL, (size_t)ns * sizeof *im->srcline);
		for (j = 0; j < ns; j++) {
			size_t len = strlen(im->srcdir) + strlen(im->sources[j]) + 1;
			files = xrealloc(files, (size_t)(nfile + 1) * sizeof *files);
			files[nfile].id = fid;
			files[nfile].own = 1;
			files[nfile].name = xrealloc(NULL, len);
			snprintf(files[nfile].name, len, "%s%s", im->srcdir, im->sources[j]);
			nfile++;
			im->srcfile[j] = (int)fid;
			im->srcline[j] = 1 + (int)below(&G, 40);
			fid += 1 + below(&G, 2);
		}
		for (j = im->rt_first; j < im->rt_first + im->rt_n; j++) {
			int s = (j == main_rt || j == worker_rt) ? (j == main_rt ? 0 : 13)
			    : (int)below(&G, (uint32_t)ns);
			rt[j].file = im->srcfile[s];
			rt[j].line0 = im->srcline[s] + 2 + (int)below(&G, 20);
			im->srcline[s] = rt[j].line0 + 4 * rt[j].n + 3;
		}
		free(im->srcfile);
		free(im->srcline);
	}

	jf = fopen(path, "w");
	if (jf == NULL)
		die(strerror(errno), path);
	setvbuf(jf, vbuf, _IOFBF, sizeof vbuf);
	/* the top-level keys in the seed's order */
	fprintf(jf, "{ ");
	for (k = 0; k < 6; k++) {
		if (k)
			fprintf(jf, ",\n  ");
		switch (S.top_order[k]) {
		case 0:
			fprintf(jf, "\"MAJOR_VERSION\" : 1");
			break;
		case 1:
			fprintf(jf, "\"MINOR_VERSION\" : 0");
			break;
		case 2:
			fprintf(jf, "\"FILE_NAMES\" : [\n    [ \"FILE_NAME_ID\", \"FILE_NAME\" ]");
			for (i = 0; i < nfile; i++) {
				fprintf(jf, ",\n    [ %" PRIu32 ", ", files[i].id);
				jstr(files[i].name, S.slash);
				fprintf(jf, " ]");
			}
			fprintf(jf, " ]");
			break;
		case 3:
			fprintf(jf, "\"EDGE_TYPES\" : [\n    [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ]");
			for (i = 0; i < ET_N; i++)
				fprintf(jf, ",\n    [ %" PRIu32 ", \"%s\" ]", etype_id[i], etype_names[i]);
			fprintf(jf, " ]");
			break;
		case 4:
			fprintf(jf, "\"SPECIAL_NODES\" : [\n    [ \"NODE_ID\", \"NODE_NAME\" ],\n"
			    "    [ %" PRIu32 ", \"START\" ], [ %" PRIu32 ", \"END\" ], [ %" PRIu32 ", \"UNKNOWN\" ] ]",
			    start_id, end_id, unknown_id);
			break;
		default:
			write_process(pid, threads, instrs, total);
			break;
		}
	}
	fprintf(jf, " }\n");
	if (ferror(jf) || fclose(jf) != 0)
		die("write error", path);
	for (i = 0; i < nfile; i++)
		if (files[i].own)
			free(files[i].name);
	free(files);
}

/* ---- the seed's shapes ---- */

static void
permute(int *v, int n, int shuffle)
{
	int i, k, t;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n - 1; shuffle && i > 0; i--) {
		k = (int)below(&G, (uint32_t)i + 1);
		t = v[i], v[i] = v[k], v[k] = t;
	}
}

static void
draw_shapes(void)
{
	S.region = below(&G, 3) == 0;
	S.dead_pct = S.region ? (int)between(&G, 60, 85) : 0;
	S.cold_w = S.region ? 10 : 3;
	S.zero_pct = S.region ? 30 : 8;
	S.entry_pct = (int)between(&G, 8, 25);
	S.delta = below(&G, 3) != 0;
	/* the process object's keys in any order; the top level's and the
	 * images' as in the spec's example, or not */
	permute(S.top_order, 6, below(&G, 3) == 0);
	permute(S.proc_order, 4, 1);
	permute(S.img_order, 5, below(&G, 2));
	img[0].nosrc = below(&G, 6) == 0;
	img[1].nosrc = below(&G, 2);
	img[2].nosrc = below(&G, 2);
}

/* ---- main --------------------------------------------------------------------- */

static void
usage(FILE *f, int status)
{
	fprintf(f, "usage: gen-pair [--seed S] [--threads T] [--edges N] [--blocks B]\n"
	    "                [--long-loops L] OUTDIR\n"
	    "Writes OUTDIR/prog.dcfg.json and OUTDIR/prog.edges, a synthetic program's DCFG\n"
	    "and its true edge stream, and OUTDIR/prog.inclusive, each routine's self and\n"
	    "inclusive instructions per thread (defaults: S 1, T 2 (1..8), N 100000, B 2000).\n"
	    "--long-loops L: some loops run L iterations (1..4294967295), all alike.\n");
	exit(status);
}

static uint64_t
number(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
	char *end;
	uintmax_t v;

	if (s == NULL)
		die("option needs a value", opt);
	errno = 0;
	v = strtoumax(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "gen-pair: %s: bad value %s (%" PRIu64 "..%" PRIu64 ")\n", opt, s, lo, hi);
		exit(2);
	}
	return (uint64_t)v;
}

int
main(int argc, char **argv)
{
	uint64_t seed = 1, edges = 100000, long_trips = 0;
	int threads = 2, i;
	uint32_t blocks = 2000, pid;
	const char *dir = NULL;
	char *path;
	size_t len;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL, *eq;
		char opt[32];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			usage(stdout, 0);
		if (strncmp(a, "--", 2) == 0 && a[2]) {
			eq = strchr(a, '=');
			len = eq ? (size_t)(eq - a) : strlen(a);
			if (len >= sizeof opt)
				len = sizeof opt - 1;
			memcpy(opt, a, len);
			opt[len] = 0;
			v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (strcmp(opt, "--seed") == 0)
				seed = number(opt, v, 0, UINT64_MAX);
			else if (strcmp(opt, "--threads") == 0)
				threads = (int)number(opt, v, 1, MAX_THREADS);
			else if (strcmp(opt, "--edges") == 0)
				edges = number(opt, v, 0, UINT64_MAX / 2);
			else if (strcmp(opt, "--blocks") == 0)
				blocks = (uint32_t)number(opt, v, 1, 20000000);
			else if (strcmp(opt, "--long-loops") == 0)
				long_trips = number(opt, v, 1, UINT32_MAX);
			else {
				fprintf(stderr, "gen-pair: unknown option %s\n", a);
				usage(stderr, 2);
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "gen-pair: unknown option %s\n", a);
			usage(stderr, 2);
		} else if (dir == NULL) {
			dir = a;
		} else
			usage(stderr, 2);
	}
	if (dir == NULL)
		usage(stderr, 2);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		die(strerror(errno), dir);

	seed_rng(&G, seed);
	pid = 1000 + below(&G, 60000);
	draw_shapes();
	/* apart from G, so that the other shapes of a seed stay as they were */
	S.slash = (int)(splitmix(seed ^ UINT64_C(0x2f2f2f2f)) & 1);
	generate(blocks);
	layout();
	make_edges();
	dominators();

	len = strlen(dir) + 32;
	path = xrealloc(NULL, len);
	snprintf(path, len, "%s/prog.edges", dir);
	eout = fopen(path, "w");
	if (eout == NULL)
		die(strerror(errno), path);
	eout_path = path;
	walk_all(threads, edges, seed, pid, long_trips);
	if (ferror(eout) || fclose(eout) != 0)
		die("write error", path);

	snprintf(path, len, "%s/prog.inclusive", dir);
	write_inclusive(path, threads);

	snprintf(path, len, "%s/prog.dcfg.json", dir);
	write_dcfg(path, threads, pid);
	free(path);
	return 0;
}
