#include "keyed.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "reader.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

int
dcfg_keyed_init(struct dcfg_keyed *k, const struct dcfg_stage *s)
{
	size_t i;

	memset(k, 0, sizeof *k);
	k->n_keys = s->n_keys;
	k->n_processes = s->dcfg->n_processes;
	k->start = malloc((k->n_keys + 1) * sizeof *k->start);
	k->len = malloc((k->n_keys + 1) * sizeof *k->len);
	k->key_by_slot = calloc(k->n_processes + 1, sizeof *k->key_by_slot);
	if (k->start == NULL || k->len == NULL || k->key_by_slot == NULL)
		return -1;
	for (i = 0; i < k->n_keys; i++)
		k->len[i] = UINT32_MAX;
	return 0;
}

void
dcfg_keyed_free(struct dcfg_keyed *k)
{
	size_t i;

	for (i = 0; k->key_by_slot && i < k->n_processes; i++)
		free(k->key_by_slot[i]);
	free(k->key_by_slot);
	free(k->start);
	free(k->len);
	free(k->pool);
	memset(k, 0, sizeof *k);
}

/*
 * An edge's slot in its process's keys: its id when the ids index directly
 * (one lookup less a line on the dense route), else its index in the
 * process's edges, so that sparse ids cost no more memory than dense ones.
 */
static inline size_t
slots_of(const struct dcfg_idmap *ids, size_t n_edges)
{
	return ids->hashed ? n_edges : ids->size;
}

int
dcfg_keyed_process(struct dcfg_keyed *k, const struct dcfg_stage *s)
{
	size_t at = (size_t)(s->p - s->dcfg->processes);
	const struct dcfg_idmap *ids = &dcfg_process_index(s->dcfg, s->p)->edge_by_id;
	size_t n = slots_of(ids, s->p->edges.count);

	k->ids = ids;
	k->first = s->dcfg->edges + s->p->edges.first;
	if (k->key_by_slot[at] == NULL && n > 0 &&
	    (k->key_by_slot[at] = calloc(n, sizeof **k->key_by_slot)) == NULL)
		return -1;
	k->cur = k->key_by_slot[at];
	k->n_cur = k->cur ? n : 0;
	return 0;
}

/*
 * Renders KEY's suffix into the output buffer and keeps a copy, unless it
 * flushed: the buffer then holds only the suffix's tail (a name longer
 * than the buffer), and the suffix is rendered again each time.
 */
static void
render(struct dcfg_keyed *k, struct dcfg_stage *s, uint32_t key)
{
	struct dcfg_output *out = s->out;
	uint64_t flushed;
	size_t at, n;

	if (sizeof out->buf - out->len < 4096)
		dcfg_output_flush(out);
	at = out->len;
	flushed = out->flushed;
	s->render(s->ctx, key);
	if (out->flushed != flushed || dcfg_output_failed(out))
		return;
	n = out->len - at;
	if (k->used + n >= UINT32_MAX / 2 ||
	    dcfg_reserve((void **)&k->pool, &k->cap, k->used + n + DCFG_COPY_PAD, 1) < 0)
		return;   /* not kept: rendered again next time */
	memcpy(k->pool + k->used, out->buf + at, n);
	k->start[key] = (uint32_t)k->used;
	k->len[key] = (uint32_t)n;
	k->used += n;
}

int
dcfg_keyed_line(struct dcfg_keyed *k, struct dcfg_stage *s,
    const struct dcfg_stream_record *r, const struct dcfg_edge *e, struct dcfg_error *err)
{
	uint32_t key;
	size_t slot;

	if (s->key(s->ctx, r, e, &key, err) < 0)
		return -1;
	if (key != DCFG_STAGE_DROP) {
		if (!s->replace)
			dcfg_out_bytes(s->out, r->line, r->len);
		if (k->len[key] != UINT32_MAX)
			dcfg_out_bytes(s->out, k->pool + k->start[key], k->len[key]);
		else
			render(k, s, key);
		if (k->len[key] == UINT32_MAX)
			return 0;   /* not kept: this edge stays on the record route */
	}
	slot = k->ids->hashed ? (size_t)(e - k->first) : r->edge;
	if (slot < k->n_cur)
		k->cur[slot] = key + 1;
	return 0;
}

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * Eight bytes a step, for ids of 10 digits (sparse ids) as for short ones:
 * the number of digits that start X's bytes, first byte lowest. A carry
 * out of a non-digit byte only reaches bytes after the first non-digit.
 */
static inline unsigned
leading_digits(uint64_t x)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t t = x ^ (ones * '0'), bad = (t | (t + ones * 6)) & (ones * 0xf0);

	return bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
}

/* The value of the N (1 to 8) decimal digits that start X. */
static inline uint64_t
digits_value(uint64_t x, unsigned n)
{
	x = (x & UINT64_C(0x0f0f0f0f0f0f0f0f)) << (8 * (8 - n));   /* leading zeros */
	x = (x * 2561) >> 8;
	x = ((x & UINT64_C(0x00ff00ff00ff00ff)) * 6553601) >> 16;
	return ((x & UINT64_C(0x0000ffff0000ffff)) * UINT64_C(42949672960001)) >> 32;
}
#endif

/*
 * The edge id that starts the line at P, when the line is one that
 * dcfg_stream_next would take as a plain data line: 1 to 0x7fffffff, then
 * a tab or the end of the line. 0 otherwise. The span ends at END.
 */
static inline uint32_t
plain_id(const char *p, const char *end, const char **after)
{
	uint64_t v = 0;
	const char *q = p;

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - p >= 16) {
		uint64_t lo, hi;
		unsigned n, m = 0;

		memcpy(&lo, p, 8);
		if ((n = leading_digits(lo)) == 0)
			return 0;
		v = digits_value(lo, n);
		if (n == 8) {
			memcpy(&hi, p + 8, 8);
			/* more than 10 digits: the 11th is no tab or newline */
			if ((m = leading_digits(hi)) > 2)
				return 0;
			if (m > 0)
				v = v * (m == 1 ? 10 : 100) + digits_value(hi, m);
		}
		q = p + n + m;
		if ((*q != '\n' && *q != '\t') || v > 0x7fffffff)
			return 0;
		*after = q;
		return (uint32_t)v;
	}
#else
	(void)end;
#endif
	while ((unsigned)(*q - '0') < 10 && q - p < 10)
		v = v * 10 + (uint64_t)(*q++ - '0');
	if ((*q != '\n' && *q != '\t') || v > 0x7fffffff)
		return 0;
	*after = q;
	return (uint32_t)v;
}

/* The '\n' that ends the line at Q, in a span that ends with one at END - 1. */
static inline const char *
line_end(const char *q, const char *end)
{
#if defined(__SSE2__) && defined(__x86_64__)
	/* sixteen bytes a step: a sparse id's line is some 50 bytes long */
	const __m128i newlines = _mm_set1_epi8('\n');
	unsigned hits;

	for (; end - q >= 16; q += 16) {
		hits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const __m128i *)(const void *)q), newlines));
		if (hits != 0)
			return q + __builtin_ctz(hits);
	}
#elif defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* eight bytes a step: a byte of X ^ "\n\n..." is 0 at a newline */
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones << 7;
	uint64_t x, zero;

	for (; end - q >= 8; q += 8) {
		memcpy(&x, q, 8);
		x ^= ones * '\n';
		if ((zero = (x - ones) & ~x & highs) != 0)
			return q + (__builtin_ctzll(zero) >> 3);
	}
#endif
	while (*q != '\n')
		q++;
	return q;
}

unsigned long
dcfg_keyed_lines(struct dcfg_keyed *k, struct dcfg_stage *s, struct dcfg_stream *st)
{
	struct dcfg_output *out = s->out;
	/* locals, not fields: a store through char * would make the compiler reload every field */
	const uint32_t *cur = k->cur, *start = k->start, *length = k->len;
	struct dcfg_idmap ids;
	const char *pool = k->pool, *p, *end, *q, *nl;
	const size_t n_cur = k->n_cur, keep_line = !s->replace;
	char *buf = out->buf;
	size_t at = out->len, len, n;
	unsigned long lines = 0;
	uint32_t id, slot, key;

	if (cur == NULL || !dcfg_stream_peek_lines(st, &p, &end))
		return 0;
	ids = *k->ids;
	while (p < end) {
		if ((id = plain_id(p, end, &q)) == 0)
			break;
		slot = ids.hashed ? dcfg_idmap_get(&ids, id) : id;
		if (slot >= n_cur || (key = cur[slot]) == 0)
			break;
		nl = *q == '\n' ? q : line_end(q, end);
		if (--key != DCFG_STAGE_DROP) {
			len = keep_line ? (size_t)(nl - p) : 0;
			n = length[key];
			/* a line longer than the buffer goes the record route */
			if (len + n + DCFG_COPY_PAD > sizeof out->buf)
				break;
			if (sizeof out->buf - at < len + n + DCFG_COPY_PAD) {
				out->len = at;
				dcfg_output_flush(out);
				at = out->len;
				if (dcfg_output_failed(out))
					break;
			}
			/* the line's source may end the buffer: no reading past it */
			if (end - p >= (ptrdiff_t)(len + DCFG_COPY_PAD))
				dcfg_copy_padded(buf + at, p, len);
			else
				memcpy(buf + at, p, len);
			dcfg_copy_padded(buf + at + len, pool + start[key], n);
			at += len + n;
		}
		p = nl + 1;
		lines++;
	}
	out->len = at;
	dcfg_stream_skip_lines(st, p, lines);
	return lines;
}
