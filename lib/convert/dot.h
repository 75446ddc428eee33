/*
 * dcfg-convert --to dot in two parts: the text helpers and the call graph
 * (dot.c), and the control-flow graphs of the routines chosen with
 * --routine and --node, with their loops as clusters and stubs for the
 * edges that enter and leave them (dot_cfg.c). The exact text is described
 * in dcfg-convert(1).
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

/* The graph of the routines --routine and --node choose. 0, or -1 with ERR. */
int dcfg_dot_routines(const struct dcfg_convert *c, const struct dcfg_profile *pf,
    struct dcfg_error *err);

#endif
