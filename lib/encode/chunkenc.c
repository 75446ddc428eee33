#include "chunkenc.h"

#include <stdlib.h>

#include "common/vec.h"

/*
 * The coder between two edges: the edge it codes from (none before the
 * chunk's first), and how many ids of the last NEXT_EDGE_IDS group are
 * still to pass without bits.
 */
struct state {
	uint32_t cur;
	uint8_t skip;
	uint8_t started;
};

/*
 * After a copy the coder is at the period's last edge, with 0 to
 * DCFG_MAX_GROUP - 1 ids to pass and 0 to 5 bits waiting: among the
 * states before the first copy and after each, one repeats by this many.
 */
#define MAX_COPIES (DCFG_MAX_GROUP * 6 + 2)

enum { RUN, PERIOD };

/* A piece written: a run, or one copy of its period, from a state and offset. */
struct memo {
	uint8_t kind, off;
	struct state in, out;
	struct dcfg_piece piece;
};

struct memos {
	struct memo *m;
	size_t n, cap;
};

struct frame {
	int kind;
	size_t run;
	struct state in;
	unsigned off;
	/* PERIOD: the copy being written */
	struct dcfg_bitw w;
	struct state s;
	size_t i, ri;             /* the next edge, the next nested run */
	/* RUN: the copies so far, and where the states repeat */
	size_t k, j;
	int cycle;
	uint32_t copy[MAX_COPIES];     /* memo of copy x, x >= 1 */
	struct state st[MAX_COPIES];   /* state after copy x (0: before the run) */
	uint8_t offs[MAX_COPIES];
};

struct dcfg_chunkenc {
	struct dcfg_text top;           /* the chunk's text, kept between chunks */
	struct dcfg_text_arena arena;   /* periods and bodies, freed with each chunk */
	struct memos *memo;             /* one list a run */
	size_t cap_memo;
	struct frame *frames;
	size_t cap_frames;
	const struct dcfg_chunk_lines *c;
	const struct dcfg_transitions *t;
};

struct dcfg_chunkenc *
dcfg_chunkenc_new(void)
{
	return calloc(1, sizeof(struct dcfg_chunkenc));
}

void
dcfg_chunkenc_free(struct dcfg_chunkenc *ce)
{
	size_t i;

	if (ce == NULL)
		return;
	dcfg_text_arena_free(&ce->arena);
	for (i = 0; i < ce->cap_memo; i++)
		free(ce->memo[i].m);
	free(ce->memo);
	free(ce->frames);
	free(ce->top.chars);
	free(ce->top.reps);
	free(ce);
}

static uint64_t
sat_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

int
dcfg_chunk_count(const struct dcfg_chunk_lines *c, struct dcfg_transitions *t)
{
	struct open { size_t end; uint64_t w; } *st = NULL;
	size_t i, ri = 0, sp = 0, cap = 0;
	uint64_t w = 1, before;
	int rc = -1;

	if (c->n_runs == 0) {
		for (i = 1; i < c->n; i++)
			if (dcfg_transitions_add(t, c->edges[i - 1], c->edges[i], 1) < 0)
				return -1;
		return 0;
	}
	for (i = 0; i < c->n; i++) {
		while (sp > 0 && st[sp - 1].end <= i)
			w = st[--sp].w;
		before = w;
		for (; ri < c->n_runs && c->runs[ri].begin == i; ri++) {
			const struct dcfg_run_span *r = &c->runs[ri];
			if (r->count > 1 && dcfg_transitions_add(t, c->edges[r->end - 1], c->edges[i],
			    sat_mul(r->count - 1, w)) < 0)
				goto out;
			if (dcfg_reserve((void **)&st, &cap, sp + 1, sizeof *st) < 0)
				goto out;
			st[sp++] = (struct open){ r->end, w };
			w = sat_mul(w, r->count);
		}
		if (i > 0 && dcfg_transitions_add(t, c->edges[i - 1], c->edges[i], before) < 0)
			goto out;
	}
	rc = 0;
out:
	free(st);
	return rc;
}

/*
 * Codes edges [i, limit) after state S into W. The hot loop of every
 * chunk: the writer is kept in locals, out of reach of the character
 * stores. -1: out of memory, or a transition T lacks.
 */
static int
code_edges(const struct dcfg_transitions *t, const uint32_t *edges, size_t i, size_t limit,
    struct state *s, struct dcfg_bitw *w)
{
	uint64_t acc;
	unsigned nacc;
	char *out;
	uint32_t cur;
	int capture;

	if (i >= limit)
		return 0;
	if (dcfg_bitw_reserve(w, (uint64_t)(limit - i) * 32) < 0)
		return -1;
	if (!s->started) {
		*s = (struct state){ .cur = edges[i++], .started = 1 };
	} else if (s->skip > 0) {
		size_t n = s->skip < limit - i ? s->skip : limit - i;
		i += n;
		s->skip = (uint8_t)(s->skip - n);
		s->cur = edges[i - 1];
	}
	acc = w->acc;
	nacc = w->nacc;
	capture = w->capture;
	out = w->t->chars + w->t->n_chars;
	cur = s->cur;
	while (i < limit) {
		const struct dcfg_trans *tr = dcfg_transitions_find(t, cur, edges[i]);
		size_t n;
		if (tr == NULL)   /* every transition was counted in the first pass */
			return -1;
		if (tr->len) {
			acc = acc << tr->len | tr->code >> (32 - tr->len);
			nacc += tr->len;
			while (nacc >= 6) {
				nacc -= 6;
				if (capture) {
					w->head = (unsigned)(acc >> nacc) & 63;
					capture = 0;
				} else {
					*out++ = dcfg_b64_chars[(acc >> nacc) & 63];
				}
			}
		}
		/* the group's ids follow by construction; the stretch may end inside it */
		n = tr->group_len;
		if (n > limit - i) {
			s->skip = (uint8_t)(n - (limit - i));
			n = limit - i;
		}
		i += n;
		cur = edges[i - 1];
	}
	s->cur = cur;
	w->acc = acc;
	w->nacc = nacc;
	w->capture = capture;
	w->t->n_chars = (size_t)(out - w->t->chars);
	return 0;
}

static int
same(const struct state *a, const struct state *b)
{
	return a->cur == b->cur && a->skip == b->skip && a->started == b->started;
}

static const struct memo *
memo_find(const struct dcfg_chunkenc *ce, size_t run, int kind, const struct state *in,
    unsigned off)
{
	const struct memos *ms = &ce->memo[run];
	size_t i;

	for (i = 0; i < ms->n; i++)
		if (ms->m[i].kind == kind && ms->m[i].off == off && same(&ms->m[i].in, in))
			return &ms->m[i];
	return NULL;
}

static int
memo_add(struct dcfg_chunkenc *ce, const struct frame *f, const struct dcfg_piece *p,
    const struct state *out)
{
	struct memos *ms = &ce->memo[f->run];

	if (dcfg_reserve((void **)&ms->m, &ms->cap, ms->n + 1, sizeof *ms->m) < 0)
		return -1;
	ms->m[ms->n++] = (struct memo){ .kind = (uint8_t)f->kind, .off = (uint8_t)f->off,
	    .in = f->in, .out = *out, .piece = *p };
	return 0;
}

/* What a frame waits for: the memo of (kind, run, in, off). */
struct need {
	int kind;
	size_t run;
	struct state in;
	unsigned off;
};

enum { DONE, NEED, FAIL = -1 };

static int
step_period(struct dcfg_chunkenc *ce, struct frame *f, struct need *need)
{
	const struct dcfg_chunk_lines *c = ce->c;
	const struct dcfg_run_span *r = &c->runs[f->run];
	struct dcfg_piece p;
	unsigned skip = 0;

	for (;;) {
		size_t limit = f->ri < r->after ? c->runs[f->ri].begin : r->end;
		const struct memo *m;
		if (code_edges(ce->t, c->edges, f->i, limit, &f->s, &f->w) < 0)
			return FAIL;
		f->i = limit;
		if (f->ri >= r->after)
			break;
		if ((m = memo_find(ce, f->ri, RUN, &f->s, f->w.nacc)) == NULL) {
			*need = (struct need){ RUN, f->ri, f->s, f->w.nacc };
			return NEED;
		}
		if (dcfg_bitw_put_piece(&f->w, &m->piece, &skip) < 0)
			return FAIL;
		f->s = m->out;
		f->i = c->runs[f->ri].end;
		f->ri = c->runs[f->ri].after;
	}
	dcfg_bitw_piece(&f->w, &p);
	return memo_add(ce, f, &p, &f->s) < 0 ? FAIL : DONE;
}

#define COPY(x) (&ce->memo[f->run].m[f->copy[x]].piece)

/* Puts copies FROM..TO (1-based; past k they go round the cycle). */
static int
put_copies(struct dcfg_chunkenc *ce, const struct frame *f, struct dcfg_bitw *w,
    uint64_t from, uint64_t to, unsigned *skip)
{
	size_t m = f->k - f->j;
	uint64_t x;

	for (x = from; x <= to; x++)
		if (dcfg_bitw_put_piece(w, COPY(x <= f->k ? x : f->j + (x - f->j - 1) % m + 1),
		    skip) < 0)
			return -1;
	return 0;
}

/*
 * A run's copies, all found (no repeat within COUNT copies), or up to
 * where the states repeat: copies j+1..k then come round again and again,
 * their bits a whole number of characters. The body starts at the first
 * character boundary at or after the start of copy j+1: the bits before
 * it (the prefix) are put before the repeat, the body ends with the
 * prefix of the copies after it, and those copies leave it out.
 */
static int
finish_run(struct dcfg_chunkenc *ce, struct frame *f)
{
	uint64_t count = ce->c->runs[f->run].count, per, reps;
	struct dcfg_text *text = dcfg_text_new(&ce->arena), *body;
	struct dcfg_bitw w, bw;
	struct dcfg_piece p;
	size_t m = f->k - f->j, x, pre, last = f->k;
	unsigned skip = 0, h, got = 0, prefix = 0;
	int empty = 1;

	if (text == NULL)
		return -1;
	dcfg_bitw_start(&w, text, f->off);
	if (!f->cycle) {
		if (put_copies(ce, f, &w, 1, f->k, &skip) < 0)
			return -1;
		goto done;
	}
	per = count - f->j;
	last = f->j + (size_t)((per - 1) % m) + 1;
	for (x = f->j + 1; x <= f->k; x++)
		empty = empty && dcfg_piece_empty(COPY(x));
	if (empty) {   /* a cycle of no bits: nothing after copy j */
		if (put_copies(ce, f, &w, 1, f->j, &skip) < 0)
			return -1;
		goto done;
	}
	/*
	 * The cycle's bits are a multiple of 6 and not 0, so its first
	 * copies hold the prefix: PRE of them (short copies may not reach the
	 * boundary). Each body ends with the prefix of the copies after it.
	 */
	h = (6 - f->offs[f->j]) % 6;
	for (x = f->j + 1; got < h; x++) {
		const struct dcfg_piece *c = COPY(x);
		prefix = prefix << c->head_len | c->head;
		got += c->head_len;
	}
	pre = x - (f->j + 1);
	reps = (per - pre) / m;
	if (reps < 2) {   /* too few copies to repeat */
		if (put_copies(ce, f, &w, 1, count, &skip) < 0)
			return -1;
		goto done;
	}
	if (put_copies(ce, f, &w, 1, f->j, &skip) < 0)
		return -1;
	if ((body = dcfg_text_new(&ce->arena)) == NULL)
		return -1;
	/* the body's writer drops the character the prefix completes */
	dcfg_bitw_start(&bw, body, f->offs[f->j]);
	if (put_copies(ce, f, &bw, f->j + 1, f->k, &skip) < 0 || dcfg_bitw_reserve(&bw, 6) < 0 ||
	    dcfg_bitw_reserve(&w, 6) < 0)
		return -1;
	dcfg_bitw_put(&bw, prefix, h);
	dcfg_bitw_put(&w, prefix, h);
	if (dcfg_bitw_put_rep(&w, body, reps) < 0)
		return -1;
	skip = h;
	if (put_copies(ce, f, &w, f->j + 1, f->j + (per - reps * m), &skip) < 0)
		return -1;
done:
	dcfg_bitw_piece(&w, &p);
	return memo_add(ce, f, &p, &f->st[last]);
}

static int
step_run(struct dcfg_chunkenc *ce, struct frame *f, struct need *need)
{
	uint64_t count = ce->c->runs[f->run].count;
	const struct memo *m;
	size_t j;

	while (!f->cycle && f->k < count) {
		if (f->k + 1 >= MAX_COPIES)   /* cannot be: the states are fewer */
			return FAIL;
		m = memo_find(ce, f->run, PERIOD, &f->st[f->k], f->offs[f->k]);
		if (m == NULL) {
			*need = (struct need){ PERIOD, f->run, f->st[f->k], f->offs[f->k] };
			return NEED;
		}
		f->k++;
		f->copy[f->k] = (uint32_t)(m - ce->memo[f->run].m);
		f->st[f->k] = m->out;
		f->offs[f->k] = (uint8_t)dcfg_piece_end(&m->piece);
		for (j = 0; j < f->k && !f->cycle; j++)
			if (same(&f->st[j], &f->st[f->k]) && f->offs[j] == f->offs[f->k]) {
				f->j = j;
				f->cycle = 1;
			}
	}
	return finish_run(ce, f) < 0 ? FAIL : DONE;
}

static int
push(struct dcfg_chunkenc *ce, size_t *nf, const struct need *n)
{
	struct frame *f;

	if (dcfg_reserve((void **)&ce->frames, &ce->cap_frames, *nf + 1, sizeof *ce->frames) < 0)
		return -1;
	f = &ce->frames[(*nf)++];
	f->kind = n->kind;
	f->run = n->run;
	f->in = n->in;
	f->off = n->off;
	if (n->kind == RUN) {
		f->k = f->j = 0;
		f->cycle = 0;
		f->st[0] = n->in;
		f->offs[0] = (uint8_t)n->off;
		return 0;
	}
	struct dcfg_text *t = dcfg_text_new(&ce->arena);
	if (t == NULL)
		return -1;
	dcfg_bitw_start(&f->w, t, n->off);
	f->s = n->in;
	f->i = ce->c->runs[n->run].begin;
	f->ri = n->run + 1;
	return 0;
}

/*
 * Writes what N names, and what that needs first. An explicit stack, not
 * recursion: a run waits for its period's copies, a period for its
 * nested runs, two frames a level of nesting.
 */
static const struct memo *
solve(struct dcfg_chunkenc *ce, const struct need *n)
{
	struct need want;
	size_t nf = 0;

	if (push(ce, &nf, n) < 0)
		return NULL;
	while (nf > 0) {
		struct frame *f = &ce->frames[nf - 1];
		int rc = f->kind == RUN ? step_run(ce, f, &want) : step_period(ce, f, &want);
		if (rc == FAIL || (rc == NEED && push(ce, &nf, &want) < 0))
			return NULL;
		if (rc == DONE)
			nf--;
	}
	return memo_find(ce, n->run, n->kind, &n->in, n->off);
}

const struct dcfg_text *
dcfg_chunk_encode(struct dcfg_chunkenc *ce, const struct dcfg_chunk_lines *c,
    const struct dcfg_transitions *t)
{
	struct state s = { 0 };
	struct dcfg_bitw w;
	size_t i = 0, ri = 0;
	unsigned skip = 0;

	dcfg_text_arena_free(&ce->arena);
	if (c->n_runs > ce->cap_memo) {
		struct memos *m = realloc(ce->memo, c->n_runs * sizeof *m);
		if (m == NULL)
			return NULL;
		for (i = ce->cap_memo; i < c->n_runs; i++)
			m[i] = (struct memos){ 0 };
		ce->memo = m;
		ce->cap_memo = c->n_runs;
	}
	for (i = 0; i < c->n_runs; i++)
		ce->memo[i].n = 0;
	ce->c = c;
	ce->t = t;
	dcfg_bitw_start(&w, &ce->top, 0);
	for (i = 0; i < c->n;) {
		size_t limit = ri < c->n_runs ? c->runs[ri].begin : c->n;
		const struct memo *m;
		if (code_edges(t, c->edges, i, limit, &s, &w) < 0)
			return NULL;
		if ((i = limit) == c->n)
			break;
		if ((m = solve(ce, &(struct need){ RUN, ri, s, w.nacc })) == NULL ||
		    dcfg_bitw_put_piece(&w, &m->piece, &skip) < 0)
			return NULL;
		s = m->out;
		i = c->runs[ri].end;
		ri = c->runs[ri].after;
	}
	return dcfg_bitw_flush(&w) < 0 ? NULL : &ce->top;
}
