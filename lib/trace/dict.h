/*
 * EDGE_ID_SEQUENCE strings (spec 3.7.1) and the STRING_DICTIONARY they
 * refer to (spec 3.4), checked in full once and compiled for the lazy
 * expander in sequence.c.
 *
 * A string is checked in one linear scan: modified Base64, "(M*...)"
 * repeats with balanced parentheses and a count that fits 64 bits, and
 * "<key>" references to keys the dictionary has. A dictionary is checked
 * when it has been read: every value so, and no key reaches itself through
 * references. A malformed string is an error wherever the fault sits, even
 * after the last bit a chunk needs.
 *
 * Compiling records what expanding needs so that its work is linear in
 * the characters it yields: every stretch that yields nothing (a reference
 * to an empty value, a repeat of count 0 or of an empty body, the "(1*" and
 * ")" of a single pass) is one jump; a reference to a key whose value is
 * only a reference goes straight to the last key of the chain.
 *
 * Strings that double are folded into one repeat, so that the decoder's
 * period search (sequence.h), which watches the copies of one repeat,
 * sees them: consecutive references to one key ("<k><k>") are one
 * reference with a count, a repeat whose body is only a repeat
 * ("(2*(3*X))") is one repeat with the product of the counts, a repeat
 * whose body is only a reference ("(2*<k>)") is a reference with a count,
 * and a key whose value is N references to a key counts as N references
 * to that key. So "k_i": "<k_(i-1)><k_(i-1)>", 62 times, is 2^62 passes
 * over k_0's value, compiled in time linear in the dictionary. Folding
 * rather than watching the decoder's state across references keeps the
 * period search to one kind of place (a repeat's copy) and the folded
 * form is found once per dictionary, not per chunk. A count that would
 * pass 2^64 - 1 is not folded further: it nests as written.
 */
#ifndef DCFG_DICT_H
#define DCFG_DICT_H

#include <stddef.h>
#include <stdint.h>

#define DCFG_SEQ_NONE UINT32_MAX

/* Modified Base64 (spec 3.7.1.1): each character's value plus one, 0 for any other. */
extern const signed char dcfg_b64[256];
#define DCFG_B64(c) (dcfg_b64[(unsigned char)(c)] - 1)

enum dcfg_seqitem_kind {
	DCFG_SEQ_SKIP,      /* yields nothing: go on at `to` */
	DCFG_SEQ_REF,       /* expand `entry` `count` times, then go on at `to` */
	DCFG_SEQ_REPEAT     /* `count` passes over [body, to); go on at to + 1, item `after` */
};

/*
 * What a string holds at a position that is not a Base64 character. A
 * string's items are sorted by position, so a reader keeps its place in
 * them by an index that only moves forward within a pass.
 */
struct dcfg_seqitem {
	uint64_t count;     /* REPEAT: the passes, at least 2; REF: at least 1 */
	uint32_t pos;       /* where the item starts */
	uint32_t to;        /* SKIP, REF: where reading goes on; REPEAT: its ')' */
	uint32_t body;      /* REPEAT: its first body character */
	uint32_t link;      /* REF: the dictionary entry; REPEAT: the first item after it */
	uint8_t kind;
};

/* A compiled string: its characters and its items in the owner's array. */
struct dcfg_seqstr {
	const char *s;
	uint32_t len;
	uint32_t items, n_items;
	int empty;          /* it expands to no characters at all */
	uint32_t alias;     /* the entry it is exactly alias_count references to, or NONE */
	uint64_t alias_count;
};

/* A malformed string: what is wrong, and where (a 0-based character offset). */
struct dcfg_seqerr {
	uint32_t at;        /* DCFG_SEQ_NONE: not at a character (out of memory) */
	char msg[200];
};

/* Compiled items, and the scratch space compiling uses. */
struct dcfg_seqbuf {
	struct dcfg_seqitem *items;  size_t n_items, cap_items;
	struct dcfg_seqpair *pairs;  size_t cap_pairs;
	uint32_t *stack;             size_t cap_stack;
};

struct dcfg_dict_entry {
	uint32_t key, key_len;       /* in pool */
	uint32_t value, value_len;
	uint32_t refs, n_refs;       /* the references of its value, in refs[] */
	struct dcfg_seqstr str;
};

/* A process's STRING_DICTIONARY. */
struct dcfg_dict {
	char *pool;                       size_t n_pool, cap_pool;
	struct dcfg_dict_entry *entries;  size_t n, cap;
	struct dcfg_dict_ref *refs;       size_t n_refs, cap_refs;
	uint32_t *hash;                   size_t hash_size;
	struct dcfg_seqbuf buf;           /* every value's items */
	uint32_t *walk;                   size_t cap_walk;    /* scratch for the cycle search */
	uint8_t *state;                   size_t cap_state;
};

void dcfg_seqbuf_free(struct dcfg_seqbuf *b);

/*
 * Checks S (LEN characters, which must stay valid) and compiles it into
 * B, after what B already holds; D is a finished dictionary, or NULL for
 * none. 0, or -1 with ERR set.
 */
int dcfg_seq_compile(struct dcfg_seqbuf *b, const struct dcfg_dict *d,
    struct dcfg_seqstr *str, const char *s, size_t len, struct dcfg_seqerr *err);

void dcfg_dict_init(struct dcfg_dict *d);
void dcfg_dict_reset(struct dcfg_dict *d);   /* empty, keeping memory */
void dcfg_dict_free(struct dcfg_dict *d);

/* -1 with *why set for a key with characters outside the Base64 set. */
int dcfg_dict_add(struct dcfg_dict *d, const char *key, size_t key_len,
    const char *value, size_t len, const char **why);

/*
 * Indexes the keys, checks and compiles every value, and refuses circular
 * references. 0, or -1 with ERR set and *ENTRY the index (in the order of
 * dcfg_dict_add) of the entry whose value is at fault; ERR->at is an
 * offset in that value.
 */
int dcfg_dict_finish(struct dcfg_dict *d, struct dcfg_seqerr *err, size_t *entry);

/* The entry with KEY, or DCFG_SEQ_NONE. */
uint32_t dcfg_dict_find(const struct dcfg_dict *d, const char *key, size_t len);

#endif
