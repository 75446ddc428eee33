/*
 * gen-pair: the program's routines, grown block by block from templates
 * of structured code, with the expected cost that bounds loops and calls.
 * Apart because it alone decides the CFG; the other parts only read it.
 */
#include <stdint.h>
#include <string.h>

#include "gen-pair.h"

static int g_rt = -1, g_img, g_root; /* the routine being generated */
static int g_cold;                   /* > 0: generating code never run */
/* the capacities of the arrays grown here */
static size_t capblk, caplp, capcs, capct, capsw, capsc, caprt, capexits;

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

void
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
int
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

