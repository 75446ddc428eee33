/* Internal to --to bolt: one conversion's state, between bolt.c and bolt_check.c. */
#ifndef DCFG_CONVERT_BOLT_RUN_H
#define DCFG_CONVERT_BOLT_RUN_H

#include <stdint.h>

#include "convert.h"
#include "bolt.h"

/* Per block of the process. */
enum {
	BOLT_BLOCK_RAN = 1 << 0    /* an edge in or out of it ran */
};

/* A record of the profile: B, F or f, between the binary's addresses (0: outside the image). */
struct bolt_record {
	uint64_t from, to;
	uint64_t count;
	char kind;
};

struct bolt_run {
	const struct dcfg_convert *c;
	const struct dcfg *d;
	const struct dcfg_process *p;
	uint32_t image;            /* index into the DCFG's images */
	const char *binary;        /* the file the function table was read from */
	const struct dcfg_bolt_functions *t;
	/* per block of the process */
	uint8_t *flags;
	uint64_t *count;           /* how often it ran: the edges into it, REP's repeats not */
	uint64_t *returns_in;      /* the returns into it */
	struct bolt_record *rec;
	size_t n_rec, rec_cap;
	uint64_t unmapped, unmapped_count;   /* records left out: in no function */
};

/*
 * Chooses the image: --image NAME (a path or a base name), else the main
 * image. Sets r->image. 0, or -1 with ERR.
 */
int dcfg_bolt_choose_image(struct bolt_run *r, struct dcfg_error *err);

/* Refuses an image none of whose blocks ran: nothing to profile. 0, or -1 with ERR. */
int dcfg_bolt_check_ran(const struct bolt_run *r, struct dcfg_error *err);

/*
 * Refuses a function table of another binary than the image's (the image's
 * SYMBOLS, or a block that ran where the file has no code). Needs r->flags
 * marked. 0, or -1 with ERR.
 */
int dcfg_bolt_check_binary(const struct bolt_run *r, struct dcfg_error *err);

#endif
