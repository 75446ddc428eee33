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
 * How a block's NUM_INSTRS fall on the SOURCE_DATA ranges that overlap it,
 * the one rule every route uses (dcfg(7), "Source lines of a block"). The
 * block is cut into pieces at range boundaries, in address order: a piece
 * of one range, or bytes no range covers (no line).
 *  - A range wholly inside the block gives its NUM_INSTRS.
 *  - The rest of the block's instructions go to its other pieces (ranges it
 *    cuts, which include a range holding the whole block, and uncovered
 *    bytes): one such piece gets all of the rest; several get one each
 *    and share what remains in proportion to their bytes (each piece gets
 *    the rounded share of the bytes up to its end, less what the pieces
 *    before it got). A piece that starts at the block's last instruction
 *    (LAST_INSTR_OFFSET) holds just that one, unless it is the only such
 *    piece; one that starts past it holds none.
 *  - The piece that holds the last instruction takes whatever is left: the
 *    pieces before it never take its last one (ranges that claim more
 *    than the block has get what is left, in address order), and what
 *    whole ranges leave unclaimed when no other piece is there is its.
 * The pieces' instructions add up to the block's NUM_INSTRS exactly; pieces
 * of none are skipped. No allocation: it walks the ranges twice.
 */
struct dcfg_line_piece {
	uint64_t addr;             /* where the piece starts */
	uint64_t instrs;
	uint32_t source;           /* index in d->source_lines, DCFG_NONE: no line */
};

struct dcfg_line_pieces {
	const struct dcfg *d;
	const struct dcfg_process_index *px;
	const struct dcfg_block *b;
	uint64_t end, last, cursor, left, extra, share_bytes, shared_bytes, given;
	size_t first, range;
	int last_shares;           /* the piece at the last instruction is the only sharer */
};

void dcfg_line_pieces_begin(struct dcfg_line_pieces *it, const struct dcfg *d,
    const struct dcfg_process *p, const struct dcfg_block *b);
/* 1 with *PIECE set, 0 when the block has no more. */
int dcfg_line_pieces_next(struct dcfg_line_pieces *it, struct dcfg_line_piece *piece);

/*
 * Calls FN(CTX, SOURCE, INSTRS) for each piece of block B on a line, in
 * address order, then once with SOURCE DCFG_NONE for all its instructions
 * on no line (if any).
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
