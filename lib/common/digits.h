/*
 * Decimal numbers written in place: the length first, then the digits
 * from the last, two at a time, straight into the caller's buffer. The
 * writers of every text output use it (output.c, expand/idlines.c):
 * formatting into a temporary and copying it out cost a call to memcpy
 * of an unknown length a number, the most of dcfg-expand's time (issue 25).
 */
#ifndef DCFG_DIGITS_H
#define DCFG_DIGITS_H

#include <stdint.h>
#include <string.h>

#define DCFG_DIGITS_U32_MAX 10   /* 4294967295 */
#define DCFG_DIGITS_U64_MAX 20   /* 18446744073709551615 */

static const char dcfg_digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline unsigned
dcfg_digits_u32(uint32_t v)
{
	/* compares without branches: ids of mixed lengths cost no mispredictions */
	return 1u + (v >= 10) + (v >= 100) + (v >= 1000) + (v >= 10000) + (v >= 100000) +
	    (v >= 1000000) + (v >= 10000000) + (v >= 100000000) + (v >= 1000000000);
}

static inline unsigned
dcfg_digits_u64(uint64_t v)
{
	unsigned n = 0;

	while (v > UINT32_MAX) {
		v /= 100000000;
		n += 8;
	}
	return n + dcfg_digits_u32((uint32_t)v);
}

/* The digits of V, ending just before END, which dcfg_digits_u32 counted. */
static inline void
dcfg_put_u32(char *end, uint32_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, dcfg_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(end - 2, dcfg_digit_pairs + 2 * v, 2);
	else
		end[-1] = (char)('0' + v);
}

static inline void
dcfg_put_u64(char *end, uint64_t v)
{
	while (v > UINT32_MAX) {
		end -= 2;
		memcpy(end, dcfg_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	dcfg_put_u32(end, (uint32_t)v);
}

#endif
