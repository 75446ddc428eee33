#include "sequence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sequence_internal.h"
#include "common/vec.h"

#define NONE DCFG_SEQ_NONE
#define B64(c) DCFG_B64(c)

/* ---- expansion ---- */

void
dcfg_decoder_init(struct dcfg_decoder *dec)
{
	memset(dec, 0, sizeof *dec);
}

void
dcfg_decoder_free(struct dcfg_decoder *dec)
{
	dcfg_seqbuf_free(&dec->buf);
	free(dec->frames);
	free(dec->tok);
	memset(dec, 0, sizeof *dec);
}

static int
push(struct dcfg_decoder *dec, struct dcfg_xframe f)
{
	if (dcfg_reserve((void **)&dec->frames, &dec->cap_frames, dec->n_frames + 1,
	    sizeof *dec->frames) < 0)
		return -1;
	dec->frames[dec->n_frames++] = f;
	return 0;
}

static int
push_string(struct dcfg_decoder *dec, const struct dcfg_seqstr *str, const struct dcfg_seqitem *items)
{
	/* A string of plain characters has no items, and the array may not exist. */
	return push(dec, (struct dcfg_xframe){ .s = str->s,
	    .items = str->n_items > 0 ? items + str->items : NULL, .end = str->len });
}

/*
 * The next 6-bit symbol: 0..63, -1 at the end of the string, -2 out of
 * memory (in dec->error). Every character that is not Base64 starts the
 * frame's next item; the string was checked, so nothing else can be met.
 */
static int
next_symbol(struct dcfg_decoder *dec)
{
	struct dcfg_xframe *f;
	int v;

	while (dec->n_frames > 0) {
		f = &dec->frames[dec->n_frames - 1];
		if (f->pos >= f->end) {
			if (f->repeat && f->left > 0) {
				f->left--;
				f->pos = f->body;
				f->item = f->body_item;
				if (dec->runs)
					dcfg_period_mark(dec, dec->n_frames - 1);
			} else {
				if (f->probe.watching)
					dcfg_period_unwatch(dec, f);
				dec->n_frames--;
			}
			continue;
		}
		if ((v = B64(f->s[f->pos])) >= 0) {
			f->pos++;
			return v;
		}
		const struct dcfg_seqitem *it = &f->items[f->item++];
		if (it->kind == DCFG_SEQ_SKIP) {
			f->pos = it->to;
		} else if (it->kind == DCFG_SEQ_REF && it->count == 1) {
			f->pos = it->to;
			if (push_string(dec, &dec->dict->entries[it->link].str, dec->dict->buf.items) < 0)
				goto nomem;
		} else if (it->kind == DCFG_SEQ_REF) {
			/* passes over the whole value: a repeat, whose copies are watched as any */
			const struct dcfg_seqstr *v = &dec->dict->entries[it->link].str;
			f->pos = it->to;
			if (push(dec, (struct dcfg_xframe){ .s = v->s,
			    .items = v->n_items > 0 ? dec->dict->buf.items + v->items : NULL,
			    .end = v->len, .count = it->count, .left = it->count - 1,
			    .id = dec->next_id++, .repeat = 1 }) < 0)
				goto nomem;
			if (dec->runs)
				dcfg_period_mark(dec, dec->n_frames - 1);
		} else {
			uint32_t first = f->item;
			f->pos = it->to + 1;
			f->item = it->link;
			if (push(dec, (struct dcfg_xframe){ .s = f->s, .items = f->items,
			    .pos = it->body, .end = it->to, .item = first, .body = it->body,
			    .body_item = first, .count = it->count, .left = it->count - 1,
			    .id = dec->next_id++, .repeat = 1 }) < 0)
				goto nomem;
			if (dec->runs)
				dcfg_period_mark(dec, dec->n_frames - 1);
		}
	}
	return -1;
nomem:
	snprintf(dec->error, sizeof dec->error, "out of memory");
	return -2;
}

int
dcfg_decoder_start(struct dcfg_decoder *dec, const struct dcfg_ttable *table,
    struct dcfg_dict *dict, uint32_t first_edge, uint64_t edge_count,
    const char *seq, size_t len)
{
	struct dcfg_seqerr err;

	dec->table = table;
	dec->dict = dict;
	dec->n_frames = 0;
	dec->acc = 0;
	dec->nbits = 0;
	dec->ended = 0;
	dec->nomem = 0;
	dec->first = first_edge;
	dec->remaining = dec->total = edge_count;
	dec->emitted = 0;
	dec->state = DCFG_TTABLE_NONE;
	dec->group = NULL;
	dec->group_left = 0;
	dec->started = 0;
	dec->error[0] = '\0';
	dec->error_at = NONE;
	dec->bits_read = 0;
	dec->mark_head = dec->n_marks = 0;
	dec->n_tok = 0;
	dec->tok_base = dec->out = 0;
	dec->watching = 0;
	dec->zero_done = 0;
	/* The whole string is checked, however few of its bits the chunk needs. */
	dec->buf.n_items = 0;
	if (dcfg_seq_compile(&dec->buf, dict, &dec->seq, seq, len, &err) < 0) {
		snprintf(dec->error, sizeof dec->error, "%s", err.msg);
		dec->error_at = err.at;
		return -1;
	}
	if (push_string(dec, &dec->seq, dec->buf.items) < 0) {
		snprintf(dec->error, sizeof dec->error, "out of memory");
		return -1;
	}
	return 0;
}

/*
 * Tops the bit buffer up to 58 bits, unless the string ends first; but
 * takes in the string's next item (a repeat's start or next copy, a
 * reference, an end) only while it holds fewer than WANT bits.
 */
static inline void
refill_lazily(struct dcfg_decoder *dec, unsigned want)
{
	const unsigned low = 57;
	int v;

	while (dec->nbits <= low && !dec->ended) {
		if (dec->n_frames > 0) {
			/* the common case: a run of plain characters, read directly */
			struct dcfg_xframe *f = &dec->frames[dec->n_frames - 1];
			const char *s = f->s;
			while (dec->nbits <= low && f->pos < f->end && (v = B64(s[f->pos])) >= 0) {
				dec->acc = dec->acc << 6 | (uint64_t)v;
				dec->nbits += 6;
				dec->bits_read += 6;
				f->pos++;
			}
			if (dec->nbits > low || dec->nbits >= want)
				return;
		}
		v = next_symbol(dec);
		if (v < 0) {
			dec->ended = 1;
			dec->nomem = v == -2;   /* raised only if these bits are needed */
			return;
		}
		dec->acc = dec->acc << 6 | (uint64_t)v;
		dec->nbits += 6;
		dec->bits_read += 6;
	}
}

/* Tops the bit buffer up to at least 58 bits, unless the string ends first. */
void
dcfg_decoder_refill(struct dcfg_decoder *dec)
{
	refill_lazily(dec, 64);
}

void
dcfg_decoder_refill_to(struct dcfg_decoder *dec, unsigned want)
{
	refill_lazily(dec, want);
}

/* FMT NULL: the bits ran out, or memory did while expanding (dec->error says so). */
static ssize_t
fail(struct dcfg_decoder *dec, const char *fmt, uint32_t edge)
{
	if (fmt != NULL)
		snprintf(dec->error, sizeof dec->error, fmt, edge);
	else if (!dec->nomem)
		snprintf(dec->error, sizeof dec->error,
		    "the bits ran out before EDGE_COUNT edges");
	return -1;
}

/* The edge before the next one: the end of the last group, or the first edge. */
static uint32_t
last_edge(const struct dcfg_decoder *dec)
{
	return dec->group ? dec->group[-1] : dec->first;
}

/*
 * Selects the next group from the current state; -1 with the error set.
 * With runs, 2 instead when the state is on a cycle of zero-bit codes, not
 * met before in the chunk: nothing is read.
 */
int
dcfg_decoder_next_group(struct dcfg_decoder *dec)
{
	const struct dcfg_ttable *t = dec->table;
	const struct dcfg_tstate *st;
	uint32_t group;
	unsigned len, avail;

	if (dec->state == DCFG_TTABLE_NONE)
		return (int)fail(dec, "no transition from edge %u", last_edge(dec));
	st = &t->states[dec->state];
	/* with runs, the rest of the chunk is a run of the cycle's turns (period.c) */
	if (st->k == 0 && st->zero_cycle > 0 && dec->runs && !dec->zero_done)
		return 2;
	if (dec->nbits < st->k || (st->lut == DCFG_TTABLE_NONE && dec->nbits < 32))
		dcfg_decoder_refill(dec);
	avail = dec->nbits;
	if (st->lut != DCFG_TTABLE_NONE) {
		unsigned k = st->k;
		uint64_t bits = avail >= k ? dec->acc >> (avail - k) : dec->acc << (k - avail);
		const struct dcfg_tentry *e = &t->lut[st->lut + (bits & ((UINT64_C(1) << k) - 1))];
		group = e->group;
		len = e->len;
	} else {
		uint64_t peek = avail >= 32 ? dec->acc >> (avail - 32) : dec->acc << (32 - avail);
		uint32_t p = (uint32_t)peek;
		const struct dcfg_tcode *c = t->codes + st->codes;
		size_t lo = 0, hi = st->n_codes;
		while (lo < hi) {   /* the last code starting at or before p */
			size_t mid = lo + (hi - lo) / 2;
			if (c[mid].value <= p)
				lo = mid + 1;
			else
				hi = mid;
		}
		group = DCFG_TTABLE_NONE;
		len = 0;
		if (lo > 0 && (c[lo - 1].len == 0 ||
		    ((p ^ c[lo - 1].value) >> (32 - c[lo - 1].len)) == 0)) {
			group = c[lo - 1].group;
			len = c[lo - 1].len;
		}
	}
	if (group == DCFG_TTABLE_NONE || len > avail) {
		/* Fewer bits than the longest code happens only at the string's end. */
		if (avail < st->k)
			return (int)fail(dec, NULL, 0);
		return (int)fail(dec, "no transition from edge %u matches the next bits",
		    last_edge(dec));
	}
	dec->nbits -= len;
	dec->group = t->ids + t->groups[group].first;
	dec->group_left = t->groups[group].count;
	dec->state = t->groups[group].next_state;
	return 0;
}

ssize_t
dcfg_decoder_next(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t max)
{
	const struct dcfg_ttable *t = dec->table;
	size_t n = 0, limit;
	int rc = 0;

	if (!dec->started && dec->remaining > 0 && max > 0) {
		dec->started = 1;
		ids[n++] = dec->first;
		dec->remaining--;
		dec->state = dcfg_ttable_state(t, dec->first);
	}
	limit = dec->remaining < max - n ? n + (size_t)dec->remaining : max;
	dec->remaining -= limit - n;   /* given back below if decoding fails */

	while (dcfg_decode_groups(dec, ids, &n, limit, 0, -1) == DCFG_DECODE_SLOW)
		if ((rc = dcfg_decoder_next_group(dec)) < 0)
			break;
	if (rc < 0)
		dec->remaining += limit - n;
	dec->emitted = dec->total - dec->remaining;
	return rc < 0 ? -1 : (ssize_t)n;
}
