/*
 * dcfg-regions --check (check.c, check_routines.c): the error of SimPoint's
 * choice, measured on the profile.
 */
#ifndef DCFG_REGIONS_CHECK_H
#define DCFG_REGIONS_CHECK_H

#include "regions.h"
#include "regions_plan.h"
#include "dcfg/names.h"

/* Shares, errors and distances are written with this many decimals. */
#define DCFG_RG_SHARE_DECIMALS 6
/* Projected instructions: tenths. */
#define DCFG_RG_INSTR_DECIMALS 1

/* A row of shares: a block (a dimension of the vectors), or a routine. */
struct dcfg_rg_share {
	uint64_t id;                /* the block's id in the T lines; the routine's entry node */
	uint64_t instrs;            /* in the whole run */
	double projected;           /* in the regions, times their multipliers */
	double error;               /* projected share - true share */
	const void *what;           /* a routine's entry block in the DCFG; NULL for none */
};

/* The most instructions first, then by id: the rows' order. */
int dcfg_rg_share_order(const void *a, const void *b);

/*
 * The errors of the N shares S (sorted), of totals TOTAL and PROJECTED;
 * their sizes' sum (the distance) into *DISTANCE, and the first of the
 * largest size into *WORST.
 */
void dcfg_rg_share_errors(struct dcfg_rg_share *s, size_t n, uint64_t total, double projected,
    double *distance, size_t *worst);

/* The cells instructions .. share_error of S's row. */
void dcfg_rg_share_cells(struct dcfg_table *t, const struct dcfg_rg_share *s, uint64_t total);

/* The routines' shares of the blocks' (--dcfg), and what names them. */
struct dcfg_rg_routines {
	struct dcfg_rg_share *r;    /* sorted; the code of no routine is one row, of NULL what */
	size_t n;
	double distance;
	size_t worst;
	struct dcfg_names names;
	int has_names;
};

/*
 * The routines of the N BLOCKS of profile P, by its Block id lines'
 * addresses in SRC's process: 0, or -1 with ERR set (a block the DCFG does
 * not have at its address, or no Block id line to place it; out of memory).
 */
int dcfg_rg_routines_of(struct dcfg_rg_routines *rt, const struct dcfg_rg_source *src,
    const struct dcfg_rg_profile *p, const struct dcfg_rg_share *blocks, size_t n,
    double projected, struct dcfg_error *err);
/* Its section's columns and rows, after its fields. */
void dcfg_rg_routines_write(struct dcfg_table *t, const struct dcfg_rg_routines *rt, uint64_t total);
/* The name of row I, escaped, into BUF (SIZE bytes, cut between escapes): the length it needs. */
size_t dcfg_rg_routine_name(const struct dcfg_rg_routines *rt, size_t i, char *buf, size_t size);
void dcfg_rg_routines_free(struct dcfg_rg_routines *rt);

/* The Block id line of the T lines' block ID, or NULL. */
const struct dcfg_rg_block *dcfg_rg_block_of(const struct dcfg_rg_profile *p, uint64_t id);

/*
 * Writes the table of PLAN's error against the whole run P holds (every
 * T line) in O's table format; with SRC's DCFG, the routines' too. 0; 1
 * with ERR set when the BBV distance is above O's --max-distance (the
 * table is written all the same); -1 with ERR set, nothing written.
 */
int dcfg_rg_check(const struct dcfg_rg_plan *plan, const struct dcfg_rg_profile *p,
    const struct dcfg_rg_source *src, const struct dcfg_regions_options *o,
    struct dcfg_output *out, struct dcfg_error *err);

#endif
