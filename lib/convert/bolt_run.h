/* Internal to --to bolt: one conversion's state, between bolt.c and bolt_check.c. */
#ifndef DCFG_CONVERT_BOLT_RUN_H
#define DCFG_CONVERT_BOLT_RUN_H

#include <stdint.h>

#include "convert.h"
#include "bolt.h"

/* Per block of the process. */
enum {
	BOLT_BLOCK_RAN = 1 << 0,        /* an edge in or out of it ran */
	BOLT_BLOCK_BRANCHES = 1 << 1,   /* its last instruction is a branch (a branch edge leaves it) */
	BOLT_BLOCK_TARGET = 1 << 2      /* a branch of its own function lands on it: BOLT starts a block */
};

/* A line of the profile: FROM_FN and TO_FN index the table, DCFG_NONE for "[unknown]". */
struct bolt_record {
	uint64_t from, to;         /* offsets in the functions */
	uint64_t count;
	uint32_t from_fn, to_fn;
};

/* A block of the image by where it ends, to find a return site's call. */
struct bolt_block_end {
	uint64_t end;
	uint32_t block;            /* index into the DCFG's blocks */
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
	uint64_t *count;           /* how often it ran: the edges into it */
	uint64_t *returns_in, *bypass_in;
	struct bolt_block_end *by_end;
	size_t n_by_end;
	/* per function: 1 when BOLT cannot read its name, 2 once a line was left out for it */
	uint8_t *bad_name;
	/* one function's code at a time (bolt_static.c): its instructions and branch targets */
	uint64_t *insns, *targets;
	size_t n_insns, insns_cap, n_targets, targets_cap;
	struct bolt_record *rec;
	size_t n_rec, rec_cap;
	uint64_t unmapped, unmapped_count;   /* lines left out: in no function */
};

/* Adds the line FROM -> TO (offsets in the image) of COUNT. 0, or -1 when out of memory. */
int dcfg_bolt_add_line(struct bolt_run *r, uint64_t from, uint64_t to, uint64_t count);

/*
 * Where BOLT's blocks start in the functions that ran, from their x86-64
 * code: marks the blocks that end with a branch or start at a branch
 * target, and adds the fall-through lines into the targets inside a block
 * of the DCFG. A function whose code does not decode to the DCFG's blocks
 * is left to what the DCFG says. 0, or -1 when out of memory.
 */
int dcfg_bolt_static_blocks(struct bolt_run *r);


/*
 * Chooses the image: --image NAME (a path or a base name), else the main
 * image. Sets r->image. 0, or -1 with ERR.
 */
int dcfg_bolt_choose_image(struct bolt_run *r, struct dcfg_error *err);

/*
 * Refuses a function table of another binary than the image's (the image's
 * SYMBOLS, or a block that ran where the file has no code) and an image
 * that did not run. Needs r->flags marked. 0, or -1 with ERR.
 */
int dcfg_bolt_check_binary(const struct bolt_run *r, struct dcfg_error *err);

#endif
