/*
 * dcfg-info --list: every routine, image or loop of a process, those that
 * never ran included, with the counts the DCFG's own edge counts give them.
 * The counts are dcfg-count --from-dcfg's (count_table.h), worked out here
 * a second way, from the process's tables: a block's executions are the
 * summed counts of the edges into it; a routine's executions are the edges
 * into its entry from outside it, its instructions its blocks' executions
 * times NUM_INSTRS; an image's, its blocks'; a loop's entries are the edges
 * into its head from outside its nodes, its iterations those from its
 * back-edge sources, its instructions its nodes' blocks' (inclusive).
 */
#ifndef DCFG_LISTING_H
#define DCFG_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include "dcfg/names.h"

enum dcfg_list_kind { DCFG_LIST_NONE, DCFG_LIST_ROUTINES, DCFG_LIST_IMAGES, DCFG_LIST_LOOPS };

/* The kind named NAME ("routines", "images", "loops"): 0, or -1. */
int dcfg_list_kind_parse(const char *name, enum dcfg_list_kind *kind);
/* The DCFG_KEEP_* tables a listing of KIND reads. */
unsigned dcfg_list_keep(enum dcfg_list_kind kind);

struct dcfg_list_row {
	uint32_t key;              /* a routine's entry node, an image's id, a loop's head node */
	uint32_t index;            /* in d->routines, d->images or d->loops */
	const char *name;          /* escaped (dcfg_escape): a routine's, an image's file, a loop's routine */
	const char *source;        /* loops: FILE:LINE of the head, escaped, or "-" */
	uint64_t exec, iter, instr;
	uint32_t depth, innermost; /* loops: 1 for an outer loop; no other loop's head among its nodes */
	uint64_t statik;           /* loops: their nodes' NUM_INSTRS; images: their blocks */
	uint64_t routines;         /* images: their routines */
};

struct dcfg_listing {
	const struct dcfg *d;
	const struct dcfg_process *p;
	enum dcfg_list_kind kind;
	struct dcfg_list_row *rows;
	size_t n;
	/* the process's names, for routines and loops */
	struct dcfg_names names;
	int have_names;
	char *shown; size_t cap_shown, used_shown;
};

/*
 * The rows of process P, by instructions (the most first), then name, then
 * key. 0, or -1 with ERR set (out of memory, a count past 2^64 - 1).
 */
int dcfg_listing_make(struct dcfg_listing *l, const struct dcfg *d,
    const struct dcfg_process *p, enum dcfg_list_kind kind, const char *file,
    struct dcfg_error *err);
void dcfg_listing_free(struct dcfg_listing *l);

#endif
