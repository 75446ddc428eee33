/*
 * Between csi-paths.c, which reads the metadata, and csi-numbering.c, which
 * checks one function's paths: the function as read, and how both stop.
 */
#ifndef DCFG_T_CSI_PATHS_H
#define DCFG_T_CSI_PATHS_H

#include <stddef.h>
#include <stdint.h>

struct block {
	uint64_t id;
	int kind;           /* 0 plain, 1 ENTRY, 2 EXIT */
	int minus1;         /* carries -1 */
};

struct edge {
	size_t src, dst;    /* block indices */
	int back;
	uint64_t inc, wt;
	size_t line;
};

/* The function just read, in the contract's order, which the checks rely on
 * (EXIT at 0, ENTRY at 1) and which decides the path a message shows. */
extern struct block *blocks;
extern size_t n_blocks;
extern struct edge *edges;
extern size_t n_edges;
extern char *fname;
extern uint64_t limit;      /* --limit: enumerated up to it, counted above */

_Noreturn void fail(const char *fmt, ...);
void *xrealloc(void *p, size_t n, size_t size);
void check_function(void);

#endif
