/* Huffman code lengths limited to a maximum, and canonical codes from them. */
#ifndef DCFG_HUFFMAN_H
#define DCFG_HUFFMAN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Code lengths for N symbols of frequencies FREQ (N >= 2), none longer
 * than MAX_LEN: when the optimal code is too deep, the frequencies are
 * flattened (halved, kept above zero) until it fits. SCRATCH holds 4N
 * entries. -1 when MAX_LEN cannot hold N codes.
 */
int dcfg_huffman_lengths(const uint64_t *freq, size_t n, unsigned max_len,
    uint8_t *len, uint64_t *scratch);

/*
 * Canonical codes, left-aligned in 32 bits, for lengths LEN taken in the
 * order ORDER (by length, then by a tie-breaker the caller chose).
 */
void dcfg_huffman_codes(const uint8_t *len, const size_t *order, size_t n,
    uint32_t *code);

#endif
