/*
 * The dictionary and repeat expander alone: the input is split at '\n'
 * into KEY=VALUE dictionary entries and, last, the sequence; a fixed
 * transition table of three edges turns the bits into edge ids.
 */
#include "fuzz.h"

#include <string.h>

#include "sequence.h"
#include "ttable.h"

#define MAX_EDGES 100000

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t next1[] = { 2, 3 }, next2[] = { 1 }, next3[] = { 1, 2, 3 };
	static const char *codes3[] = { "00", "01", "1" };
	const char *s = (const char *)data, *end = s + size, *nl, *eq, *why, *key;
	struct dcfg_ttable t;
	struct dcfg_dict dict;
	struct dcfg_decoder dec;
	char msg[256];
	uint32_t ids[512];
	uint64_t count = 0, total;
	ssize_t n;
	int k, ok = 1;

	dcfg_ttable_init(&t);
	dcfg_dict_init(&dict);
	dcfg_decoder_init(&dec);
	/* 1 -> {2, 3} by one bit, 2 -> 1 by no bit, 3 -> {1, 2, 3} by a prefix code */
	ok = dcfg_ttable_add(&t, 1, "0", 1, &next1[0], 1, &why) == 0 &&
	    dcfg_ttable_add(&t, 1, "1", 1, &next1[1], 1, &why) == 0 &&
	    dcfg_ttable_add(&t, 2, "", 0, next2, 1, &why) == 0;
	for (k = 0; k < 3 && ok; k++)
		ok = dcfg_ttable_add(&t, 3, codes3[k], strlen(codes3[k]), &next3[k], 1, &why) == 0;
	if (!ok || dcfg_ttable_finish(&t, msg, sizeof msg) < 0)
		abort();   /* the table is fixed: it must be valid */

	while ((nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		if ((eq = memchr(s, '=', (size_t)(nl - s))) != NULL &&
		    dcfg_dict_add(&dict, s, (size_t)(eq - s), eq + 1, (size_t)(nl - eq - 1), &why) < 0)
			goto out;
		s = nl + 1;
	}
	if (dcfg_dict_finish(&dict, &why, &key) < 0)
		goto out;
	/* The first byte chooses EDGE_COUNT, from 0 up to far more than the string holds. */
	total = size ? ((uint64_t)1 << (data[0] % 40)) : 0;
	if (dcfg_decoder_start(&dec, &t, &dict, 1 + (size > 1 ? data[1] % 3 : 0), total,
	    s, (size_t)(end - s)) < 0)
		goto out;
	while ((n = dcfg_decoder_next(&dec, ids, sizeof ids / sizeof ids[0])) > 0)
		if ((count += (uint64_t)n) > MAX_EDGES)
			break;
out:
	dcfg_decoder_free(&dec);
	dcfg_dict_free(&dict);
	dcfg_ttable_free(&t);
	return 0;
}
