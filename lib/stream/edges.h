/* dcfg-edges' work: each edge's source, target and type; the edge table. */
#ifndef DCFG_EDGES_H
#define DCFG_EDGES_H

#include <stdint.h>

#include "dcfg/model.h"
#include "common/output.h"
#include "stage.h"

/* The types named in LIST (names or classes, comma-separated) as a mask of kinds; -1 and *bad. */
int dcfg_edge_types_parse(const char *list, uint64_t *mask, char *bad, size_t size);

/* TYPES 0: keep every edge. */
int dcfg_edges_run(struct dcfg_stage *s, const char *path, uint64_t types,
    struct dcfg_error *err);
void dcfg_edges_list(struct dcfg_output *out, const struct dcfg *d);

/* The name of the edge's type as EDGE_TYPES writes it, or UNDEFINED. */
const char *dcfg_edge_type_name(const struct dcfg *d, const struct dcfg_edge *e);

#endif
