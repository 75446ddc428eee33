/*
 * Decoding one chunk of a DCFG-trace (spec 3.7): the EDGE_ID_SEQUENCE
 * string is expanded lazily (modified Base64, nested "(M*...)" repeats,
 * nested "<key>" dictionary references) with an explicit stack, never
 * materialised and never recursed on; its bits select transitions in the
 * process's table. Only what EDGE_COUNT needs is read, so errors after the
 * last needed bit are never seen and a huge repeat costs nothing unread.
 */
#ifndef DCFG_SEQUENCE_H
#define DCFG_SEQUENCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ttable.h"

/* A string checked once for syntax: reading stops with WHY at BAD. */
struct dcfg_seqstr {
	const char *s;
	uint32_t len;
	uint32_t bad;            /* first position that cannot be read, or len */
	const char *why;         /* what is wrong there (or with an unclosed '('); NULL: */
	char bad_char;           /* ... the invalid character */
	uint32_t pairs, n_pairs; /* its '(' ')' positions, in the owner's pairs[] */
};

struct dcfg_dict_entry {
	uint32_t key, key_len;   /* in pool */
	uint32_t value, value_len;
	struct dcfg_seqstr str;
	int active;              /* being expanded: a reference to it is circular */
};

/* A process's STRING_DICTIONARY (spec 3.4). */
struct dcfg_dict {
	char *pool;                       size_t n_pool, cap_pool;
	struct dcfg_dict_entry *entries;  size_t n, cap;
	uint32_t *pairs;                  size_t n_pairs, cap_pairs;
	uint32_t *hash;                   size_t hash_size;
	uint32_t *stack;                  size_t cap_stack;   /* scratch for checking */
};

void dcfg_dict_init(struct dcfg_dict *d);
void dcfg_dict_reset(struct dcfg_dict *d);
void dcfg_dict_free(struct dcfg_dict *d);
/* -1 with *why set for a key with characters outside the Base64 set. */
int dcfg_dict_add(struct dcfg_dict *d, const char *key, size_t key_len,
    const char *value, size_t len, const char **why);
/* Indexes the keys and checks the values. -1 with *why (duplicate key, memory). */
int dcfg_dict_finish(struct dcfg_dict *d, const char **why, const char **key);

struct dcfg_xframe;

struct dcfg_decoder {
	const struct dcfg_ttable *table;
	struct dcfg_dict *dict;

	struct dcfg_seqstr seq;           /* the chunk's own string */
	uint32_t *pairs;                  size_t n_pairs, cap_pairs;
	uint32_t *stack;                  size_t cap_stack;
	struct dcfg_xframe *frames;       size_t n_frames, cap_frames;

	uint64_t acc;                     /* bits not yet used, the last nbits of acc */
	unsigned nbits;
	int ended;                        /* the string has no more bits */
	const char *late_error;           /* why it ended early, raised only if bits are needed */
	uint64_t symbols;                 /* Base64 characters read so far */

	uint32_t first;
	uint64_t total;                   /* EDGE_COUNT */
	uint64_t remaining;               /* edges still to produce */
	uint64_t emitted;                 /* edges produced: the index of the next one */
	uint32_t state;
	const uint32_t *group;            /* the rest of a NEXT_EDGE_IDS group */
	uint32_t group_left;
	int started;

	char error[160];
};

void dcfg_decoder_init(struct dcfg_decoder *dec);
void dcfg_decoder_free(struct dcfg_decoder *dec);

/* Starts a chunk. SEQ must stay valid while the chunk is decoded. -1: out of memory. */
int dcfg_decoder_start(struct dcfg_decoder *dec, const struct dcfg_ttable *table,
    struct dcfg_dict *dict, uint32_t first_edge, uint64_t edge_count,
    const char *seq, size_t len);

/*
 * Produces up to MAX more edge ids of the chunk into IDS. Returns how
 * many (0 when the chunk is complete), or -1 with dec->error set; the
 * index of the failing edge is dec->emitted.
 */
ssize_t dcfg_decoder_next(struct dcfg_decoder *dec, uint32_t *restrict ids, size_t max);

#endif
