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
 * edges each (long_loop, gen-pair-walk.c): a trace with long loops, as
 * real programs have, whose repeats dcfg-encode and dcfg-expand --runs
 * can find.
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
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen-pair.h"

/*
 * The parts, one file each, in the order of the simulation:
 * gen-pair-program.c grows routines from templates, gen-pair-images.c
 * makes the images around them and names them (its generate() drives
 * both), gen-pair-layout.c draws addresses, ids and edges,
 * gen-pair-walk.c runs the threads (prog.edges, prog.inclusive), and
 * gen-pair-dcfg-image.c and gen-pair-dcfg.c write the DCFG. gen-pair.h
 * holds what they share.
 */

/* The shared state (gen-pair.h), defined once. */
rng G;
Shapes S;
Blk *blk;
size_t nblk;
Loop *lp;
size_t nlp;
Call *cs;
size_t ncs;
int *ct_rt, *ct_edge, *ct_ret;
uint32_t *ct_thr;
size_t nct;
Switch *sw;
size_t nsw;
int *sc_blk, *sc_edge;
uint32_t *sc_thr;
size_t nsc;
Rt *rt;
size_t nrt;
int *exits;
size_t nexits;
uint8_t *ilens;
size_t nilens;
Img img[3];
int nimg;
SymImg simg[2];
int nsimg;
int main_first;
int main_rt, worker_rt;

uint32_t etype_id[ET_N];
uint32_t start_id, end_id, unknown_id;
Edge *ed;
size_t ned;
int entry_edge[2];

uint64_t *counts;
FILE *eout;
const char *eout_path;
FILE *jf;

/* ---- errors, memory ------------------------------------------------ */

void
die(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "gen-pair: %s: %s\n", msg, arg);
	else
		fprintf(stderr, "gen-pair: %s\n", msg);
	exit(2);
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		die("out of memory", NULL);
	return q;
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
	if (!isdigit((unsigned char)*s) || errno || *end || v < lo || v > hi) {
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
