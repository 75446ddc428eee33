/*
 * Modified Base64 text with "(M*...)" repeats (spec 3.7.1), built from
 * bits: the EDGE_ID_SEQUENCE of a chunk whose edges hold runs.
 *
 * A text is characters with repeats standing between them, a repeat's
 * body a text of its own. A repeat's body is whole characters and starts
 * on a character boundary, so a bit writer puts one only when no bits
 * wait for their character.
 *
 * A piece is the bits of one stretch (a period's copy, a run), written
 * knowing only how many bits (0 to 5) wait before it: its head completes
 * the waiting character, its middle is whole characters and repeats, its
 * tail is the bits left for the next character. A piece written once is
 * put wherever the same stretch comes at the same offset.
 */
#ifndef DCFG_REPTEXT_H
#define DCFG_REPTEXT_H

#include <stddef.h>
#include <stdint.h>

struct dcfg_text;

struct dcfg_text_rep {
	size_t pos;                      /* stands before chars[pos] */
	uint64_t count;                  /* >= 2 */
	const struct dcfg_text *body;    /* whole characters, not empty */
};

struct dcfg_text {
	char *chars;                     size_t n_chars, cap_chars;
	struct dcfg_text_rep *reps;      size_t n_reps, cap_reps;   /* by pos */
	struct dcfg_text *next;          /* the arena's list */
};

/* Texts made for one chunk, freed together. */
struct dcfg_text_arena {
	struct dcfg_text *all;
};

struct dcfg_text *dcfg_text_new(struct dcfg_text_arena *a);
void dcfg_text_arena_free(struct dcfg_text_arena *a);

/* A stretch of bits: see above. */
struct dcfg_piece {
	const struct dcfg_text *mid;     /* NULL when none */
	uint8_t off;                     /* bits waiting before it, 0 to 5 */
	uint8_t head, head_len;          /* (6 - off) % 6 bits, or all of a shorter piece */
	uint8_t tail, tail_len;
	uint8_t complete;                /* the head completed the waiting character */
};

/* Bits waiting after the piece, 0 to 5. */
unsigned dcfg_piece_end(const struct dcfg_piece *p);
/* The piece holds no bits. */
int dcfg_piece_empty(const struct dcfg_piece *p);

struct dcfg_bitw {
	struct dcfg_text *t;
	uint64_t acc;
	unsigned nacc;                   /* bits waiting, 0 to 5 between calls */
	unsigned off;                    /* nacc at the start */
	int capture;                     /* the next character is the head, not text */
	unsigned head;
};

/* Starts writing into T (emptied) after OFF waiting bits. */
void dcfg_bitw_start(struct dcfg_bitw *w, struct dcfg_text *t, unsigned off);
/* Room for BITS more bits of dcfg_bitw_put. -1: out of memory. */
int dcfg_bitw_reserve(struct dcfg_bitw *w, uint64_t bits);

static const char dcfg_b64_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* Appends LEN (0 to 32) bits, the low bits of BITS, in room reserved. */
static inline void
dcfg_bitw_put(struct dcfg_bitw *w, uint32_t bits, unsigned len)
{
	if (len == 0)
		return;
	w->acc = w->acc << len | bits;
	w->nacc += len;
	while (w->nacc >= 6) {
		unsigned c;
		w->nacc -= 6;
		c = (unsigned)(w->acc >> w->nacc) & 63;
		if (w->capture) {
			w->head = c;
			w->capture = 0;
		} else {
			w->t->chars[w->t->n_chars++] = dcfg_b64_chars[c];
		}
	}
}

/*
 * Appends P, written for the bits now waiting. With *SKIP > 0 the first
 * *SKIP bits of the stretch P starts or continues were put already (a
 * repeat's rotation): P's head is left out and *SKIP lessened. -1: out of
 * memory.
 */
int dcfg_bitw_put_piece(struct dcfg_bitw *w, const struct dcfg_piece *p, unsigned *skip);
/* Appends BODY COUNT times; no bits may be waiting. -1: out of memory. */
int dcfg_bitw_put_rep(struct dcfg_bitw *w, const struct dcfg_text *body, uint64_t count);
/* What was written, as a piece (its middle the writer's text, or NULL). */
void dcfg_bitw_piece(const struct dcfg_bitw *w, struct dcfg_piece *p);
/* Ends the text: waiting bits padded with zeros to a character. -1: out of memory. */
int dcfg_bitw_flush(struct dcfg_bitw *w);

/* What dcfg_text_walk calls, in the order of the text. */
struct dcfg_text_visitor {
	int (*chars)(void *ctx, const char *s, size_t len);   /* -1 stops the walk */
	void (*open)(void *ctx, uint64_t count);
	void (*close)(void *ctx);
};

/* Walks T, bodies once per repeat. 0, or -1 (out of memory, or a visitor's -1). */
int dcfg_text_walk(const struct dcfg_text *t, const struct dcfg_text_visitor *v, void *ctx);

#endif
