/*
 * Dynamic blocks from translation blocks. Every translation block's
 * start is a block start, and so is its end: a translation block that
 * holds another's start or end (at one of its own instruction
 * boundaries) is cut there, so each executed instruction is in exactly
 * one block, and one translation block's execution is a chain of blocks
 * joined by fall-throughs.
 */
#include "build.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct piece {
	uint64_t addr;
	uint32_t size, n_instrs;
	uint32_t first_len;      /* into the spool's lengths */
	uint32_t tb;             /* UINT32_MAX: not its translation block's last piece */
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
has_cut(const uint64_t *cuts, size_t n, uint64_t addr)
{
	return bsearch(&addr, cuts, n, sizeof *cuts, cmp_u64) != NULL;
}

/* Sorted, distinct: every translation block's start and end. */
static uint64_t *
cut_points(const struct rec_spool *s, size_t *n)
{
	uint64_t *cuts = malloc((2 * s->n_tbs + 1) * sizeof *cuts);
	size_t i, k = 0;

	if (cuts == NULL)
		return NULL;
	for (i = 0; i < s->n_tbs; i++) {
		cuts[k++] = s->tbs[i].pc;
		cuts[k++] = s->tbs[i].pc + s->tbs[i].size;
	}
	qsort(cuts, k, sizeof *cuts, cmp_u64);
	*n = 0;
	for (i = 0; i < k; i++)
		if (*n == 0 || cuts[*n - 1] != cuts[i])
			cuts[(*n)++] = cuts[i];
	return cuts;
}

/* The pieces of every translation block in order; b->tb_first_piece set. */
static struct piece *
cut_tbs(struct rec_build *b, const uint64_t *cuts, size_t n_cuts, size_t *n_pieces)
{
	const struct rec_spool *s = b->s;
	struct piece *p = malloc((s->n_lengths + 1) * sizeof *p);
	size_t t, k = 0;

	if (p == NULL)
		return NULL;
	for (t = 0; t < s->n_tbs; t++) {
		const struct rec_tb *tb = &s->tbs[t];
		uint64_t addr = tb->pc;
		uint32_t i;
		b->tb_first_piece[t] = (uint32_t)k;
		p[k] = (struct piece){ addr, 0, 0, tb->first_len, UINT32_MAX };
		for (i = 0; i < tb->n_insns; i++) {
			uint8_t len = s->lengths[tb->first_len + i];
			if (i > 0 && has_cut(cuts, n_cuts, addr)) {
				k++;
				p[k] = (struct piece){ addr, 0, 0, tb->first_len + i, UINT32_MAX };
			}
			p[k].size += len;
			p[k].n_instrs++;
			addr += len;
		}
		p[k++].tb = (uint32_t)t;
	}
	b->tb_first_piece[s->n_tbs] = (uint32_t)k;
	*n_pieces = k;
	return p;
}

/* A piece's key, sorted to find the distinct blocks. */
struct piece_key {
	uint64_t addr;
	uint32_t size, n_instrs, piece;
};

static int
cmp_key(const void *a, const void *b)
{
	const struct piece_key *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->n_instrs < y->n_instrs ? -1 : x->n_instrs > y->n_instrs;
}

/* The distinct pieces become the graph's blocks, by address; piece_block maps pieces to them. */
static int
make_blocks(struct rec_build *b, const struct piece *p, size_t n_pieces)
{
	struct dcfg_rec_graph *g = b->g;
	struct piece_key *keys = malloc((n_pieces + 1) * sizeof *keys);
	size_t i, n = 0, n_len = 0;

	b->piece_block = malloc((n_pieces + 1) * sizeof *b->piece_block);
	g->blocks = malloc((n_pieces + 1) * sizeof *g->blocks);
	g->insn_lengths = malloc(b->s->n_lengths + 1);
	if (keys == NULL || b->piece_block == NULL || g->blocks == NULL || g->insn_lengths == NULL) {
		free(keys);
		return -1;
	}
	for (i = 0; i < n_pieces; i++)
		keys[i] = (struct piece_key){ p[i].addr, p[i].size, p[i].n_instrs, (uint32_t)i };
	qsort(keys, n_pieces, sizeof *keys, cmp_key);
	for (i = 0; i < n_pieces; i++) {
		const struct piece *q = &p[keys[i].piece];
		if (n == 0 || cmp_key(&keys[i - 1], &keys[i]) != 0) {
			struct dcfg_rec_block *blk = &g->blocks[n++];
			uint32_t k, off = 0;
			memset(blk, 0, sizeof *blk);
			blk->node = DCFG_REC_FIRST_BLOCK + (uint32_t)(n - 1);
			blk->addr = q->addr;
			blk->size = q->size;
			blk->n_instrs = q->n_instrs;
			blk->first_insn = (uint32_t)n_len;
			for (k = 0; k < q->n_instrs; k++) {
				uint8_t len = b->s->lengths[q->first_len + k];
				g->insn_lengths[n_len++] = len;
				if (k + 1 < q->n_instrs)
					off += len;
			}
			blk->last_offset = off;
		}
		b->piece_block[keys[i].piece] = (uint32_t)(n - 1);
	}
	g->n_blocks = n;
	g->n_insn_lengths = n_len;
	free(keys);
	return 0;
}

/* Each block's last instruction, from a translation block it ends (else it cannot transfer). */
static int
classify_blocks(struct rec_build *b, const struct piece *p, size_t n_pieces)
{
	const struct dcfg_rec_graph *g = b->g;
	size_t i;

	if ((b->insn = calloc(g->n_blocks + 1, sizeof *b->insn)) == NULL)
		return -1;
	for (i = 0; i < n_pieces; i++) {
		const struct rec_tb *tb;
		const struct dcfg_rec_block *blk;
		uint64_t last;
		if (p[i].tb == UINT32_MAX)
			continue;
		tb = &b->s->tbs[p[i].tb];
		blk = &g->blocks[b->piece_block[i]];
		last = blk->addr + blk->last_offset;
		if (g->arch == DCFG_REC_AARCH64)
			rec_classify_aarch64(tb->last, tb->last_len, last, &b->insn[b->piece_block[i]]);
		else
			rec_classify_x86_64(tb->last, tb->last_len,
			    b->s->lengths[tb->first_len + tb->n_insns - 1], last,
			    &b->insn[b->piece_block[i]]);
	}
	return 0;
}

static int
same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static int
add_image(struct dcfg_rec_graph *g, uint64_t load, uint64_t size, const char *path)
{
	struct dcfg_rec_image *im = &g->images[g->n_images];

	im->id = (uint32_t)g->n_images + 1;
	im->load = load;
	im->size = size;
	im->path = NULL;
	if (path != NULL && (im->path = strdup(path)) == NULL)
		return -1;
	g->n_images++;
	return 0;
}

static int
image_of(const struct dcfg_rec_graph *g, uint64_t addr, size_t n_images)
{
	size_t i;

	for (i = 0; i < n_images; i++)
		if (addr >= g->images[i].load && addr - g->images[i].load < g->images[i].size)
			return (int)i;
	return -1;
}

/*
 * The spool's images, the program's first, and each block's. Blocks in
 * no image (code the plugin saw no mapping for) share one anonymous
 * image that spans them.
 */
static int
assign_images(struct rec_build *b, const char *program_path)
{
	const struct rec_spool *s = b->s;
	struct dcfg_rec_graph *g = b->g;
	size_t i, prog = SIZE_MAX;
	uint64_t lo = UINT64_MAX, hi = 0;

	if ((g->images = calloc(s->n_images + 2, sizeof *g->images)) == NULL)
		return -1;
	for (i = 0; program_path != NULL && i < s->n_images && prog == SIZE_MAX; i++)
		if (s->images[i].path != NULL && same_file(s->images[i].path, program_path))
			prog = i;
	if (prog != SIZE_MAX && add_image(g, s->images[prog].load, s->images[prog].size,
	    s->images[prog].path) < 0)
		return -1;
	for (i = 0; i < s->n_images; i++)
		if (i != prog && add_image(g, s->images[i].load, s->images[i].size,
		    s->images[i].path) < 0)
			return -1;
	for (i = 0; i < g->n_blocks; i++) {
		int im = image_of(g, g->blocks[i].addr, s->n_images);
		if (im < 0) {
			lo = g->blocks[i].addr < lo ? g->blocks[i].addr : lo;
			hi = g->blocks[i].addr + g->blocks[i].size > hi ?
			    g->blocks[i].addr + g->blocks[i].size : hi;
			g->blocks[i].image = (uint32_t)s->n_images;
		} else {
			g->blocks[i].image = (uint32_t)im;
		}
	}
	if (lo != UINT64_MAX && add_image(g, lo, hi - lo, NULL) < 0)
		return -1;
	return 0;
}

int
rec_blocks_build(struct rec_build *b, const char *program_path, struct dcfg_error *err)
{
	const struct rec_spool *s = b->s;
	uint64_t *cuts;
	struct piece *pieces = NULL;
	size_t n_cuts, n_pieces;
	int rc = -1;

	b->g->pid = s->pid;
	b->g->arch = s->arch;
	b->g->n_threads = s->n_threads;
	if ((b->g->instrs_per_thread = calloc(s->n_threads + 1, sizeof *b->g->instrs_per_thread)) == NULL)
		return dcfg_error_set(err, s->dir, "out of memory");
	if ((cuts = cut_points(s, &n_cuts)) == NULL ||
	    (b->tb_first_piece = malloc((s->n_tbs + 1) * sizeof *b->tb_first_piece)) == NULL ||
	    (pieces = cut_tbs(b, cuts, n_cuts, &n_pieces)) == NULL ||
	    make_blocks(b, pieces, n_pieces) < 0 || classify_blocks(b, pieces, n_pieces) < 0 ||
	    assign_images(b, program_path) < 0)
		dcfg_error_set(err, s->dir, "out of memory");
	else
		rc = 0;
	free(cuts);
	free(pieces);
	return rc;
}
