/* The recorded graph's memory. */
#include <stdlib.h>

#include "graph.h"

void
dcfg_rec_graph_free(struct dcfg_rec_graph *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->n_images; i++)
		free(g->images[i].path);
	for (i = 0; i < g->n_edges; i++)
		free(g->edges[i].count_per_thread);
	free(g->images);
	free(g->blocks);
	free(g->edges);
	free(g->instrs_per_thread);
	free(g->insn_lengths);
	g->insn_lengths = NULL;
	g->n_insn_lengths = 0;
	g->images = NULL;
	g->blocks = NULL;
	g->edges = NULL;
	g->instrs_per_thread = NULL;
	g->n_images = g->n_blocks = g->n_edges = 0;
}
