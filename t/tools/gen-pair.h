/*
 * gen-pair's parts (t/tools/gen-pair*.c; gen-pair.c tells what the tool
 * does): the model of the simulated program they all read, the generator
 * and its random numbers, and what each part gives the others.
 */
#ifndef GEN_PAIR_H
#define GEN_PAIR_H

#include <stdint.h>
#include <stdio.h>

#define MAX_THREADS 8
#define MAX_TRIP 50
#define LOOP_CAP 3000.0  /* expected edges per loop execution, at most */
#define CALL_CAP 2500.0  /* expected edges per call of a non-root callee */
#define NEST 5           /* nesting depth of compound statements */
#define MAX_CASES 8

/* ---- errors, memory, PRNG ----------------------------------------- */

void die(const char *msg, const char *arg);
void *xrealloc(void *p, size_t n);

#define GROW(arr, n, cap) do { \
	if ((n) >= (cap)) { \
		(cap) = (cap) ? 2 * (cap) : 64; \
		(arr) = xrealloc((arr), (cap) * sizeof *(arr)); \
	} \
} while (0)

typedef struct {
	uint64_t s;
} rng;

/* static inline, so that every part inlines them as when gen-pair was
 * one file: the walk draws a number at every branch. */
static inline uint64_t
splitmix(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static inline void
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

static inline uint32_t
between(rng *r, uint32_t lo, uint32_t hi)
{
	return lo + below(r, hi - lo + 1);
}

extern rng G; /* the generator's stream; each thread's walk has its own */

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
	int ninstr;
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
	int *srcfile;               /* FILE_NAME_IDs of the used sources */
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

/* The seed's choice among the shapes of real DCFGs (gen-pair.c's top). */
typedef struct {
	int region;       /* most of the program never runs */
	int dead_pct;     /* region: the share of routines that are dead */
	int cold_w;       /* weight of cold paths among the statements */
	int zero_pct;     /* switch cases and indirect targets of weight 0 */
	int entry_pct;    /* routines that are a loop from their entry */
	int delta;        /* INSTR_COUNT_PER_THREAD off from the blocks' sum */
	int slash;        /* file names written with "\/", as Intel's writer does */
	int top_order[6], proc_order[4], img_order[5];
} Shapes;

/* The program, defined in gen-pair.c; each array's capacity is kept by
 * the file that grows it. */
extern Shapes S;
extern Blk *blk;
extern size_t nblk;
extern Loop *lp;
extern size_t nlp;
extern Call *cs;
extern size_t ncs;
extern int *ct_rt, *ct_edge, *ct_ret;
extern uint32_t *ct_thr;
extern size_t nct;
extern Switch *sw;
extern size_t nsw;
extern int *sc_blk, *sc_edge;
extern uint32_t *sc_thr;
extern size_t nsc;
extern Rt *rt;
extern size_t nrt;
extern int *exits;
extern size_t nexits;
extern uint8_t *ilens;
extern size_t nilens;
extern Img img[3];
extern int nimg;
extern SymImg simg[2];
extern int nsimg;
extern int main_first;       /* first routine of the main image */
extern int main_rt, worker_rt;

/* ---- edges ---------------------------------------------------------- */

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

#define N_START (-1)
#define N_END (-2)

typedef struct {
	int src, dst, type, init; /* init: loop whose counter entering dst starts */
	uint32_t id;
} Edge;

extern uint32_t etype_id[ET_N];
extern uint32_t start_id, end_id, unknown_id;
extern Edge *ed;
extern size_t ned;
extern int entry_edge[2];

/* The walk's results, and where it writes the edge stream. */
extern uint64_t *counts; /* [thread][edge] */
extern FILE *eout;
extern const char *eout_path;

/* The DCFG being written (gen-pair-dcfg*.c). */
extern FILE *jf;

/* ---- each part's entry points ------------------------------------- */

/* gen-pair-program.c */
void gen_routine(int im, int size);
int gen_root(int im, const int *forced, int nforced, int size);
/* gen-pair-images.c */
extern const char *const vdso_syms[];
size_t count_strs(const char *const *v);
void generate(uint32_t blocks);
/* gen-pair-layout.c */
void layout(void);
void make_edges(void);
/* gen-pair-walk.c */
void walk_all(int threads, uint64_t total, uint64_t seed, uint32_t pid, uint64_t long_trips);
void write_inclusive(const char *path, int threads);
/* gen-pair-dcfg-image.c */
void dominators(void);
void jstr(const char *s, int slash);
void write_image(int i);
void write_symimg(const SymImg *si);
/* gen-pair-dcfg.c */
void write_dcfg(const char *path, int threads, uint32_t pid);

#endif
