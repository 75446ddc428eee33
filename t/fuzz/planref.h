/*
 * The trace target's oracle for dcfg-expand --plan, written from
 * dcfg-expand(1) SHARDS and sharing nothing with lib/trace/plan*.c: the
 * chunk table as the reader hands it over, and what a plan of it must be.
 *
 *  - Every line has the documented form, at most N of them.
 *  - Every thread with edges is selected, and the windows of the lines
 *    that select it cover its instruction counts exactly once: one line
 *    without a window, or windows that follow one another from 0 to the
 *    end. A thread without edges is selected by exactly one line, a
 *    process without threads named by exactly one. With --align the cuts
 *    are multiples of the interval and a window's line ends with --dcfg.
 *  - Line K of N ends with --shard K/N, with --align A after it when made
 *    with --align, and, in a plan of a selection (-p, -t), with
 *    --of-process and --of-thread, its ids ascending and distinct; every
 *    line selects within them, and nothing outside the selection is on
 *    any line.
 *  - Balance, in a plan of the whole trace without --align, for one
 *    process and N at least its threads
 *    (the bound t/plan.bats states): let A be the edges of the largest
 *    piece no cut point splits (chunks that overlap, or start together)
 *    and C0 the least C with the threads' ceil(edges / C) adding up to at
 *    most N; no shard holds more than C0 + A edges, a chunk counted in the
 *    shard whose window holds its PRECEDING_INSTR_COUNT.
 *
 * Tables larger than its arrays are not judged (fuzz inputs stay far below).
 */
#ifndef PLANREF_H
#define PLANREF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dcfg/trace.h>

#define PLANREF_CHUNKS  4096
#define PLANREF_THREADS 256
#define PLANREF_PIDS    256
#define PLANREF_LINES   8
#define PLANREF_IDS     64

struct planref_chunk {
	uint64_t pid, tid, p, i, e;
};

struct planref {
	struct planref_chunk c[PLANREF_CHUNKS];
	size_t n_c;
	struct { uint64_t pid, tid; } t[PLANREF_THREADS];
	size_t n_t;
	uint64_t pid[PLANREF_PIDS];
	size_t n_pid;
	int too_big;
};

struct planref_line {
	uint64_t pid[PLANREF_IDS], tid[PLANREF_IDS];
	size_t n_pid, n_tid;
	int has_from, has_to, has_dcfg;
	uint64_t from, to;
	uint64_t shard, shards;    /* --shard K/N */
	uint64_t align;            /* --align A after it (0: none) */
	uint64_t of_pid[PLANREF_IDS], of_tid[PLANREF_IDS];   /* --of-process, --of-thread */
	size_t n_of_pid, n_of_tid;
};

/* What the plan was asked for: -p and -t (none: all), ascending and distinct. */
struct planref_selection {
	const uint64_t *pid, *tid;
	size_t n_pid, n_tid;
};

static int
planref_on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct planref *r = ctx;
	size_t i;

	(void)t;
	for (i = 0; i < r->n_pid && r->pid[i] != pid; i++)
		;
	if (i == r->n_pid) {
		if (r->n_pid == PLANREF_PIDS)
			r->too_big = 1;
		else
			r->pid[r->n_pid++] = pid;
	}
	return DCFG_TRACE_OK;
}

static int
planref_on_thread(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid)
{
	struct planref *r = ctx;
	size_t i;

	(void)t;
	for (i = 0; i < r->n_t && !(r->t[i].pid == pid && r->t[i].tid == tid); i++)
		;
	if (i == r->n_t) {
		if (r->n_t == PLANREF_THREADS) {
			r->too_big = 1;
		} else {
			r->t[r->n_t].pid = pid;
			r->t[r->n_t++].tid = tid;
		}
	}
	return DCFG_TRACE_OK;
}

/* The chunk's row only: nothing is decoded. */
static int
planref_on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct planref *r = ctx;
	const struct dcfg_chunk_info *k = dcfg_chunk_info(c);

	if (r->n_c == PLANREF_CHUNKS) {
		r->too_big = 1;
		return DCFG_TRACE_OK;
	}
	r->c[r->n_c++] = (struct planref_chunk){ k->pid, k->tid, k->preceding_instr_count,
	    k->instr_count, k->edge_count };
	return DCFG_TRACE_OK;
}

/* A decimal number without sign or leading zeros at S; its end, or NULL. */
static const char *
planref_number(const char *s, const char *end, uint64_t *v)
{
	const char *p = s;

	*v = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (*v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return NULL;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return p == s || (*s == '0' && p - s > 1) ? NULL : p;
}

/* "WORD " at *S: consumed, 1; else 0. */
static int
planref_word(const char **s, const char *end, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(end - *s) > n && memcmp(*s, word, n) == 0 && (*s)[n] == ' ') {
		*s += n + 1;
		return 1;
	}
	return 0;
}

/* " WORD " at *S: consumed, 1; else 0. */
static int
planref_after(const char **s, const char *end, const char *word)
{
	const char *p = *s + 1;

	if (*s < end && **s == ' ' && planref_word(&p, end, word)) {
		*s = p;
		return 1;
	}
	return 0;
}

/*
 * " OPT A,B,..." at *S, if there: its ids into V (at most PLANREF_IDS).
 * 0, -1 when it has another form, 1 when it holds more.
 */
static int
planref_of_list(const char **s, const char *end, const char *opt, uint64_t *v, size_t *n)
{
	*n = 0;
	if (!planref_after(s, end, opt))
		return 0;
	do {
		if (*n == PLANREF_IDS)
			return 1;
		if ((*s = planref_number(*s, end, &v[(*n)++])) == NULL)
			return -1;
	} while (*s < end && **s == ',' && ++*s);
	return 0;
}

/*
 * One line [S, END) of the form of plan.h; DCFG_PATH the word --dcfg must
 * name (NULL: none may). 0, -1 when it has another form, 1 when it holds
 * more ids than L does.
 */
static int
planref_parse(const char *s, const char *end, const char *dcfg_path, struct planref_line *l)
{
	uint64_t v;
	int rc;

	memset(l, 0, sizeof *l);
	while (planref_word(&s, end, "-p")) {
		if ((s = planref_number(s, end, &v)) == NULL)
			return -1;
		if (l->n_pid == PLANREF_IDS)
			return 1;
		l->pid[l->n_pid++] = v;
		if (s < end && *s++ != ' ')
			return -1;
	}
	if (l->n_pid == 0)
		return -1;
	while (planref_word(&s, end, "-t")) {
		if ((s = planref_number(s, end, &v)) == NULL)
			return -1;
		if (l->n_tid == PLANREF_IDS)
			return 1;
		l->tid[l->n_tid++] = v;
		if (s < end && *s++ != ' ')
			return -1;
	}
	if (planref_word(&s, end, "--from-icount")) {
		if ((s = planref_number(s, end, &l->from)) == NULL || (s < end && *s++ != ' '))
			return -1;
		l->has_from = 1;
	}
	if (planref_word(&s, end, "--to-icount")) {
		if ((s = planref_number(s, end, &l->to)) == NULL || (s < end && *s++ != ' '))
			return -1;
		l->has_to = 1;
	}
	if (planref_word(&s, end, "--dcfg")) {
		size_t n = dcfg_path ? strlen(dcfg_path) : 0;
		if (dcfg_path == NULL || (size_t)(end - s) <= n || memcmp(s, dcfg_path, n) != 0 ||
		    s[n] != ' ')
			return -1;
		l->has_dcfg = 1;
		s += n + 1;
	}
	if (!planref_word(&s, end, "--shard") || (s = planref_number(s, end, &l->shard)) == NULL ||
	    s == end || *s++ != '/' || (s = planref_number(s, end, &l->shards)) == NULL)
		return -1;
	if (planref_after(&s, end, "--align") && (s = planref_number(s, end, &l->align)) == NULL)
		return -1;
	if ((rc = planref_of_list(&s, end, "--of-process", l->of_pid, &l->n_of_pid)) != 0 ||
	    (rc = planref_of_list(&s, end, "--of-thread", l->of_tid, &l->n_of_tid)) != 0)
		return rc;
	return s == end ? 0 : -1;
}

static int
planref_has(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* Each of the N ids V is among the M ids W; EXACTLY: and they are the same list. */
static int
planref_within(const uint64_t *v, size_t n, const uint64_t *w, size_t m, int exactly)
{
	size_t i;

	if (exactly && (n != m || (n > 0 && memcmp(v, w, n * sizeof *v) != 0)))
		return 0;
	for (i = 0; i < n; i++)
		if (!planref_has(w, m, v[i]))
			return 0;
	return 1;
}

/* Whether the selection SEL (none: all) holds thread PID/TID. */
static int
planref_in_selection(const struct planref_selection *sel, uint64_t pid, uint64_t tid)
{
	return (sel->n_pid == 0 || planref_has(sel->pid, sel->n_pid, pid)) &&
	    (sel->n_tid == 0 || planref_has(sel->tid, sel->n_tid, tid));
}

/* Line L is of plan SEL's shape, and selects within it. NULL, or what is wrong. */
static const char *
planref_line_of(const struct planref_line *l, const struct planref_selection *sel)
{
	if (!planref_within(l->of_pid, l->n_of_pid, sel->pid, sel->n_pid, 1) ||
	    !planref_within(l->of_tid, l->n_of_tid, sel->tid, sel->n_tid, 1))
		return "--of-process or --of-thread that is not the plan's -p or -t";
	if (sel->n_pid && !planref_within(l->pid, l->n_pid, sel->pid, sel->n_pid, 0))
		return "a line's -p outside the plan's selection";
	if (sel->n_tid && (l->n_tid == 0 || !planref_within(l->tid, l->n_tid, sel->tid, sel->n_tid, 0)))
		return "a line's -t outside the plan's selection, or none";
	return NULL;
}

static int
planref_selects(const struct planref_line *l, uint64_t pid, uint64_t tid)
{
	return planref_has(l->pid, l->n_pid, pid) && (l->n_tid == 0 || planref_has(l->tid, l->n_tid, tid));
}

static int
planref_chunk_cmp(const void *a, const void *b)
{
	const struct planref_chunk *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->p < y->p ? -1 : x->p > y->p;
}

/* How many of the N lines L select thread TID of process PID. */
static size_t
planref_selecting(const struct planref_line *l, size_t n, uint64_t pid, uint64_t tid)
{
	size_t j, k = 0;

	for (j = 0; j < n; j++)
		k += planref_selects(&l[j], pid, tid);
	return k;
}

/*
 * Thread PID/TID's instruction counts, from 0, taken by the windows of the
 * lines that select it, one after another to one without an end: NULL
 * when each is taken exactly once and every such line is in the chain.
 */
static const char *
planref_chain(const struct planref_line *l, size_t n, uint64_t pid, uint64_t tid)
{
	uint64_t at = 0;
	size_t j, hit, hits, links = 0;

	for (;;) {
		for (j = hits = 0, hit = n; j < n; j++)
			if (planref_selects(&l[j], pid, tid) && (l[j].has_from ? l[j].from : 0) == at) {
				hit = j;
				hits++;
			}
		if (hits == 0)
			return "a thread's instructions not all selected";
		if (hits > 1)
			return "a thread's instructions selected twice";
		links++;
		if (!l[hit].has_to)
			break;
		at = l[hit].to;   /* windows are not empty: AT only grows */
	}
	return planref_selecting(l, n, pid, tid) == links ? NULL : "a thread in a window off its chain";
}

/*
 * Without --align, one process and N at least its threads: the largest of
 * the N_L shards against C0 + A (the header comment). NULL when within.
 */
static const char *
planref_balance(struct planref *r, const struct planref_line *l, size_t n_l, uint64_t n)
{
	unsigned __int128 piece = 0, biggest = 0, e_t[PLANREF_THREADS] = { 0 }, lo = 1, hi = 1;
	unsigned __int128 largest = 0, sum, need, mid;
	uint64_t reach = 0;
	size_t j, k;

	qsort(r->c, r->n_c, sizeof r->c[0], planref_chunk_cmp);
	for (k = 0; k < r->n_c; k++) {
		const struct planref_chunk *c = &r->c[k];
		if (c->p + c->i < c->p || c->p + c->i == UINT64_MAX)
			return NULL;   /* such a thread is never cut */
		/* no cut between chunks that start together, or where one reaches past the next's start */
		if (k > 0 && c->pid == c[-1].pid && c->tid == c[-1].tid && (c->p == c[-1].p || c->p < reach)) {
			piece += c->e;
		} else {
			piece = c->e;
			reach = 0;
		}
		if (c->p + c->i > reach)
			reach = c->p + c->i;
		if (piece > biggest)
			biggest = piece;
		for (j = 0; j < r->n_t && !(r->t[j].pid == c->pid && r->t[j].tid == c->tid); j++)
			;
		if (j < r->n_t)
			e_t[j] += c->e;
	}
	for (j = 0; j < r->n_t; j++)
		if (e_t[j] > hi)
			hi = e_t[j];
	while (lo < hi) {   /* C0: the least C with the sum of ceil(e_t / C) at most N */
		mid = lo + (hi - lo) / 2;
		for (j = 0, need = 0; j < r->n_t; j++)
			need += (e_t[j] + mid - 1) / mid;
		if (need <= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (j = 0; j < n_l; j++) {
		for (k = 0, sum = 0; k < r->n_c; k++) {
			const struct planref_chunk *c = &r->c[k];
			if (planref_selects(&l[j], c->pid, c->tid) &&
			    (!l[j].has_from || c->p >= l[j].from) && (!l[j].has_to || c->p < l[j].to))
				sum += c->e;
		}
		if (sum > largest)
			largest = sum;
	}
	return largest > lo + biggest ? "a shard past the bound on the largest (C0 + A)" : NULL;
}

/*
 * The plan TEXT of LEN bytes for R's table, asked for N lines (with ALIGN,
 * the DCFG path its windows' lines name; without, 0 and NULL) of the
 * selection SEL: NULL when it is one dcfg-expand(1) allows, else what is
 * wrong.
 */
static const char *
planref_judge(struct planref *r, const char *text, size_t len, uint64_t n, uint64_t align,
    const char *dcfg_path, const struct planref_selection *sel)
{
	static struct planref_line l[PLANREF_LINES];
	const char *s = text, *end = text + len, *nl, *why;
	size_t n_l = 0, i, j, k;
	int rc;

	if (r->too_big)
		return NULL;
	for (; s < end; s = nl + 1, n_l++) {
		struct planref_line *x = &l[n_l];
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			return "a line without its newline";
		if (n_l == n || n_l == PLANREF_LINES)
			return "more lines than --plan N";
		if ((rc = planref_parse(s, nl, align ? dcfg_path : NULL, x)) < 0)
			return "a line of no documented form";
		if (rc > 0)
			return NULL;
		if (x->align != align)
			return "--align A on a line that is not the plan's interval";
		if (align && (x->has_from || x->has_to) != x->has_dcfg)
			return "--dcfg not on exactly the lines with a window";
		if (align && ((x->has_from && x->from % align) || (x->has_to && x->to % align)))
			return "a cut that is no multiple of the interval";
		if (x->has_from && x->has_to && x->from >= x->to)
			return "an empty window";
		if (x->shard != n_l + 1)
			return "--shard K/N whose K is not the line's number";
		if ((why = planref_line_of(x, sel)) != NULL)
			return why;
	}
	for (i = 0; i < n_l; i++)
		if (l[i].shards != n_l)
			return "--shard K/N whose N is not the plan's number of lines";
	for (i = 0; i < r->n_t; i++) {
		if (!planref_in_selection(sel, r->t[i].pid, r->t[i].tid)) {
			if (planref_selecting(l, n_l, r->t[i].pid, r->t[i].tid) != 0)
				return "a thread outside the selection on a line";
			continue;
		}
		for (k = 0; k < r->n_c; k++)
			if (r->c[k].pid == r->t[i].pid && r->c[k].tid == r->t[i].tid && r->c[k].e > 0)
				break;
		if (k == r->n_c) {   /* no edges */
			if (planref_selecting(l, n_l, r->t[i].pid, r->t[i].tid) != 1)
				return "a thread without edges not on exactly one line";
		} else if ((why = planref_chain(l, n_l, r->t[i].pid, r->t[i].tid)) != NULL) {
			return why;
		}
	}
	for (i = 0; i < r->n_pid; i++) {
		for (j = 0; j < r->n_t && r->t[j].pid != r->pid[i]; j++)
			;
		if (j < r->n_t)
			continue;
		for (j = k = 0; j < n_l; j++)
			k += planref_has(l[j].pid, l[j].n_pid, r->pid[i]);
		if (k != (sel->n_pid == 0 || planref_has(sel->pid, sel->n_pid, r->pid[i])))
			return "a process without threads not named exactly once, if selected";
	}
	return align || sel->n_pid || sel->n_tid || r->n_pid != 1 || r->n_t > n ? NULL :
	    planref_balance(r, l, n_l, n);
}

#endif
