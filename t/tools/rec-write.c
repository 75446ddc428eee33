/*
 * rec-write DESCRIPTION [OUTPUT]: builds a recorded graph (lib/record/
 * graph.h) from a text description and writes it as a DCFG with
 * dcfg_rec_write_dcfg(), so that the writer is tested without QEMU.
 * Lines ('#' starts a comment):
 *   pid N
 *   threads N
 *   instrs N N ...                      instructions per thread
 *   image ID LOAD SIZE PATH              PATH "-" for none
 *   block IMAGE_ID ADDR LEN,LEN,... COUNT
 *   edge SOURCE TARGET KIND COUNT,COUNT,...
 * SOURCE and TARGET are start, end, unknown or a block's ADDR; blocks are
 * numbered from 4 by address; edges from 1 in order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/output.h"
#include "record/graph.h"
#include "record/write_dcfg.h"

struct edge_text {
	char source[32], target[32], kind[64], counts[256];
	unsigned long line;
};

struct desc {
	struct dcfg_rec_graph g;
	struct edge_text *edges;
	uint32_t *block_image_id;
	uint8_t **block_lens;
	const char *file;
	unsigned long line;
};

static void
die(const struct desc *d, const char *what)
{
	fprintf(stderr, "rec-write: %s:%lu: %s\n", d->file, d->line, what);
	exit(2);
}

static size_t
capacity_for(size_t n)
{
	size_t cap = 16;

	while (cap < n)
		cap *= 2;
	return cap;
}

/*
 * Room for N + 1 entries, where the last call asked for N - 1 + 1: capacities
 * are powers of two, so that a graph of thousands of rows is not copied at
 * each (a realloc a row took 16 s under AddressSanitizer).
 */
static void *
grow(const struct desc *d, void *p, size_t n, size_t size)
{
	if (p != NULL && capacity_for(n + 1) == capacity_for(n))
		return p;
	p = realloc(p, capacity_for(n + 1) * size);
	if (p == NULL)
		die(d, "out of memory");
	return p;
}

static uint64_t
number(const struct desc *d, const char *s)
{
	char *end;
	uint64_t v;

	if (s == NULL)
		die(d, "a number is missing");
	v = strtoull(s, &end, 0);
	if (*end != '\0' && *end != ',')
		die(d, "not a number");
	return v;
}

static void
add_block(struct desc *d, char *save)
{
	struct dcfg_rec_block *b;
	size_t i = d->g.n_blocks, n = 0;
	uint32_t size = 0, last = 0;
	char *image = strtok_r(NULL, " \t", &save), *addr = strtok_r(NULL, " \t", &save);
	char *lens = strtok_r(NULL, " \t", &save), *count = strtok_r(NULL, " \t", &save), *p;

	if (lens == NULL)
		die(d, "block IMAGE_ID ADDR LENS COUNT");
	d->g.blocks = grow(d, d->g.blocks, i + 1, sizeof *d->g.blocks);
	d->block_image_id = grow(d, d->block_image_id, i + 1, sizeof *d->block_image_id);
	d->block_lens = grow(d, d->block_lens, i + 1, sizeof *d->block_lens);
	b = &d->g.blocks[i];
	memset(b, 0, sizeof *b);
	d->block_image_id[i] = (uint32_t)number(d, image);
	b->addr = number(d, addr);
	b->count = number(d, count);
	d->block_lens[i] = malloc(strlen(lens) + 1);
	for (p = lens; p != NULL; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		uint64_t len = number(d, p);
		if (len == 0 || len > 15)
			die(d, "an instruction length is 1 to 15");
		last = size;
		size += (uint32_t)len;
		d->block_lens[i][n++] = (uint8_t)len;
	}
	b->size = size;
	b->n_instrs = (uint32_t)n;
	b->last_offset = last;
	d->g.n_blocks++;
}

static void
read_desc(struct desc *d, FILE *f)
{
	char buf[4096], *save, *word;
	size_t i;

	while (fgets(buf, sizeof buf, f) != NULL) {
		d->line++;
		buf[strcspn(buf, "#\n")] = '\0';
		if ((word = strtok_r(buf, " \t", &save)) == NULL)
			continue;
		if (strcmp(word, "pid") == 0) {
			d->g.pid = number(d, strtok_r(NULL, " \t", &save));
		} else if (strcmp(word, "threads") == 0) {
			d->g.n_threads = (uint32_t)number(d, strtok_r(NULL, " \t", &save));
			d->g.instrs_per_thread = calloc(d->g.n_threads + 1, sizeof *d->g.instrs_per_thread);
		} else if (strcmp(word, "instrs") == 0) {
			for (i = 0; i < d->g.n_threads; i++)
				d->g.instrs_per_thread[i] = number(d, strtok_r(NULL, " \t", &save));
		} else if (strcmp(word, "image") == 0) {
			struct dcfg_rec_image *im;
			d->g.images = grow(d, d->g.images, d->g.n_images + 1, sizeof *d->g.images);
			im = &d->g.images[d->g.n_images++];
			im->id = (uint32_t)number(d, strtok_r(NULL, " \t", &save));
			im->load = number(d, strtok_r(NULL, " \t", &save));
			im->size = number(d, strtok_r(NULL, " \t", &save));
			word = strtok_r(NULL, "", &save);
			im->path = word && strcmp(word, "-") != 0 ? strdup(word) : NULL;
		} else if (strcmp(word, "block") == 0) {
			add_block(d, save);
		} else if (strcmp(word, "edge") == 0) {
			struct edge_text *e;
			d->edges = grow(d, d->edges, d->g.n_edges + 1, sizeof *d->edges);
			e = &d->edges[d->g.n_edges++];
			if (sscanf(save, "%31s %31s %63s %255s", e->source, e->target, e->kind, e->counts) != 4)
				die(d, "edge SOURCE TARGET KIND COUNTS");
			e->line = d->line;
		} else {
			die(d, "unknown line");
		}
	}
}

static uint32_t
node_of(struct desc *d, const char *s)
{
	uint64_t addr;
	size_t lo = 0, hi = d->g.n_blocks;

	if (strcmp(s, "start") == 0)
		return DCFG_REC_START;
	if (strcmp(s, "end") == 0)
		return DCFG_REC_END;
	if (strcmp(s, "unknown") == 0)
		return DCFG_REC_UNKNOWN;
	addr = number(d, s);
	while (lo < hi) {   /* the blocks are by address by now */
		size_t mid = lo + (hi - lo) / 2;
		if (d->g.blocks[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->g.n_blocks && d->g.blocks[lo].addr == addr)
		return d->g.blocks[lo].node;
	die(d, "no block at that address");
	return 0;
}

/* Blocks by address, numbered; their images found; instruction lengths laid out in block order. */
static void
finish(struct desc *d)
{
	size_t i, j, k, at = 0;

	for (i = 1; i < d->g.n_blocks; i++)
		for (j = i; j > 0 && d->g.blocks[j - 1].addr > d->g.blocks[j].addr; j--) {
			struct dcfg_rec_block b = d->g.blocks[j];
			uint8_t *l = d->block_lens[j];
			uint32_t im = d->block_image_id[j];
			d->g.blocks[j] = d->g.blocks[j - 1], d->g.blocks[j - 1] = b;
			d->block_lens[j] = d->block_lens[j - 1], d->block_lens[j - 1] = l;
			d->block_image_id[j] = d->block_image_id[j - 1], d->block_image_id[j - 1] = im;
		}
	for (i = 0; i < d->g.n_blocks; i++)
		d->g.n_insn_lengths += d->g.blocks[i].n_instrs;
	d->g.insn_lengths = malloc(d->g.n_insn_lengths + 1);
	for (i = 0; i < d->g.n_blocks; i++) {
		struct dcfg_rec_block *b = &d->g.blocks[i];
		b->node = (uint32_t)(DCFG_REC_FIRST_BLOCK + i);
		for (k = 0; k < d->g.n_images && d->g.images[k].id != d->block_image_id[i]; k++)
			;
		if (k == d->g.n_images)
			die(d, "a block's image id is no image");
		b->image = (uint32_t)k;
		b->first_insn = (uint32_t)at;
		memcpy(d->g.insn_lengths + at, d->block_lens[i], b->n_instrs);
		at += b->n_instrs;
		free(d->block_lens[i]);
	}
	d->g.edges = calloc(d->g.n_edges + 1, sizeof *d->g.edges);
	for (i = 0; i < d->g.n_edges; i++) {
		struct dcfg_rec_edge *e = &d->g.edges[i];
		const char *p = d->edges[i].counts;
		d->line = d->edges[i].line;
		e->id = (uint32_t)(i + 1);
		e->source = node_of(d, d->edges[i].source);
		e->target = node_of(d, d->edges[i].target);
		e->kind = dcfg_edge_kind_from_name(d->edges[i].kind, strlen(d->edges[i].kind));
		if (e->kind == DCFG_EDGE_OTHER)
			die(d, "unknown edge kind");
		e->count_per_thread = calloc(d->g.n_threads + 1, sizeof *e->count_per_thread);
		for (k = 0; k < d->g.n_threads; k++, p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
			if (p == NULL)
				die(d, "fewer counts than threads");
			e->count_per_thread[k] = number(d, p);
		}
	}
}

int
main(int argc, char **argv)
{
	struct desc d = { .file = argc > 1 ? argv[1] : "-" };
	struct dcfg_output *out = malloc(sizeof *out);
	struct dcfg_error err;
	char msg[1024];
	FILE *f;

	if (argc < 2 || argc > 3 || out == NULL) {
		fprintf(stderr, "usage: rec-write DESCRIPTION [OUTPUT]\n");
		return 2;
	}
	if ((f = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	read_desc(&d, f);
	finish(&d);
	if (dcfg_output_open(out, argc > 2 ? argv[2] : NULL, &err) < 0 ||
	    dcfg_rec_write_dcfg(&d.g, out, &err) < 0 || dcfg_output_close(out, &err) < 0) {
		dcfg_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "rec-write: %s\n", msg);
		return 1;
	}
	dcfg_rec_graph_free(&d.g);
	free(d.edges);
	free(d.block_image_id);
	free(d.block_lens);
	free(out);
	return 0;
}
