#include "lines.h"

#include <stdlib.h>
#include <string.h>

/* The records that overlap [b->addr, end): the first that ends past b->addr. */
static size_t
first_overlap(const struct dcfg_process_index *px, uint64_t addr)
{
	size_t i = dcfg_addr_index_after(px->source_by_addr, px->n_source_by_addr, addr), steps;

	/* Records may nest a little (as symbols do); look back only that far. */
	for (steps = 0; i > 0 && steps < DCFG_ADDR_NESTING && px->source_by_addr[i - 1].end > addr;
	    steps++)
		i--;
	return i;
}

void
dcfg_block_lines(const struct dcfg *d, const struct dcfg_process *p,
    const struct dcfg_block *b, void (*fn)(void *ctx, uint32_t source, uint64_t instrs),
    void *ctx)
{
	const struct dcfg_process_index *px = dcfg_process_index(d, p);
	uint64_t end = b->addr + b->size, left = b->num_instrs;
	size_t i;

	if (end < b->addr)
		end = UINT64_MAX;
	for (i = first_overlap(px, b->addr); left > 0 && i < px->n_source_by_addr &&
	    px->source_by_addr[i].addr < end; i++) {
		const struct dcfg_addr_index *x = &px->source_by_addr[i];
		const struct dcfg_source_line *s = &d->source_lines[x->index];
		uint64_t lo = x->addr > b->addr ? x->addr : b->addr;
		uint64_t hi = x->end < end ? x->end : end, n;
		if (hi <= lo)
			continue;
		if (lo == x->addr && hi == x->end)
			n = s->num_instrs;
		else   /* cut by the block: its share by bytes */
			n = (uint64_t)((unsigned __int128)s->num_instrs * (hi - lo) / (x->end - x->addr));
		if (n > left)
			n = left;
		if (n) {
			fn(ctx, x->index, n);
			left -= n;
		}
	}
	if (left)
		fn(ctx, DCFG_NONE, left);
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
