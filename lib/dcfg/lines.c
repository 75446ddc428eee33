#include "lines.h"

#include <stdlib.h>
#include <string.h>

/* The first record that may overlap ADDR, looking back as far as records nest. */
static size_t
first_overlap(const struct dcfg_process_index *px, uint64_t addr)
{
	const struct dcfg_addr_index *ix = px->source_by_addr;
	size_t i = dcfg_addr_index_after(ix, px->n_source_by_addr, addr), steps, first;

	for (first = i, steps = 0; i > 0 && steps < DCFG_ADDR_NESTING; i--, steps++)
		if (addr < ix[i - 1].end)
			first = i - 1;
	return first;
}

struct raw_piece {
	uint64_t from, to, claim;  /* claim: a whole range's NUM_INSTRS */
	uint32_t source;
	int whole;                 /* a range that lies wholly inside the block */
};

/* The next piece of the block from it->cursor: 1, or 0 at its end. */
static int
walk(struct dcfg_line_pieces *it, struct raw_piece *rp)
{
	const struct dcfg_addr_index *ix = it->px->source_by_addr, *x;
	size_t n = it->px->n_source_by_addr;

	if (it->cursor >= it->end)
		return 0;
	while (it->range < n && ix[it->range].end <= it->cursor)
		it->range++;
	*rp = (struct raw_piece){ it->cursor, it->end, 0, DCFG_NONE, 0 };
	if (it->range < n && ix[it->range].addr < it->end) {
		x = &ix[it->range];
		if (x->addr > it->cursor) {
			rp->to = x->addr;
		} else {
			it->range++;
			rp->to = x->end < it->end ? x->end : it->end;
			rp->source = x->index;
			rp->claim = it->d->source_lines[x->index].num_instrs;
			rp->whole = x->addr == it->cursor && x->addr >= it->b->addr && x->end <= it->end;
		}
	}
	it->cursor = rp->to;
	return 1;
}

static int
shares(const struct dcfg_line_pieces *it, const struct raw_piece *rp)
{
	return !rp->whole && rp->from <= it->last && (rp->from != it->last || it->last_shares);
}

/* Where the block ends (past its last instruction at least) and where its last instruction starts. */
static void
block_extent(struct dcfg_line_pieces *it, const struct dcfg_block *b)
{
	uint64_t span = b->size, off = b->last_instr_offset;

	if (span <= off)
		span = off + 1 > off ? off + 1 : UINT64_MAX;
	it->end = b->addr + span >= b->addr ? b->addr + span : UINT64_MAX;
	it->last = b->addr + off >= b->addr && b->addr + off < it->end ? b->addr + off : it->end - 1;
}

void
dcfg_line_pieces_begin(struct dcfg_line_pieces *it, const struct dcfg *d,
    const struct dcfg_process *p, const struct dcfg_block *b)
{
	struct raw_piece rp;
	uint64_t claimed = 0, unknown = 0, sharers = 0, at_last_bytes = 0;

	memset(it, 0, sizeof *it);
	it->d = d;
	it->px = dcfg_process_index(d, p);
	it->b = b;
	block_extent(it, b);
	it->first = it->range = first_overlap(it->px, b->addr);
	it->cursor = b->addr;
	while (walk(it, &rp)) {
		if (rp.from > it->last)
			continue;
		if (rp.whole) {
			claimed = rp.claim > UINT64_MAX - claimed ? UINT64_MAX : claimed + rp.claim;
		} else {
			unknown++;
			if (rp.from == it->last) {
				at_last_bytes = rp.to - rp.from;
			} else {
				sharers++;
				it->share_bytes += rp.to - rp.from;
			}
		}
	}
	if (sharers == 0 && at_last_bytes) {
		it->last_shares = 1;
		it->share_bytes = at_last_bytes;
	}
	if (claimed <= b->num_instrs && unknown <= b->num_instrs - claimed)
		it->extra = b->num_instrs - claimed - unknown;
	it->left = b->num_instrs;
	it->range = it->first;
	it->cursor = b->addr;
}

/* EXTRA's share of the sharers' first TO bytes, rounded half up (no overflow: q < 2^128). */
static uint64_t
share_through(const struct dcfg_line_pieces *it, uint64_t to)
{
	unsigned __int128 q = (unsigned __int128)it->extra * to;
	uint64_t r = (uint64_t)(q % it->share_bytes);

	return (uint64_t)(q / it->share_bytes) + (r >= it->share_bytes - r);
}

int
dcfg_line_pieces_next(struct dcfg_line_pieces *it, struct dcfg_line_piece *piece)
{
	struct raw_piece rp;
	uint64_t n, upto;

	while (it->left > 0 && walk(it, &rp)) {
		if (rp.from > it->last)
			continue;
		n = rp.whole ? rp.claim : 1;
		if (shares(it, &rp)) {
			upto = share_through(it, it->shared_bytes += rp.to - rp.from);
			n += upto - it->given;
			it->given = upto;
		}
		/* The piece that holds the last instruction ends the block: it takes what is left. */
		if (rp.to > it->last)
			n = it->left;
		else if (n > it->left - 1)
			n = it->left - 1;
		it->left -= n;
		if (n) {
			*piece = (struct dcfg_line_piece){ rp.from, n, rp.source };
			return 1;
		}
	}
	return 0;
}

void
dcfg_block_lines(const struct dcfg *d, const struct dcfg_process *p,
    const struct dcfg_block *b, void (*fn)(void *ctx, uint32_t source, uint64_t instrs),
    void *ctx)
{
	struct dcfg_line_pieces it;
	struct dcfg_line_piece piece;
	uint64_t none = 0;

	dcfg_line_pieces_begin(&it, d, p, b);
	while (dcfg_line_pieces_next(&it, &piece)) {
#ifdef FUZZ_PLANT_LINES
		/* The bug of issue 35 for fuzz-routes to find: a piece gives one to no line. */
		if (piece.instrs > 2 && piece.source != DCFG_NONE) {
			piece.instrs--;
			none++;
		}
#endif
		if (piece.source == DCFG_NONE)
			none += piece.instrs;
		else
			fn(ctx, piece.source, piece.instrs);
	}
	if (none)
		fn(ctx, DCFG_NONE, none);
}

struct pair {
	uint32_t file, record;
	uint64_t line;
};

static int
by_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->record < y->record ? -1 : x->record > y->record;
}

int
dcfg_line_ids_init(struct dcfg_line_ids *ids, const struct dcfg *d)
{
	size_t n = d->n_source_lines, i;
	struct pair *v = malloc((n + 1) * sizeof *v);

	memset(ids, 0, sizeof *ids);
	ids->of = malloc((n + 1) * sizeof *ids->of);
	ids->record = malloc((n + 1) * sizeof *ids->record);
	if (v == NULL || ids->of == NULL || ids->record == NULL) {
		free(v);
		dcfg_line_ids_free(ids);
		return -1;
	}
	for (i = 0; i < n; i++)
		v[i] = (struct pair){ d->source_lines[i].file_name_id, (uint32_t)i,
		    d->source_lines[i].line };
	qsort(v, n, sizeof *v, by_pair);
	for (i = 0; i < n; i++) {
		if (i == 0 || v[i].file != v[i - 1].file || v[i].line != v[i - 1].line)
			ids->record[ids->n++] = v[i].record;
		ids->of[v[i].record] = (uint32_t)(ids->n - 1);
	}
	free(v);
	return 0;
}

void
dcfg_line_ids_free(struct dcfg_line_ids *ids)
{
	free(ids->of);
	free(ids->record);
	memset(ids, 0, sizeof *ids);
}
