/* The counting pass (build.h): edge, block and instruction counts, and the trace's chunks. */
#include "build.h"

#include <stdlib.h>

#include "common/vec.h"

int
rec_chunk_edge(struct rec_counter *c, uint32_t source_instrs)
{
	struct rec_build *b = c->b;
	struct rec_chunk *ch;

	if (!c->started) {
		c->running = b->thread_preceding;
		c->started = 1;
	}
	if (!c->open) {
		if (dcfg_reserve((void **)&b->chunks, &b->cap_chunks, b->n_chunks + 1,
		    sizeof *b->chunks) < 0)
			return -1;
		b->chunks[b->n_chunks] = (struct rec_chunk){ c->running, 0, 0 };
		c->open = 1;
	}
	ch = &b->chunks[b->n_chunks];
	ch->instrs += source_instrs;
	ch->edges++;
	c->running += source_instrs;
	if (ch->instrs >= c->limit) {
		b->n_chunks++;
		c->open = 0;
	}
	return 0;
}

/* The fall-through edges inside translation blocks: as many as their blocks' runs. */
static void
add_piece_counts(struct rec_build *b)
{
	size_t t;

	for (t = 0; t < b->s->n_tbs; t++) {
		uint64_t n = b->tb_runs[t];
		uint32_t p, end = b->tb_first_piece[t + 1];
		if (n == 0)
			continue;
		for (p = b->tb_first_piece[t] + 1; p < end; p++)
			b->thread_counts[b->piece_edge[p] - 1] += n;
		b->tb_runs[t] = 0;
	}
}

/* The walked thread's edge counts into the graph: COUNT_PER_THREAD, and the blocks' entries. */
static void
keep_thread_counts(struct rec_build *b, uint32_t thread)
{
	struct dcfg_rec_graph *g = b->g;
	size_t e;

	for (e = 0; e < b->n_thread_counts && e < g->n_edges; e++) {
		uint64_t n = b->thread_counts[e];
		if (n == 0)
			continue;
		g->edges[e].count_per_thread[thread] = n;
		if (g->edges[e].target >= DCFG_REC_FIRST_BLOCK)
			g->blocks[g->edges[e].target - DCFG_REC_FIRST_BLOCK].count += n;
		b->thread_counts[e] = 0;
	}
}

static const struct dcfg_rec_block *
block_at(const struct dcfg_rec_graph *g, uint64_t addr)
{
	size_t lo = 0, hi = g->n_blocks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->blocks[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n_blocks && g->blocks[lo].addr == addr ? &g->blocks[lo] : NULL;
}

/* SDE's fabricated edge from each call's block to its return site's, when that block ran. */
static int
call_bypasses(struct rec_build *b)
{
	const struct dcfg_rec_graph *g = b->g;
	size_t i, n = g->n_blocks;

	for (i = 0; i < n; i++) {
		const struct dcfg_rec_block *site;
		if (b->insn[i].cls != REC_CALL && b->insn[i].cls != REC_CALL_INDIRECT)
			continue;
		site = block_at(g, g->blocks[i].addr + g->blocks[i].size);
		if (site != NULL && rec_find_edge(b, g->blocks[i].node, site->node,
		    DCFG_EDGE_CALL_BYPASS, 1) < 0)
			return -1;
	}
	return 0;
}

int
rec_count_all(struct rec_build *b, struct dcfg_error *err)
{
	uint32_t t;

	if ((b->thread_chunks = calloc(b->g->n_threads + 1, sizeof *b->thread_chunks)) == NULL)
		return dcfg_error_set(err, b->s->dir, "out of memory");
	for (t = 0; t < b->g->n_threads; t++) {
		struct rec_counter c = { .b = b,
		    .limit = b->chunk_instrs ? b->chunk_instrs : UINT64_MAX };
		b->thread_chunks[t] = b->n_chunks;
		if (rec_count_thread(b, t, &c, err) < 0)
			return -1;
		if (c.open)
			b->n_chunks++;
		add_piece_counts(b);
		keep_thread_counts(b, t);
	}
	b->thread_chunks[b->g->n_threads] = b->n_chunks;
	if (call_bypasses(b) < 0)
		return dcfg_error_set(err, b->s->dir, "out of memory");
	return 0;
}

void
rec_build_free(struct rec_build *b)
{
	free(b->tb_first_piece);
	free(b->piece_block);
	free(b->insn);
	free(b->slots);
	free(b->last_out);
	free(b->tb_next_edge);
	free(b->piece_edge);
	free(b->tb_head);
	free(b->tb_tail);
	free(b->tb_runs);
	b->piece_edge = b->tb_head = b->tb_tail = NULL;
	b->tb_runs = NULL;
	free(b->edge_instrs);
	free(b->thread_counts);
	b->tb_next_edge = NULL;
	b->edge_instrs = NULL;
	b->thread_counts = NULL;
	free(b->chunks);
	free(b->thread_chunks);
	b->tb_first_piece = b->piece_block = b->slots = b->last_out = NULL;
	b->insn = NULL;
	b->chunks = NULL;
	b->thread_chunks = NULL;
}
