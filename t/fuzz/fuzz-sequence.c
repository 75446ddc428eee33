/*
 * The dictionary and repeat expander alone, checked against a second
 * reading of the spec (seqref.h). The input is an optional first line
 * "#EDGE_COUNT FIRST_EDGE", then KEY=VALUE dictionary entries, one a line,
 * and, last, the sequence; a fixed transition table of three edges turns
 * the bits into edge ids. Without the first line, the first byte chooses
 * EDGE_COUNT and the second the first edge (the older inputs).
 *
 * It aborts, as a finding, when the library accepts a string that is
 * malformed under any reading of the spec (even after the last bit
 * EDGE_COUNT needs), or decodes a strictly well-formed one to other edges
 * than the oracle, or fails when the oracle finds the bits enough.
 */
#include "fuzz.h"

#include <string.h>

#include "trace/sequence.h"
#include "trace/ttable.h"
#include "seqref.h"

#define MAX_EDGES 4096   /* enough for every shape of the expander; more only slows the search */

static uint32_t got[MAX_EDGES + 512], want[MAX_EDGES];

/* "#COUNT FIRST\n": EDGE_COUNT (saturated) and the first edge; the input after it. */
static const char *
header(const char *s, const char *end, uint64_t *total, uint32_t *first)
{
	uint64_t v[2] = { 0, 1 };
	int k = 0;

	for (s++; s < end && *s != '\n'; s++) {
		if (*s == ' ' && k == 0)
			k = 1, v[1] = 0;
		else if (*s >= '0' && *s <= '9')
			v[k] = v[k] > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v[k] * 10 + (uint64_t)(*s - '0');
	}
	*total = v[0];
	*first = (uint32_t)(1 + (v[1] + 2) % 3);
	return s < end ? s + 1 : end;
}

/*
 * With FUZZ_SEQUENCE_SHOW set, what the library and the oracle made of the
 * input, for the tests: "library" and its edges or "error", "malformed"
 * and "strict" (0 or 1), and for a strictly well-formed input "oracle" and
 * its edges, "ran-out" when the bits ran out, or "gave-up".
 */
static void
show(ssize_t n, uint64_t count, uint64_t total, int malformed, int strict_ok, long m)
{
	uint64_t i;

	printf("library");
	for (i = 0; n == 0 && i < count; i++)
		printf(" %u", got[i]);
	printf("%s\nmalformed %d\nstrict %d\n", n == 0 ? "" : " error", malformed, strict_ok);
	if (!strict_ok)
		return;
	printf("oracle");
	for (i = 0; m > 0 && i < (uint64_t)m; i++)
		printf(" %u", want[i]);
	printf("%s\n", m < 0 ? " gave-up" : (uint64_t)m < total ? " ran-out" : "");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t next1[] = { 2, 3 }, next2[] = { 1 }, next3[] = { 1, 2, 3 };
	static const char *codes3[] = { "00", "01", "1" };
	const char *s = (const char *)data, *end = s + size, *nl, *eq, *why;
	struct seqref_entry *ref = NULL;
	struct dcfg_seqerr err;
	size_t at, n_ref = 0, i;
	struct dcfg_ttable t;
	struct dcfg_dict dict;
	struct dcfg_decoder dec;
	char msg[256];
	uint64_t count = 0, total;
	uint32_t first;
	ssize_t n = -1;
	long m;
	int k, ok = 1, malformed, strict_ok;

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

	if (size > 0 && data[0] == '#') {
		s = header(s, end, &total, &first);
	} else {
		/* EDGE_COUNT from 0 up to far more than the string holds */
		total = size ? ((uint64_t)1 << (data[0] % 40)) : 0;
		first = 1 + (size > 1 ? data[1] % 3 : 0);
	}
	if ((ref = malloc((size / 2 + 1) * sizeof *ref)) == NULL)
		abort();
	while ((nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		if ((eq = memchr(s, '=', (size_t)(nl - s))) != NULL) {
			if (dcfg_dict_add(&dict, s, (size_t)(eq - s), eq + 1, (size_t)(nl - eq - 1), &why) < 0)
				goto out;   /* a key the library refuses: nothing to compare */
			ref[n_ref++] = (struct seqref_entry){ s, eq + 1, (size_t)(eq - s),
			    (size_t)(nl - eq - 1) };
		}
		s = nl + 1;
	}
	if (dcfg_dict_finish(&dict, &err, &at) == 0 &&
	    dcfg_decoder_start(&dec, &t, &dict, first, total, s, (size_t)(end - s)) == 0)
		while ((n = dcfg_decoder_next(&dec, got + count, 512)) > 0)
			if ((count += (uint64_t)n) > MAX_EDGES)
				goto out;   /* not decoded to the end: nothing to compare */

	seqref_sort(ref, n_ref);
	if (seqref_check(ref, n_ref, s, (size_t)(end - s), &malformed, &strict_ok) < 0)
		abort();
	for (i = 1; i < n_ref && strict_ok; i++)
		if (seqref_cmp(&ref[i - 1], &ref[i]) == 0)
			strict_ok = 0;   /* a key given twice (spec 1.2.4) */
	m = strict_ok && total <= MAX_EDGES ?
	    seqref_decode(ref, n_ref, s, (size_t)(end - s), first, total, want) : -1;
	if (getenv("FUZZ_SEQUENCE_SHOW"))
		show(n, count, total, malformed, strict_ok, m);
	if (n == 0 && malformed) {
		fprintf(stderr, "fuzz-sequence: a malformed sequence decoded without an error\n");
		abort();
	}
	/* the library must fail exactly when the bits run out, and agree on the edges */
	if (n == 0 && m >= 0 && ((uint64_t)m < total || memcmp(got, want, total * sizeof *got))) {
		fprintf(stderr, "fuzz-sequence: decoded other edges than the spec's\n");
		abort();
	}
	if (n < 0 && m >= 0 && (uint64_t)m == total) {
		fprintf(stderr, "fuzz-sequence: failed on a well-formed sequence with enough bits\n");
		abort();
	}
out:
	free(ref);
	dcfg_decoder_free(&dec);
	dcfg_dict_free(&dict);
	dcfg_ttable_free(&t);
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	return fuzz_mutate_sequence(data, size, max, seed);
}
#endif
