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

/* An anonymous memory file, its name /proc/self/fd/N put in PATH. */
static inline int
fuzz_memfd(char *path, size_t size)
{
	int fd = memfd_create("fuzz-input", 0);

	if (fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
}

/* FD's contents made DATA's SIZE bytes. */
static inline void
fuzz_fill(int fd, const uint8_t *data, size_t size)
{
	size_t done = 0;
	ssize_t n;

	/* the offset too: an output opened by this name shares it (dcfg_output_descriptor) */
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	while (done < size) {
		if ((n = pwrite(fd, data + done, size - done, (off_t)done)) <= 0)
			abort();
		done += (size_t)n;
	}
}

/* The input as a file name, valid until the next call. */
static inline const char *
fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0)
		fd = fuzz_memfd(path, sizeof path);
	fuzz_fill(fd, data, size);
	return path;
}

/*
 * The targets that read several files at once (the merges of tables and
 * of profile parts, dcfg-regions' profile and its companion files) split
 * their input into files numbered from 0, each put here: one memory file
 * per number, opened once and refilled on each call. Shared here, so that
 * those targets no longer each carry a copy of it.
 */
#define FUZZ_PUT_FILES 9

struct fuzz_put_file {
	int fd;
	char path[64];
};

/* File K (0 <= K < FUZZ_PUT_FILES), opened the first time it is asked for. */
static inline struct fuzz_put_file *
fuzz_put_file(int k)
{
	static struct fuzz_put_file files[FUZZ_PUT_FILES];
	static int opened[FUZZ_PUT_FILES];

	if (k < 0 || k >= FUZZ_PUT_FILES)
		abort();
	if (!opened[k]) {
		files[k].fd = fuzz_memfd(files[k].path, sizeof files[k].path);
		opened[k] = 1;
	}
	return &files[k];
}

/* DATA's LEN bytes as file K; its name, valid until the next put of K. */
static inline char *
fuzz_put(int k, const uint8_t *data, size_t len)
{
	struct fuzz_put_file *f = fuzz_put_file(k);

	fuzz_fill(f->fd, data, len);
	return f->path;
}

#ifndef FUZZ_DATA
#define FUZZ_DATA "t/data"
#endif

/* The DCFG at PATH into *D, loaded the first time (all of it); a failure aborts. */
static inline const struct dcfg *
fuzz_dcfg_once(struct dcfg **d, const char *path)
{
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL };
	struct dcfg_error err;

	if (*d == NULL && (*d = dcfg_load(path, &lo, &err)) == NULL) {
		fprintf(stderr, "fuzz: %s: %s\n", err.file, err.message);
		abort();
	}
	return *d;
}

/*
 * The bundled sample's DCFG, loaded once: the stages of the stream target
 * and the trace target's plans with --align read the fuzzed input against
 * it, and the seeds hold its edge ids and process.
 */
static inline const struct dcfg *
fuzz_sample_dcfg(void)
{
	static struct dcfg *d;

	return fuzz_dcfg_once(&d, FUZZ_DATA "/sample/prog.dcfg.json.gz");
}

#endif
