/*
 * dcfg-profile --summary: what a shard does to LoopPoint's rule, for the
 * merge of summaries that finds each shard's incoming threshold
 * (dcfg-profile(1), SHARDS). Under that rule a boundary is the first
 * eligible entry that starts at or after the thread's threshold (the
 * boundary before's start plus N), so a shard's boundaries depend on the
 * threshold it inherits, and the threshold it passes on is a function of
 * that one alone. This file computes the function, in memory that grows
 * with the shard's candidates, never with its length.
 *
 * An incoming threshold T is at most FROM + N (FROM: the shard's start),
 * as the boundary before the shard starts at or before FROM. The
 * thresholds in (s', s], s and s' consecutive eligible entries (s' = -inf
 * for the first), all pick the entry at s as their first boundary: that
 * range is a class. Classes are made up to the first eligible entry at or
 * after FROM + N, which every T left reaches. From then on what matters
 * is a class's current threshold; the classes that share one are a
 * group, and will share every boundary after. The groups wait in a FIFO
 * in the order of their thresholds: an eligible entry at s fires the
 * groups at the front whose threshold is at most s (and the class that
 * ends at s), and they become one group of threshold s + N, which is the
 * largest, at the back. Each entry pops what it fires and pushes one
 * group, so the work is O(1) amortised per eligible entry. Groups need
 * not be ranges of classes, nor come to one: a loop of a constant
 * iteration keeps ceil(N / iteration) of them apart for ever.
 *
 * The summary writes, per thread of the shard:
 *
 *   w TID FROM TO              the thread's first and final positions
 *   m TID UPPER OUT            the thresholds up to UPPER (above the line
 *                              before's) leave OUT; those above the last
 *                              UPPER leave the shard with no boundary: as they came
 *   m TID UPPER OUT DU DO K    K such lines, the Ith (from 0) UPPER + I DU
 *                              and OUT + I DO (modulo 2^64)
 */
#include "profile_internal.h"

#include <stdlib.h>

#include "common/vec.h"

#define NO_CLASS UINT32_MAX

struct dcfg_pinpoints_group {
	uint64_t threshold;
	uint32_t head, tail;       /* its classes, a list through NEXT */
};

/* Where a run's last copy started: the FIFO's pushes then, and the copies left. */
struct dcfg_pinpoints_copy {
	const void *run;
	uint64_t left, pushes;
	size_t q_len;
};

#define COPIES_SEEN 16

struct dcfg_pinpoints_chains {
	uint64_t *upper; uint32_t *next; size_t n, cap, cap_next;   /* the classes, in order */
	struct dcfg_pinpoints_group *q; size_t q_cap, q_first, q_len;   /* the FIFO, a ring */
	uint64_t reach;            /* FROM + N: no incoming threshold is above */
	int closed;                /* an eligible entry at or after REACH came: no class is left to make */
	uint64_t pushes;           /* groups pushed so far */
	struct dcfg_pinpoints_copy seen[COPIES_SEEN];   /* runs whose copies were walked */
	unsigned next_seen;
	uint64_t turn;             /* summary_whole found copies that turn the FIFO by TURN each */
};

/*
 * Classes are made by the eligible entries that start in a shard's first
 * N instructions, which a run of many copies can make too many to hold.
 */
#define CLASSES_MAX ((size_t)1 << 24)

static int
oom(struct dcfg_pinpoints *pr)
{
	return dcfg_error_set(pr->err, pr->name, "out of memory");
}

static struct dcfg_pinpoints_chains *
chains_of(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	if (t->chains == NULL && (t->chains = calloc(1, sizeof *t->chains)) != NULL &&
	    __builtin_add_overflow(t->from, pr->o->slice_size, &t->chains->reach))
		t->chains->reach = UINT64_MAX;
	return t->chains;
}

/* Group G at the FIFO's back. */
static int
push(struct dcfg_pinpoints_chains *c, struct dcfg_pinpoints_group g)
{
	if (c->q_len == c->q_cap) {
		size_t cap = c->q_cap ? 2 * c->q_cap : 16, i;
		struct dcfg_pinpoints_group *q = malloc(cap * sizeof *q);
		if (q == NULL)
			return -1;
		for (i = 0; i < c->q_len; i++)
			q[i] = c->q[(c->q_first + i) % c->q_cap];
		free(c->q);
		c->q = q;
		c->q_cap = cap;
		c->q_first = 0;
	}
	c->q[(c->q_first + c->q_len++) % c->q_cap] = g;
	return 0;
}

/* The classes of FROM appended to those of G. */
static void
join(struct dcfg_pinpoints_chains *c, struct dcfg_pinpoints_group *g, uint32_t head, uint32_t tail)
{
	if (head == NO_CLASS)
		return;
	if (g->head == NO_CLASS)
		g->head = head;
	else
		c->next[g->tail] = head;
	g->tail = tail;
}

int
dcfg_pinpoints_summary_eligible(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_pinpoints_chains *c = chains_of(pr, t);
	struct dcfg_pinpoints_group g = { 0, NO_CLASS, NO_CLASS };
	uint64_t s = t->pos;

	if (c == NULL)
		return oom(pr);
	if (__builtin_add_overflow(s, pr->o->slice_size, &g.threshold))
		return dcfg_pinpoints_overflow(pr);
	if (!c->closed) {
		uint32_t k = (uint32_t)c->n;
		if (c->n >= CLASSES_MAX)
			return dcfg_error_set(pr->err, pr->name, "thread %llu: more than %zu loop-head "
			    "entries in the first %llu instructions of the shard, each a place its "
			    "first boundary may be: too many for a summary (a smaller slice size, or "
			    "--loop-grid, whose parts need none)", (unsigned long long)t->tid,
			    CLASSES_MAX, (unsigned long long)pr->o->slice_size);
		if (dcfg_reserve((void **)&c->upper, &c->cap, c->n + 1,
		    sizeof *c->upper) < 0 || dcfg_reserve((void **)&c->next, &c->cap_next, c->n + 1,
		    sizeof *c->next) < 0)
			return oom(pr);
		c->upper[k] = s;
		c->next[k] = NO_CLASS;
		c->n++;
		join(c, &g, k, k);
		c->closed = s >= c->reach;
	}
#ifdef FUZZ_PLANT_LOOPPOINT
	/* planted for the looppoint fuzz target (README, Fuzzing): a threshold at S not reached */
	while (c->q_len > 0 && c->q[c->q_first].threshold < s) {
#else
	while (c->q_len > 0 && c->q[c->q_first].threshold <= s) {
#endif
		struct dcfg_pinpoints_group *f = &c->q[c->q_first];
		join(c, &g, f->head, f->tail);
		c->q_first = (c->q_first + 1) % c->q_cap;
		c->q_len--;
	}
	if (g.head != NO_CLASS && push(c, g) < 0)
		return oom(pr);
	c->pushes += g.head != NO_CLASS;
	return 0;
}

static uint64_t
threshold_at(const struct dcfg_pinpoints_chains *c, size_t i)
{
	return c->q[(c->q_first + i) % c->q_cap].threshold;
}

/*
 * A run's copy of S instructions walked, in which P groups fired and
 * none met (the FIFO's length kept, no class made): the next copy does
 * the same to the FIFO, seen from its own start, when the FIFO is the one
 * before turned by P, each threshold S on: the threshold at I + P is that
 * at I plus S. (Checked on the FIFO now alone: its first L - P groups are
 * those that did not fire, as they were.)
 */
static int
turns(const struct dcfg_pinpoints_chains *c, uint64_t p, uint64_t s)
{
	size_t i;

	if (p == 0 || p >= c->q_len)
		return 0;
	for (i = 0; i + p < c->q_len; i++)
		if (threshold_at(c, i + (size_t)p) - threshold_at(c, i) != s)
			return 0;
	return 1;
}

uint64_t
dcfg_pinpoints_summary_whole(struct dcfg_pinpoints_thread *t, const void *run, uint64_t s,
    uint64_t left)
{
	struct dcfg_pinpoints_chains *c = t->chains;
	struct dcfg_pinpoints_copy *seen = NULL;
	unsigned i;

	if (c == NULL || !c->closed)
		return 0;
	for (i = 0; i < COPIES_SEEN; i++)
		if (c->seen[i].run == run)
			seen = &c->seen[i];
	if (seen && seen->left == left + 1 && seen->q_len == c->q_len &&
	    turns(c, c->pushes - seen->pushes, s)) {
		c->turn = c->pushes - seen->pushes;
		return left;
	}
	if (seen == NULL)
		seen = &c->seen[c->next_seen++ % COPIES_SEEN];
	*seen = (struct dcfg_pinpoints_copy){ run, left, c->pushes, c->q_len };
	return 0;
}

int
dcfg_pinpoints_summary_turn(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint64_t k,
    uint64_t s)
{
	struct dcfg_pinpoints_chains *c = t->chains;
	struct dcfg_pinpoints_group *q;
	uint64_t by, moved;
	size_t i, n;

	if (c == NULL || c->turn == 0)
		return 0;
	n = c->q_len;
	by = (k % n) * c->turn % n;
	if (__builtin_mul_overflow(k, s, &moved))
		return dcfg_pinpoints_overflow(pr);
	if ((q = malloc(n * sizeof *q)) == NULL)
		return oom(pr);
	for (i = 0; i < n; i++) {
		q[i] = c->q[(c->q_first + (i + by) % n) % c->q_cap];
		if (__builtin_add_overflow(threshold_at(c, i), moved, &q[i].threshold))
			break;
	}
	if (i < n) {
		free(q);
		return dcfg_pinpoints_overflow(pr);
	}
	free(c->q);
	c->q = q;
	c->q_cap = n;
	c->q_first = 0;
	c->turn = 0;
	return 0;
}

uint64_t
dcfg_pinpoints_summary_lowest(const struct dcfg_pinpoints_thread *t)
{
	const struct dcfg_pinpoints_chains *c = t->chains;

	if (c == NULL || !c->closed)
		return 0;   /* a class still to make: any eligible entry makes one */
	return c->q_len ? c->q[c->q_first].threshold : UINT64_MAX;
}

void
dcfg_pinpoints_summary_free(struct dcfg_pinpoints_thread *t)
{
	if (t->chains) {
		free(t->chains->upper);
		free(t->chains->next);
		free(t->chains->q);
		free(t->chains);
		t->chains = NULL;
	}
}

static void
out_words(struct dcfg_output *out, char kind, uint64_t tid, uint64_t a, uint64_t b)
{
	dcfg_out_char(out, kind);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, tid);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, a);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, b);
}

static void
out_line(struct dcfg_output *out, char kind, uint64_t tid, uint64_t a, uint64_t b)
{
	out_words(out, kind, tid, a, b);
	dcfg_out_char(out, '\n');
}

/*
 * The N classes (UPPER, LEAVE) as "m" lines; three or more whose UPPER
 * and LEAVE both step alike (a loop's chains, each an iteration on) make
 * one line, "m TID UPPER LEAVE STEP_UPPER STEP_LEAVE COUNT", its steps
 * taken modulo 2^64 (a LEAVE may step down).
 */
static void
out_progressions(struct dcfg_output *out, uint64_t tid, const uint64_t *upper, const uint64_t *leave,
    size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		uint64_t du = i + 1 < n ? upper[i + 1] - upper[i] : 0;
		uint64_t dl = i + 1 < n ? leave[i + 1] - leave[i] : 0;
		for (j = i + 1; j + 1 < n && upper[j + 1] - upper[j] == du && leave[j + 1] - leave[j] == dl; j++)
			;
		if (j - i < 2) {   /* a line alone */
			out_line(out, 'm', tid, upper[i], leave[i]);
			i++;
			continue;
		}
		out_words(out, 'm', tid, upper[i], leave[i]);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, du);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, dl);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, (uint64_t)(j - i + 1));
		dcfg_out_char(out, '\n');
		i = j + 1;
	}
}

int
dcfg_pinpoints_summary_thread_end(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_pinpoints_chains *c = t->chains;
	uint64_t *leave;
	size_t i, k, n;

	out_line(pr->o->out, 'w', t->tid, t->from, t->pos);
	if (c == NULL || c->n == 0)
		return 0;
	if ((leave = malloc(c->n * sizeof *leave)) == NULL)
		return oom(pr);
	for (i = 0; i < c->q_len; i++) {
		const struct dcfg_pinpoints_group *g = &c->q[(c->q_first + i) % c->q_cap];
		uint32_t j;
		for (j = g->head; j != NO_CLASS; j = c->next[j])
			leave[j] = g->threshold;
	}
	/* classes side by side that leave the same threshold are one */
	for (k = n = 0; k < c->n; k++)
		if (k + 1 == c->n || leave[k + 1] != leave[k]) {
			c->upper[n] = c->upper[k];
			leave[n++] = leave[k];
		}
	out_progressions(pr->o->out, t->tid, c->upper, leave, n);
	free(leave);
	return 0;
}
