/*
 * Shortening a chunk's Base64 string (spec 3.7.1): references to a
 * per-process STRING_DICTIONARY of substrings that recur across chunks
 * and threads, then "(M*...)" for consecutive repeats.
 */
#ifndef DCFG_COMPRESS_H
#define DCFG_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "common/output.h"

#define DCFG_DICT_VALUE 24      /* characters of a dictionary value */

struct dcfg_dictionary {
	/* measuring: counts of aligned substrings, a bounded table */
	uint64_t *cand_hash;
	uint32_t *cand_count;
	char *cand_text;
	uint32_t *cand_slots;      /* 2 x cap_cand: index + 1, 0 empty */
	size_t n_cand, cap_cand;   /* the table grows with use, to MAX_CANDIDATES */
	/* chosen values, DCFG_DICT_VALUE characters each */
	char *values;
	size_t n_values;
	uint32_t *slots;           /* hash of a value -> index + 1 */
	size_t n_slots;
};

void dcfg_dictionary_free(struct dcfg_dictionary *d);
/* Counts the substrings of S that could become values. -1: out of memory. */
int dcfg_dictionary_measure(struct dcfg_dictionary *d, const char *s, size_t len);
/* Keeps the substrings that pay for their key and drops the counts. */
int dcfg_dictionary_choose(struct dcfg_dictionary *d);
/* Writes the dictionary as a JSON object. */
void dcfg_dictionary_write(struct dcfg_output *out, const struct dcfg_dictionary *d);

/*
 * Writes S (LEN Base64 characters) shortened, without quotes. TOKENS has
 * room for LEN entries.
 */
void dcfg_compress(struct dcfg_output *out, const struct dcfg_dictionary *d,
    const char *s, size_t len, uint32_t *tokens);

#endif
