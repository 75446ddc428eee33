/*
 * The memory of a keyed stage (stage.h: KEY and RENDER): each suffix
 * rendered once, and each edge's key in each process, kept for the whole
 * run so that a process that comes back costs nothing to set up again.
 * Edges are known by their slot (keyed.c): their id when ids index
 * directly, else their index in the process's edges, so that sparse ids
 * (up to 2^31, as the spec allows) take the same route as dense ones. With both known, a run of plain data lines is copied
 * straight from the reader's buffer (reader.h).
 */
#ifndef DCFG_KEYED_H
#define DCFG_KEYED_H

#include "stage.h"

struct dcfg_keyed {
	char *pool;                  /* the suffixes, with DCFG_COPY_PAD bytes to spare */
	size_t used, cap;
	uint32_t *start, *len;       /* per key; len UINT32_MAX: not rendered yet */
	size_t n_keys;
	uint32_t **key_by_slot;      /* per process: 1 + the key by edge slot, 0 unknown */
	size_t n_processes;
	uint32_t *cur;               /* the current process's, NULL when it has no edges */
	size_t n_cur;
	const struct dcfg_idmap *ids;   /* the current process's edge index by id */
	const struct dcfg_edge *first;  /* the current process's edge of index 0 */
};

/* For S's keys and processes. -1: out of memory. */
int dcfg_keyed_init(struct dcfg_keyed *k, const struct dcfg_stage *s);
void dcfg_keyed_free(struct dcfg_keyed *k);
/* S->p is the current process now. -1: out of memory. */
int dcfg_keyed_process(struct dcfg_keyed *k, const struct dcfg_stage *s);
/* Writes a data line through S->key and S->render. -1 with ERR set. */
int dcfg_keyed_line(struct dcfg_keyed *k, struct dcfg_stage *s,
    const struct dcfg_stream_record *r, const struct dcfg_edge *e, struct dcfg_error *err);
/*
 * Writes the data lines buffered in ST whose keys are known, up to the
 * first other line, which dcfg_stream_next then reads. Returns the number
 * of lines.
 */
unsigned long dcfg_keyed_lines(struct dcfg_keyed *k, struct dcfg_stage *s, struct dcfg_stream *st);

#endif
