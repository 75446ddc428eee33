/*
 * The tables of dcfg-count: one process's edge executions aggregated by
 * edge, block, routine, loop, image, edge type, thread, line or file, sorted by
 * instructions and printed with their shares. Everything is derived from
 * the executions of the edges that ran, and costs only those (and, per
 * loop table, the loops around them), never the size of the process.
 */
#ifndef DCFG_COUNT_TABLE_H
#define DCFG_COUNT_TABLE_H

#include <stdint.h>

#include "bykind.h"
#include "count_options.h"
#include "count_rows.h"

/* 0, or -1 when out of memory. */
int dcfg_count_table_init(struct dcfg_count_table *t, const struct dcfg *d,
    const struct dcfg_count_options *o);
void dcfg_count_table_free(struct dcfg_count_table *t);

/*
 * Makes process P's table from T->exec (indexed as d->edges) and THREADS,
 * and keeps it to be written; T->exec stays as it is. *OVERFLOW is set when a
 * count of the table went past 2^64 - 1 (nothing is kept then). 0, or -1
 * (out of memory, or the overflow).
 */
int dcfg_count_table_keep(struct dcfg_count_table *t, const struct dcfg_process *p,
    const struct dcfg_count_thread *threads, size_t n_threads, int *overflow);
/* Writes the tables kept, a section each, and forgets them. */
void dcfg_count_table_write(struct dcfg_count_table *t, struct dcfg_table *w);
/* Writes row J of kept table K (its cells and its end). */
void dcfg_count_table_write_row(struct dcfg_count_table *t, struct dcfg_table *w,
    const struct dcfg_count_kept *k, size_t j);

/*
 * The first line of every output of dcfg-count: what a merge of tables
 * (dcfg-count --merge) must find equal in all of them, and what it refuses.
 *   # dcfg-count 1 by=KIND dcfg=CRC:BYTES [top=N] [from=dcfg]
 *   # dcfg-count 1 bbv=INTERVAL dcfg=CRC:BYTES
 * CRC and BYTES are the CRC-32 (8 lowercase hexadecimal digits) and size
 * of the DCFG's data, decompressed, as gzip(1) records them. The tables'
 * is the table writer's head (dcfg_count_table_meta); the vectors' this.
 */
void dcfg_count_out_header(struct dcfg_output *out, uint32_t crc, uint64_t bytes,
    const struct dcfg_count_options *o, int from_dcfg);
/* The head fields of a table's document (after dcfg_table_open(W, .., "dcfg-count", 1)). */
void dcfg_count_table_meta(struct dcfg_table *w, uint32_t crc, uint64_t bytes, enum dcfg_count_by by,
    uint64_t top, int from_dcfg);
/* CRC:BYTES into BUF (at least 30 bytes). */
void dcfg_count_crc_bytes(char *buf, size_t size, uint32_t crc, uint64_t bytes);
/* A process's section: its fields (process, total_instructions) and the kind's columns. */
void dcfg_count_section(struct dcfg_table *w, const struct dcfg_count_kind *kind, uint64_t pid,
    uint64_t total);
/* Rows by instructions, the most first, then by name, then by key. */
int dcfg_count_row_cmp(const void *a, const void *b);
/* A row's first cell (as KEY says), and its counts and share of TOTAL (the row ends). */
void dcfg_count_write_key(struct dcfg_table *w, enum dcfg_count_key key,
    const struct dcfg_count_row *r);
void dcfg_count_write_counts(struct dcfg_table *w, const struct dcfg_count_kind *kind,
    const struct dcfg_count_row *r, uint64_t total);

#endif
