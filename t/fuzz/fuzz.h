/*
 * What the fuzz targets share. The library reads files by name, so each
 * input is put in an anonymous memory file and named /proc/self/fd/N:
 * the targets then go through exactly the code the commands use.
 */
#ifndef DCFG_FUZZ_H
#define DCFG_FUZZ_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dcfg/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file name, valid until the next call. */
static inline const char *
fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t done = 0;
	ssize_t n;

	if (fd < 0) {
		if ((fd = memfd_create("fuzz-input", 0)) < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0)
		abort();
	while (done < size) {
		if ((n = pwrite(fd, data + done, size - done, (off_t)done)) <= 0)
			abort();
		done += (size_t)n;
	}
	return path;
}

#ifndef FUZZ_DATA
#define FUZZ_DATA "t/data"
#endif

/*
 * The bundled sample's DCFG, loaded once: the stages of the stream target
 * and the trace target's plans with --align read the fuzzed input against
 * it, and the seeds hold its edge ids and process.
 */
static inline const struct dcfg *
fuzz_sample_dcfg(void)
{
	static struct dcfg *d;
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL };
	struct dcfg_error err;

	if (d == NULL && (d = dcfg_load(FUZZ_DATA "/sample/prog.dcfg.json.gz", &lo, &err)) == NULL) {
		fprintf(stderr, "fuzz: %s: %s\n", err.file, err.message);
		abort();
	}
	return d;
}

#endif
