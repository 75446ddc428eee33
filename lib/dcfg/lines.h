/*
 * Source lines of executed code: how a block's instructions fall on the
 * lines of SOURCE_DATA, and a dense id for each (file, line) pair, for
 * counting by line and by file.
 */
#ifndef DCFG_LINES_H
#define DCFG_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/*
 * Calls FN(CTX, SOURCE, INSTRS) for the instructions of block B on each
 * SOURCE_DATA record (an index in d->source_lines) that overlaps it, then
 * once with SOURCE DCFG_NONE for the instructions on no line. The INSTRS
 * add up to the block's NUM_INSTRS exactly. A record that lies wholly in
 * the block gives its NUM_INSTRS; one that the block cuts gives its share
 * by bytes, rounded down (the format does not say where its instructions
 * are); what the records would give beyond the block's own count is cut
 * from the last ones. Calls with INSTRS 0 are skipped.
 */
void dcfg_block_lines(const struct dcfg *d, const struct dcfg_process *p,
    const struct dcfg_block *b, void (*fn)(void *ctx, uint32_t source, uint64_t instrs),
    void *ctx);

/* Dense ids of the (FILE_NAME_ID, LINE_NUM) pairs of every SOURCE_DATA record. */
struct dcfg_line_ids {
	uint32_t *of;              /* per record of d->source_lines: its pair's id */
	uint32_t *record;          /* per id: a record that has the pair */
	size_t n;
};

/* 0, or -1 (out of memory). */
int dcfg_line_ids_init(struct dcfg_line_ids *ids, const struct dcfg *d);
void dcfg_line_ids_free(struct dcfg_line_ids *ids);

#endif
