/*
 * What the JSON moves (mutate.c) and the sequence-input moves share: the
 * random numbers, the boundary values, edits of a sequence string, and
 * new dictionary entries (an empty value, a chain of references, a cycle).
 */
#ifndef FUZZ_MUTATE_TEXT_H
#define FUZZ_MUTATE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define FZ_MAX_KEYS 256

/* Dictionary keys a new reference may name. */
struct fz_keys {
	const char *s[FZ_MAX_KEYS];
	size_t len[FZ_MAX_KEYS];
	size_t n;
};

void fz_seed(unsigned int seed);
uint64_t fz_rand(void);
size_t fz_below(size_t n);          /* 0 .. n-1; 0 for n 0 */
void fz_moved(const char *name);

/* An integer at a boundary, as JSON: 0, 1, 0x7fffffff, 2^32, 2^62, 2^64 - 1, huge... */
const char *fz_number(void);

/*
 * S (LEN bytes) with one edit: a repeat "(M*...)" around a part, a
 * reference "<key>" (one of KEYS or a new one), an invalid character, new
 * Base64, a part deleted or repeated, a fault appended after the last
 * bit. JSON: only characters a JSON string may hold. OUT gets the text,
 * NUL-terminated: its length, or -1 when it does not fit CAP.
 */
int fz_seq_edit(const char *s, size_t len, char *out, size_t cap, int json,
    const struct fz_keys *keys);

/*
 * New dictionary entries in ENTRIES (JSON: "K": "V" pairs joined by ", ";
 * else K=V lines), and in REF a reference that makes a sequence read them
 * ("" when none): an empty value, a chain of up to 64 keys each doubling
 * the one before (over "" it expands to nothing, 2^64 times), a cycle, or
 * a key that is not there.
 */
void fz_entries(char *entries, size_t cap, char *ref, size_t ref_cap, int json);

#endif
