/*
 * Structure-aware mutation for the libFuzzer targets (LLVMFuzzerCustomMutator).
 * Byte mutation alone rarely turns a valid trace into another valid trace
 * of a new shape; these moves edit what the formats are made of: JSON
 * numbers (to the boundaries 0, 1, 0x7fffffff, 2^32, 2^62, ...) and
 * strings, table rows and columns, dictionary entries (empty values,
 * chains of references, cycles) and sequence strings (repeats, references,
 * invalid characters). One move in a few is libFuzzer's own byte mutation
 * (LLVMFuzzerMutate, with the -dict tokens). Deterministic for a seed.
 *
 * Linked only into the libFuzzer builds (make fuzz); the replaying builds
 * of t/fuzz.bats do not need it. fuzz-mutate (t/fuzz/mutate-main.c) runs
 * the moves outside libFuzzer, for the tests.
 */
#ifndef FUZZ_MUTATE_H
#define FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

enum fuzz_shape {
	FUZZ_TRACE,      /* a DCFG-trace: sequences and dictionaries weigh most */
	FUZZ_DCFG        /* a DCFG: numbers, rows, columns and keys */
};

/* libFuzzer's own mutation (or a stand-in, in fuzz-mutate). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

/* One move on the JSON in DATA (SIZE bytes, room for MAX): the new size. */
size_t fuzz_mutate_json(uint8_t *data, size_t size, size_t max, unsigned int seed,
    enum fuzz_shape shape);

/* One move on a fuzz-sequence input ("#COUNT FIRST", KEY=VALUE lines, the sequence). */
size_t fuzz_mutate_sequence(uint8_t *data, size_t size, size_t max, unsigned int seed);

/* One move on line-oriented text (the regions target's files, joined by "%%" lines). */
size_t fuzz_mutate_lines(uint8_t *data, size_t size, size_t max, unsigned int seed);

/* The name of the last move made, for fuzz-mutate. */
const char *fuzz_mutate_last(void);

#endif
