/*
 * Errors carry the place they were found (file, line, column) so that every
 * command can print them as "PROGRAM: FILE:LINE:COLUMN: message".
 */
#ifndef DCFG_ERROR_H
#define DCFG_ERROR_H

#include <stddef.h>

/* Only what these headers declare is exported from libdcfg.so (Makefile: -fvisibility=hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

struct dcfg_error {
	char file[256];      /* name as the user gave it; "-" is shown as "<stdin>" */
	unsigned long line;  /* 1-based; 0 when the error has no position */
	unsigned long column;
	char message[512];
};

/* Sets an error with no position. Returns -1 so callers can "return dcfg_error_set(...)". */
int dcfg_error_set(struct dcfg_error *err, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets an error at LINE:COLUMN. Returns -1. */
int dcfg_error_at(struct dcfg_error *err, const char *file, unsigned long line,
    unsigned long column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Writes "FILE:LINE:COLUMN: message" (or "FILE: message") into buf. */
void dcfg_error_format(const struct dcfg_error *err, char *buf, size_t size);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
