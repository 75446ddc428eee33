/*
 * The Callgrind profile format (callgrind-format.txt, real-readers.md),
 * as callgrind_annotate and KCachegrind read it, written from a profile.
 */
#ifndef DCFG_CALLGRIND_H
#define DCFG_CALLGRIND_H

#include <stdint.h>

#include "common/output.h"
#include "profile.h"

struct dcfg_callgrind_header {
	const char *creator;       /* "PROGRAM VERSION" */
	const char *cmd;           /* NULL: the main image's file (callgrind.c) */
	uint32_t thread;           /* DCFG_ALL_THREADS: no thread: line */
};

/* Writes PF's current view. -1: out of memory. */
int dcfg_callgrind_write(struct dcfg_output *out, const struct dcfg_profile *pf,
    const struct dcfg_callgrind_header *h);

#endif
