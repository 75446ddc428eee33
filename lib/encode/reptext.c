#include "reptext.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

struct dcfg_text *
dcfg_text_new(struct dcfg_text_arena *a)
{
	struct dcfg_text *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	t->next = a->all;
	a->all = t;
	return t;
}

void
dcfg_text_arena_free(struct dcfg_text_arena *a)
{
	struct dcfg_text *t, *next;

	for (t = a->all; t; t = next) {
		next = t->next;
		free(t->chars);
		free(t->reps);
		free(t);
	}
	a->all = NULL;
}

unsigned
dcfg_piece_end(const struct dcfg_piece *p)
{
	return p->complete ? p->tail_len : p->off + p->head_len;
}

int
dcfg_piece_empty(const struct dcfg_piece *p)
{
	return p->head_len == 0 && p->mid == NULL && p->tail_len == 0;
}

void
dcfg_bitw_start(struct dcfg_bitw *w, struct dcfg_text *t, unsigned off)
{
	t->n_chars = 0;
	t->n_reps = 0;
	*w = (struct dcfg_bitw){ .t = t, .nacc = off, .off = off, .capture = off > 0 };
}

int
dcfg_bitw_reserve(struct dcfg_bitw *w, uint64_t bits)
{
	uint64_t need = w->t->n_chars + bits / 6 + 2;

	if (need > SIZE_MAX / 2)
		return -1;
	return dcfg_reserve((void **)&w->t->chars, &w->t->cap_chars, (size_t)need, 1);
}

/* Appends the characters and repeats of M; no bits may be waiting. */
static int
put_text(struct dcfg_bitw *w, const struct dcfg_text *m)
{
	struct dcfg_text *t = w->t;
	size_t base = t->n_chars, i;

	if (dcfg_reserve((void **)&t->chars, &t->cap_chars, t->n_chars + m->n_chars + 2, 1) < 0 ||
	    dcfg_reserve((void **)&t->reps, &t->cap_reps, t->n_reps + m->n_reps, sizeof *t->reps) < 0)
		return -1;
	if (m->n_chars)   /* (memcpy may not be given a null pointer) */
		memcpy(t->chars + base, m->chars, m->n_chars);
	t->n_chars += m->n_chars;
	for (i = 0; i < m->n_reps; i++) {
		t->reps[t->n_reps] = m->reps[i];
		t->reps[t->n_reps++].pos += base;
	}
	return 0;
}

int
dcfg_bitw_put_piece(struct dcfg_bitw *w, const struct dcfg_piece *p, unsigned *skip)
{
	if (dcfg_bitw_reserve(w, 12) < 0)
		return -1;
	if (*skip > 0) {
		/* the pieces of a stretch line up: a complete head is exactly what is left to skip */
		if (!p->complete) {
			*skip -= p->head_len;
			return 0;
		}
		*skip = 0;
	} else {
		dcfg_bitw_put(w, p->head, p->head_len);
		if (!p->complete)
			return 0;
	}
	if (p->mid && put_text(w, p->mid) < 0)
		return -1;
	dcfg_bitw_put(w, p->tail, p->tail_len);
	return 0;
}

int
dcfg_bitw_put_rep(struct dcfg_bitw *w, const struct dcfg_text *body, uint64_t count)
{
	struct dcfg_text *t = w->t;

	if (dcfg_reserve((void **)&t->reps, &t->cap_reps, t->n_reps + 1, sizeof *t->reps) < 0)
		return -1;
	t->reps[t->n_reps++] = (struct dcfg_text_rep){ .pos = t->n_chars, .count = count, .body = body };
	return 0;
}

void
dcfg_bitw_piece(const struct dcfg_bitw *w, struct dcfg_piece *p)
{
	unsigned mask = (1u << w->nacc) - 1;

	*p = (struct dcfg_piece){ .off = (uint8_t)w->off };
	if (w->capture) {   /* the waiting character never filled: all is head */
		p->head_len = (uint8_t)(w->nacc - w->off);
		p->head = (uint8_t)(w->acc & ((1u << p->head_len) - 1));
		return;
	}
	p->complete = 1;
	p->head_len = (uint8_t)((6 - w->off) % 6);
	p->head = (uint8_t)(w->head & ((1u << p->head_len) - 1));
	p->mid = w->t->n_chars || w->t->n_reps ? w->t : NULL;
	p->tail_len = (uint8_t)w->nacc;
	p->tail = (uint8_t)(w->acc & mask);
}

int
dcfg_bitw_flush(struct dcfg_bitw *w)
{
	if (w->nacc == 0)
		return 0;
	if (dcfg_bitw_reserve(w, 6) < 0)
		return -1;
	dcfg_bitw_put(w, 0, 6 - w->nacc);
	return 0;
}

struct walk_frame {
	const struct dcfg_text *t;
	size_t rep, pos;    /* the next repeat and character */
};

int
dcfg_text_walk(const struct dcfg_text *t, const struct dcfg_text_visitor *v, void *ctx)
{
	struct walk_frame *st = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;

	/* an explicit stack: bodies nest as deep as the runs they were made from */
	if (dcfg_reserve((void **)&st, &cap, 1, sizeof *st) < 0)
		return -1;
	st[n++] = (struct walk_frame){ t, 0, 0 };
	while (n > 0) {
		struct walk_frame *f = &st[n - 1];
		size_t upto = f->rep < f->t->n_reps ? f->t->reps[f->rep].pos : f->t->n_chars;
		if (upto > f->pos && v->chars(ctx, f->t->chars + f->pos, upto - f->pos) < 0)
			goto out;
		f->pos = upto;
		if (f->rep == f->t->n_reps) {
			if (--n > 0)
				v->close(ctx);
			continue;
		}
		const struct dcfg_text_rep *r = &f->t->reps[f->rep++];
		v->open(ctx, r->count);
		if (dcfg_reserve((void **)&st, &cap, n + 1, sizeof *st) < 0)
			goto out;
		st[n++] = (struct walk_frame){ r->body, 0, 0 };
	}
	rc = 0;
out:
	free(st);
	return rc;
}
