/*
 * fuzz-mutate: the structure-aware moves (mutate.h) outside libFuzzer, for
 * the tests.
 *
 *   fuzz-mutate trace|dcfg|sequence|lines FILE FIRST COUNT DIR
 *
 * applies one move with each seed FIRST .. FIRST+COUNT-1 to FILE, writes
 * the result to DIR/SEED and prints "SEED MOVE" for each. libFuzzer's byte
 * mutation is stood in for by a flip of one byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutate.h"

#define MAX_SIZE 65536

static unsigned long flips;

size_t
LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max)
{
	if (size == 0)
		return max > 0 ? (data[0] = 'A', 1) : 0;
	data[flips++ % size] ^= 0x20;
	return size;
}

int
main(int argc, char **argv)
{
	static uint8_t orig[MAX_SIZE], buf[MAX_SIZE];
	unsigned long first, count, i;
	size_t size, n;
	char path[4096];
	FILE *f;

	if (argc != 6 || (strcmp(argv[1], "trace") && strcmp(argv[1], "dcfg") &&
	    strcmp(argv[1], "sequence") && strcmp(argv[1], "lines"))) {
		fprintf(stderr, "usage: fuzz-mutate trace|dcfg|sequence|lines FILE FIRST COUNT DIR\n");
		return 2;
	}
	if ((f = fopen(argv[2], "rb")) == NULL) {
		fprintf(stderr, "fuzz-mutate: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	size = fread(orig, 1, sizeof orig, f);
	fclose(f);
	first = strtoul(argv[3], NULL, 10);
	count = strtoul(argv[4], NULL, 10);
	for (i = first; i < first + count; i++) {
		memcpy(buf, orig, size);
		if (argv[1][0] == 's')
			n = fuzz_mutate_sequence(buf, size, sizeof buf, (unsigned)i);
		else if (argv[1][0] == 'l')
			n = fuzz_mutate_lines(buf, size, sizeof buf, (unsigned)i);
		else
			n = fuzz_mutate_json(buf, size, sizeof buf, (unsigned)i,
			    argv[1][0] == 't' ? FUZZ_TRACE : FUZZ_DCFG);
		snprintf(path, sizeof path, "%s/%lu", argv[5], i);
		if ((f = fopen(path, "wb")) == NULL || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
			fprintf(stderr, "fuzz-mutate: %s: %s\n", path, strerror(errno));
			return 2;
		}
		printf("%lu %s\n", i, fuzz_mutate_last());
	}
	return 0;
}
