/*
 * A fuzz target without libFuzzer: runs each file named on the command
 * line through LLVMFuzzerTestOneInput, so the regression inputs and seeds
 * replay in the ordinary and sanitizer builds of `make test`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, r;
		if (f == NULL) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap && (buf = realloc(buf, cap = cap ? 2 * cap : 65536)) == NULL)
				return 2;
			r = fread(buf + n, 1, cap - n, f);
			n += r;
		} while (r > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
