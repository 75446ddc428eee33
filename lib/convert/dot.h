/*
 * dcfg-convert --to dot: the text helpers and the call graph (dot.c), the
 * control-flow graphs of the routines chosen with --routine and --node,
 * with stubs for the edges that enter and leave them (dot_cfg.c), each
 * routine's blocks with its loops as clusters (dot_loops.c), and the
 * title, legend and heat (dot_style.c). The exact text is described in
 * dcfg-convert(1).
 */
#ifndef DCFG_DOT_H
#define DCFG_DOT_H

#include <stdint.h>

#include "convert.h"
#include "common/output.h"
#include "profile.h"

/* S inside a DOT string: quotes, backslashes and entities kept literal. */
void dcfg_dot_escaped(struct dcfg_output *out, const char *s);

/* `", penwidth=W];` and a newline, W from COUNT and the graph's largest count MAX. */
void dcfg_dot_edge_end(struct dcfg_output *out, uint64_t count, uint64_t max);

/* `digraph "NAME" {` (or the PID when NAME is NULL) and the node defaults. */
void dcfg_dot_header(struct dcfg_output *out, const char *name, uint64_t pid);

/* `, fillcolor="#RRGGBB"` for VALUE's heat bucket of TOTAL; nothing for the coldest. */
void dcfg_dot_fill(struct dcfg_output *out, uint64_t value, uint64_t total);

/* The graph's title (`label=...; labelloc=t;`): program, process, THREAD, total, then WHAT. */
void dcfg_dot_title(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, const char *what);

/* The legend node: FILL says what a share is of; LINES (HTML text, fixed) what the rest means. */
void dcfg_dot_legend(struct dcfg_output *out, uint64_t total, const char *fill,
    const char *lines);

/*
 * An edge's label text: a short tag unless E is a branch or fall-through
 * (the EDGE_TYPE name, escaped, for one this version does not know), then COUNT.
 */
void dcfg_dot_edge_label(struct dcfg_output *out, const struct dcfg_profile *pf,
    const struct dcfg_edge *e, uint64_t count);

/* BEFORE and `FILE:LINE` (base name) of ADDR's source line; nothing without one. */
void dcfg_dot_source(struct dcfg_output *out, const struct dcfg_profile *pf, uint64_t addr,
    const char *before);

/*
 * Function FI's blocks (POS: per process block, its position in its
 * function) that ran at least MIN times, in its loops' clusters; in a
 * cluster of its own when CLUSTER and any block is drawn. -1: out of memory.
 */
int dcfg_dot_routine_blocks(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t fi,
    const uint32_t *pos, uint64_t min, int cluster);

/* The graph of the routines --routine and --node choose. 0, or -1 with ERR. */
int dcfg_dot_routines(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, struct dcfg_error *err);

#endif
