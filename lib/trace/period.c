/*
 * Runs: a repeat's copies that decode alike, handed over once with their
 * count (sequence.h). Tokens kept for a period are 64-bit: an edge id,
 * or a run's start (DCFG_TOKEN_RUN, then its count) or end (DCFG_TOKEN_END), so that
 * every 32-bit edge id stays an edge id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sequence_internal.h"
#include <dcfg/trace.h>     /* DCFG_RUN_DEPTH_MAX */
#include "common/vec.h"


void
dcfg_decoder_set_runs(struct dcfg_decoder *dec, int on)
{
	dec->runs = on;
}

void
dcfg_period_mark(struct dcfg_decoder *dec, size_t depth)
{
	const struct dcfg_xframe *f = &dec->frames[depth];
	struct dcfg_mark *m;

	/* A full queue loses the mark: that copy is not compared, nothing else. */
	if (dec->n_marks == DCFG_MARKS)
		return;
	m = &dec->marks[(dec->mark_head + dec->n_marks++) % DCFG_MARKS];
	m->bit = dec->bits_read;
	m->id = f->id;
	m->copy = f->count - 1 - f->left;
	m->depth = depth;
}

static uint64_t
tok_end(const struct dcfg_decoder *dec)
{
	return dec->tok_base + dec->n_tok;
}

void
dcfg_period_unwatch(struct dcfg_decoder *dec, struct dcfg_xframe *f)
{
	f->probe.watching = 0;
	/* nobody watching: the tokens kept are needed only until handed over */
	if (--dec->watching == 0 && dec->out >= tok_end(dec)) {
		dec->tok_base = tok_end(dec);
		dec->n_tok = 0;
	}
}

/*
 * Drops the tokens before BASE that nothing needs: frames whose checkpoint
 * is older stop watching (they begin again at their next copy).
 */
static void
trim(struct dcfg_decoder *dec, uint64_t need)
{
	uint64_t keep = dec->out < tok_end(dec) ? dec->out : tok_end(dec);
	size_t i;

	for (i = 0; i < dec->n_frames; i++) {
		struct dcfg_xframe *f = &dec->frames[i];
		if (!f->probe.watching)
			continue;
		if (f->probe.tok < need)
			dcfg_period_unwatch(dec, f);
		else if (f->probe.tok < keep)
			keep = f->probe.tok;
	}
	if (keep > dec->tok_base) {
		size_t drop = (size_t)(keep - dec->tok_base);
		memmove(dec->tok, dec->tok + drop, (dec->n_tok - drop) * sizeof *dec->tok);
		dec->n_tok -= drop;
		dec->tok_base = keep;
	}
}

/* Room for N more tokens, the oldest dropped if the watched window would pass the bound. */
static int
room(struct dcfg_decoder *dec, size_t n)
{
	uint64_t end = tok_end(dec) + n;

	if (end - dec->tok_base > DCFG_PERIOD_MAX)
		trim(dec, end > DCFG_PERIOD_MAX ? end - DCFG_PERIOD_MAX : 0);
	return dcfg_reserve((void **)&dec->tok, &dec->cap_tok, dec->n_tok + n, sizeof *dec->tok);
}

/* Keeps N edges just decoded for the periods being watched. */
static int
keep_edges(struct dcfg_decoder *dec, const uint32_t *ids, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	if (dec->watching == 0) {
		dec->tok_base += dec->n_tok + n;   /* nothing is kept: the window starts after them */
		dec->n_tok = 0;
		dec->out = tok_end(dec);
		return 0;
	}
	if (room(dec, n) < 0)
		return -1;
	if (dec->watching == 0) {               /* the trim stopped every watch */
		dec->tok_base += dec->n_tok + n;
		dec->n_tok = 0;
		dec->out = tok_end(dec);
		return 0;
	}
	for (i = 0; i < n; i++)
		dec->tok[dec->n_tok++] = ids[i];
	dec->out = tok_end(dec);
	return 0;
}

static void
watch(struct dcfg_decoder *dec, struct dcfg_xframe *f, uint64_t copy, uint32_t skip)
{
	struct dcfg_probe *p = &f->probe;

	if (!p->watching) {
		p->watching = 1;
		if (dec->watching++ == 0) {
			dec->tok_base = tok_end(dec);
			dec->n_tok = 0;
		}
	}
	p->copy = copy;
	p->tok = tok_end(dec);
	p->edges = dec->total - dec->remaining;
	p->state = dec->state;
	p->skip = skip;
	p->lam = 0;
}

/*
 * The copies from the checkpoint to copy C (P of them, E edges, T tokens)
 * run again K more times: hands them over as a run, and moves the reading
 * to copy C + K * P, SKIP bits in, as if they had been decoded.
 */
static int
make_run(struct dcfg_decoder *dec, size_t depth, uint64_t c, uint64_t bit, uint32_t skip,
    uint64_t k, uint64_t p, uint64_t e)
{
	struct dcfg_xframe *f = &dec->frames[depth];
	uint64_t from = f->probe.tok, t = tok_end(dec) - from, target = c + k * p;
	size_t i, src = (size_t)(from - dec->tok_base);

	/* the copy needs its source kept: the window may pass the bound until trimmed below */
	if (dcfg_reserve((void **)&dec->tok, &dec->cap_tok, dec->n_tok + (size_t)t + 3,
	    sizeof *dec->tok) < 0)
		return -1;
	dec->out = tok_end(dec);
	dec->tok[dec->n_tok++] = DCFG_TOKEN_RUN;
	dec->tok[dec->n_tok++] = k;
	for (i = 0; i < t; i++)
		dec->tok[dec->n_tok++] = dec->tok[src + i];
	dec->tok[dec->n_tok++] = DCFG_TOKEN_END;
	dec->remaining -= k * e;
	dec->emitted = dec->total - dec->remaining;

	/* frames above this one read later copies: they go, and are read again */
	while (dec->n_frames > depth + 1) {
		struct dcfg_xframe *g = &dec->frames[--dec->n_frames];
		if (g->probe.watching)
			dcfg_period_unwatch(dec, g);
	}
	f = &dec->frames[depth];
	f->probe.done = 1;
	if (f->probe.watching)
		dcfg_period_unwatch(dec, f);
	if (tok_end(dec) - dec->tok_base > DCFG_PERIOD_MAX)
		trim(dec, tok_end(dec) - DCFG_PERIOD_MAX);
	if (target == f->count) {
		f->left = 0;           /* every copy is skipped: read on after the repeat */
		f->pos = f->end;
	} else {
		f->left = f->count - 1 - target;
		f->pos = f->body;
		f->item = f->body_item;
	}
	dec->bits_read = bit + k * p * f->probe.bits;
	dec->n_marks = 0;
	dec->acc = 0;
	dec->nbits = 0;
	dec->group_left = 0;
	dcfg_decoder_refill_to(dec, skip);
	if (dec->nbits < skip) {
		if (!dec->nomem)
			snprintf(dec->error, sizeof dec->error, "the bits ran out inside a repeat");
		return -1;
	}
	dec->nbits -= skip;
	return 1;
}

/* How deep the runs among the tokens from FROM on nest. */
static unsigned
nesting(const struct dcfg_decoder *dec, uint64_t from)
{
	unsigned depth = 0, most = 0;
	size_t i;

	for (i = (size_t)(from - dec->tok_base); i < dec->n_tok; i++) {
		if (dec->tok[i] == DCFG_TOKEN_RUN) {
			if (++depth > most)
				most = depth;
			i++;   /* its count */
		} else if (dec->tok[i] == DCFG_TOKEN_END) {
			depth--;
		}
	}
	return most;
}

/*
 * Copy C of the repeat frame at DEPTH began at bit BIT, and the next code
 * starts SKIP bits after it. 1 when a run was made, 0 if not, -1 out of
 * memory.
 */
static int
probe(struct dcfg_decoder *dec, size_t depth, uint64_t c, uint64_t bit, uint32_t skip)
{
	struct dcfg_xframe *f = &dec->frames[depth];
	struct dcfg_probe *p = &f->probe;
	uint64_t period, e, t, k, whole, left;

	if (p->done)
		return 0;
	if (p->seen && c == p->last_copy + 1)
		p->bits = bit - p->last_bit;
	else if (p->seen)
		p->bits = 0;   /* a copy was not seen: its length is unknown */
	p->seen = 1;
	p->last_copy = c;
	p->last_bit = bit;
	if (!p->watching) {
		watch(dec, f, c, skip);
		p->power = 1;
		return 0;
	}
	p->lam++;
	if (p->state != dec->state || p->skip != skip) {
		if (p->lam == p->power) {
			p->power *= 2;
			watch(dec, f, c, skip);
		}
		return 0;
	}
	/* the same state as at the checkpoint: every copy from here repeats */
	period = c - p->copy;
	e = dec->total - dec->remaining - p->edges;
	t = tok_end(dec) - p->tok;
	p->done = 1;
	if (e == 0 || p->bits == 0 || t + 3 > DCFG_PERIOD_MAX || nesting(dec, p->tok) >= DCFG_RUN_DEPTH_MAX)
		return 0;
	/* whole: copies needed past copy C before its codes end, SKIP bits into them */
	whole = skip == 0 ? 0 : skip <= p->bits ? 1 : (skip + p->bits - 1) / p->bits;
	left = f->count - c;
	if (left < whole + 2 * period)
		return 0;
	k = (left - whole) / period;
	if (k > dec->remaining / e)
		k = dec->remaining / e;
	/* a run of one copy would only say again what the edges say */
	if (k < 2)
		return 0;
	return make_run(dec, depth, c, bit, skip, k, period, e);
}

/*
 * Looks at the decoder's state at every copy start reached (a code starts
 * here; groups are finished). 1 when a run was made, 0 if not, -1 out of
 * memory.
 */
static int
reach_marks(struct dcfg_decoder *dec)
{
	while (dec->n_marks > 0) {
		struct dcfg_mark m = dec->marks[dec->mark_head];
		uint64_t behind = dec->bits_read - m.bit;   /* bits read since the copy began */
		int rc;

		if (behind < dec->nbits)
			break;   /* not reached yet */
		dec->mark_head = (dec->mark_head + 1) % DCFG_MARKS;
		dec->n_marks--;
		if (m.depth >= dec->n_frames || !dec->frames[m.depth].repeat ||
		    dec->frames[m.depth].id != m.id)
			continue;
		if ((rc = probe(dec, m.depth, m.copy, m.bit, (uint32_t)(behind - dec->nbits))) != 0)
			return rc;
	}
	return 0;
}

/* Bits left in the buffer when the next mark is reached, or -1 for none. */
static int
mark_at(const struct dcfg_decoder *dec)
{
	uint64_t behind;

	if (dec->n_marks == 0)
		return -1;
	behind = dec->bits_read - dec->marks[dec->mark_head].bit;
	return behind > 64 ? 64 : (int)behind;
}

/*
 * Decodes edges into IDS[*NP .. MAX) as dcfg_decoder_next does, stopping
 * also where a copy start is reached. 1 at a mark, 2 on a zero-bit cycle
 * (unless dec->zero_done), 0 when full or the chunk is done, -1 on error.
 */
static int
decode(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t *np, size_t max)
{
	const struct dcfg_tstate *states = dec->table->states;
	size_t n = *np, limit = dec->remaining < max - n ? n + (size_t)dec->remaining : max;
	enum dcfg_decode_stop stop;
	int at = mark_at(dec), rc = 0;

	while ((stop = dcfg_decode_groups(dec, ids, &n, limit, 1, at)) == DCFG_DECODE_SLOW) {
		/*
		 * New bits may begin copies: look at them before the next
		 * code. Copies begin no earlier than a code needs, so that
		 * the repeat is still being read when a copy's start is
		 * reached, and the copies after it can be skipped.
		 */
		unsigned nbits = dec->nbits;
		if (!dec->ended && nbits <= 57) {
			uint32_t state = dec->state;
			dcfg_decoder_refill_to(dec, state != DCFG_TTABLE_NONE &&
			    states[state].lut != DCFG_TTABLE_NONE ? states[state].k : 32);
			at = mark_at(dec);
			if (dec->nbits > nbits)
				continue;
		}
		/* an error, or 2: a zero-bit cycle, nothing read */
		if (__builtin_expect((rc = dcfg_decoder_next_group(dec)) != 0, 0))
			break;
	}
	if (stop == DCFG_DECODE_MARK)
		rc = 1;
	dec->remaining -= n - *np;
	dec->emitted = dec->total - dec->remaining;
	*np = n;
	return rc;
}

/*
 * The decoder is at a state on a cycle of zero-bit codes, between groups:
 * every edge left reads no bit and the cycle's turn repeats to the end of
 * the chunk. The whole turns are one run, if two or more; the last part
 * turn is decoded as usual, and so is a cycle too long to keep as a run.
 * Either way the chunk has no other cycle to meet (dec->zero_done). No
 * copy start can be reached again, as no bit is read: the watches end.
 * 1 when a run was made, 0 if not, -1 out of memory.
 */
static int
zero_cycle_run(struct dcfg_decoder *dec)
{
	uint32_t len = dec->table->states[dec->state].zero_cycle;
	uint64_t turns = dec->remaining / len;
	size_t i;

	dec->zero_done = 1;
	if (turns < 2 || len > DCFG_PERIOD_MAX - 3)
		return 0;
	for (i = 0; i < dec->n_frames; i++)
		if (dec->frames[i].probe.watching)
			dcfg_period_unwatch(dec, &dec->frames[i]);
	dec->n_marks = 0;
	if (dec->out >= tok_end(dec)) {
		dec->tok_base = tok_end(dec);
		dec->n_tok = 0;
	}
	if (dcfg_reserve((void **)&dec->tok, &dec->cap_tok, dec->n_tok + len + 3,
	    sizeof *dec->tok) < 0)
		return -1;
	dec->tok[dec->n_tok++] = DCFG_TOKEN_RUN;
	dec->tok[dec->n_tok++] = turns;
	dcfg_ttable_zero_cycle(dec->table, dec->state, dec->tok + dec->n_tok);
	dec->n_tok += len;
	dec->tok[dec->n_tok++] = DCFG_TOKEN_END;
	dec->remaining -= turns * len;
	dec->emitted = dec->total - dec->remaining;
	return 1;
}

/* Hands over kept tokens (a run just made) into IDS[*NP .. MAX), up to an event. */
static void
hand_over(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t *np, size_t max,
    struct dcfg_run_event *ev)
{
	size_t n = *np;

	while (dec->out < tok_end(dec)) {
		uint64_t v = dec->tok[dec->out - dec->tok_base];
		if (v == DCFG_TOKEN_RUN) {
			ev->kind = DCFG_RUN_BEGIN;
			ev->count = dec->tok[dec->out + 1 - dec->tok_base];
			dec->out += 2;
			break;
		}
		if (v == DCFG_TOKEN_END) {
			ev->kind = DCFG_RUN_END;
			dec->out++;
			break;
		}
		if (n == max)
			break;
		ids[n++] = (uint32_t)v;
		dec->out++;
	}
	*np = n;
	if (dec->out >= tok_end(dec) && dec->watching == 0) {
		dec->tok_base = tok_end(dec);
		dec->n_tok = 0;
	}
}

ssize_t
dcfg_decoder_next_runs(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t max,
    struct dcfg_run_event *ev)
{
	size_t n = 0, from;
	int rc;

	ev->kind = DCFG_RUN_NONE;
	ev->count = 0;
	if (dec->out < tok_end(dec)) {
		hand_over(dec, ids, &n, max, ev);
		return (ssize_t)n;
	}
	if (!dec->started && dec->remaining > 0 && max > 0) {
		dec->started = 1;
		ids[n++] = dec->first;
		dec->remaining--;
		dec->emitted = 1;
		dec->state = dcfg_ttable_state(dec->table, dec->first);
	}
	while (n < max && dec->remaining > 0) {
		from = n;
		rc = decode(dec, ids, &n, max);
		if (rc >= 0 && keep_edges(dec, ids + from, n - from) < 0)
			goto nomem;
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		if (rc == 2) {
			if ((rc = zero_cycle_run(dec)) < 0)
				goto nomem;
			if (rc == 0)
				continue;
			hand_over(dec, ids, &n, max, ev);
			break;
		}
		if ((rc = reach_marks(dec)) < 0) {
			if (dec->error[0] == '\0')
				goto nomem;
			return -1;
		}
		if (rc == 1) {
			hand_over(dec, ids, &n, max, ev);
			break;
		}
	}
	return (ssize_t)n;
nomem:
	snprintf(dec->error, sizeof dec->error, "out of memory");
	return -1;
}
