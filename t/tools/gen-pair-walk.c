/*
 * gen-pair: the threads' walks through the program, written as they go to
 * prog.edges, and prog.inclusive from them. Apart: the one part whose cost
 * grows with --edges; it reads the program and keeps only counts.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-pair.h"

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

/* [thread][routine]: instructions of the routine's own blocks, and of its
 * activations from its entry block up to its return (see walk_all) */
static uint64_t *self_ic, *incl_ic;

static char obuf[1 << 20];
static size_t opos;

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

void
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
void
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

