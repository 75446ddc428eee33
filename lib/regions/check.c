/*
 * dcfg-regions --check: the whole run projected from the chosen regions
 * (each region's vector times its multiplier) against the whole run the
 * profile holds (the sum of its T lines). Both are made shares of their
 * own total; a block's error is its projected share minus its true share,
 * and the BBV distance the sum of the errors' sizes (dcfg-regions(1),
 * CHECK).
 */
#include "regions_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shares, errors and distances are written with this many decimals. */
#define SHARE_DECIMALS 6
/* Projected instructions: tenths. */
#define INSTR_DECIMALS 1

/* A dimension of the vectors: a block as the T lines number it. */
struct dim {
	uint64_t id, instrs;        /* instrs: in the whole run */
	double projected;           /* the regions' instructions times their multipliers */
	double error;               /* projected share - true share */
};

struct check {
	const struct dcfg_rg_profile *p;
	const struct dcfg_rg_plan *plan;
	struct dim *d;
	size_t n;
	double projected_total;
	double distance;            /* Manhattan, of the two vectors made shares: 0 to 2 */
	uint64_t worst_id;          /* the dimension of the largest error's size */
	double worst;               /* that size */
};

static int
by_id(const void *a, const void *b)
{
	const struct dim *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The rows' order: the most instructions first, as dcfg-count's tables; then by id. */
static int
by_instructions(const void *a, const void *b)
{
	const struct dim *x = a, *y = b;

	if (x->instrs != y->instrs)
		return x->instrs > y->instrs ? -1 : 1;
	return by_id(a, b);
}

static int
by_slice(const void *a, const void *b)
{
	const struct dcfg_rg_kept *x = a, *y = b;

	return x->slice < y->slice ? -1 : x->slice > y->slice;
}

/* Every id of the T lines with its instructions in the whole run, sorted by id. */
static int
whole_run(struct check *c)
{
	const struct dcfg_rg_idset *s = &c->p->seen;
	size_t i;

	c->d = calloc(s->n + 1, sizeof *c->d);
	if (c->d == NULL)
		return -1;
	for (i = 0; i < s->cap; i++)
		if (s->slot[i] != 0)
			c->d[c->n++] = (struct dim){ .id = s->slot[i] - 1, .instrs = s->sum[i] };
	if (c->p->max_id_sum > 0)
		c->d[c->n++] = (struct dim){ .id = UINT64_MAX, .instrs = c->p->max_id_sum };
	if (c->n > 0)
		qsort(c->d, c->n, sizeof *c->d, by_id);
	return 0;
}

/* Each region's vector times its multiplier, added up; then the errors and the distance. */
static void
project(struct check *c)
{
	const struct dcfg_rg_profile *p = c->p;
	size_t i, j;

	for (i = 0; i < c->plan->n; i++) {
		const struct dcfg_rg_region *r = &c->plan->r[i];
		struct dcfg_rg_kept key = { .slice = r->choice->slice };
		const struct dcfg_rg_kept *k = bsearch(&key, p->kept, p->n_kept, sizeof *p->kept, by_slice);
		/* the reader keeps every chosen slice's vector, and every id of it is a dimension */
		for (j = 0; k && j < k->n; j++) {
			struct dim dk = { .id = p->pairs[k->first + j].id };
			struct dim *d = bsearch(&dk, c->d, c->n, sizeof *c->d, by_id);
			if (d)
				d->projected += r->multiplier * (double)p->pairs[k->first + j].value;
		}
		c->projected_total += r->multiplier * (double)p->sums[r->choice->slice];
	}
	for (i = 0; i < c->n; i++) {
		struct dim *d = &c->d[i];
		double projected = c->projected_total > 0 ? d->projected / c->projected_total : 0;
		double size;
		d->error = projected - (double)d->instrs / (double)p->total;
		size = d->error < 0 ? -d->error : d->error;
		c->distance += size;
		if (size > c->worst || i == 0) {
			c->worst = size;
			c->worst_id = d->id;
		}
	}
}

static int
block_by_id(const void *a, const void *b)
{
	const struct dcfg_rg_block *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The block's Block id line, if the profile has one (they are sorted by id). */
static const struct dcfg_rg_block *
block_of(const struct dcfg_rg_profile *p, uint64_t id)
{
	struct dcfg_rg_block key = { .id = id };

	return p->n_blocks ? bsearch(&key, p->blocks, p->n_blocks, sizeof *p->blocks, block_by_id) : NULL;
}

/* The G: line's image loaded nearest below ADDR: the G: lines give no image's end. */
static const struct dcfg_rg_image *
image_of(const struct dcfg_rg_profile *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n_images;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->images[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? &p->images[lo - 1] : NULL;
}

static const struct dcfg_table_column block_columns[] = {
	{ "block", DCFG_COLUMN_NUMBER },
	{ "address", DCFG_COLUMN_TEXT },
	{ "image", DCFG_COLUMN_TEXT },
	{ "offset", DCFG_COLUMN_TEXT },
	{ "instructions", DCFG_COLUMN_NUMBER },
	{ "projected_instructions", DCFG_COLUMN_NUMBER },
	{ "true_share", DCFG_COLUMN_NUMBER },
	{ "projected_share", DCFG_COLUMN_NUMBER },
	{ "share_error", DCFG_COLUMN_NUMBER },
};

static void
hex_cell(struct dcfg_table *t, int known, uint64_t v)
{
	struct dcfg_table_piece h = { known ? DCFG_PIECE_HEX : DCFG_PIECE_TEXT, "-", v };

	dcfg_table_pieces(t, &h, 1);
}

static void
block_row(struct dcfg_table *t, const struct check *c, const struct dim *d)
{
	const struct dcfg_rg_block *b = block_of(c->p, d->id);
	const struct dcfg_rg_image *im = b ? image_of(c->p, b->start) : NULL;
	double total = (double)c->p->total;

	dcfg_table_u64(t, d->id);
	hex_cell(t, b != NULL, b ? b->start : 0);
	dcfg_table_name(t, im ? im->name : "-");
	hex_cell(t, im != NULL, im ? b->start - im->low : 0);
	dcfg_table_u64(t, d->instrs);
	dcfg_table_fixed(t, d->projected, INSTR_DECIMALS);
	dcfg_table_fixed(t, (double)d->instrs / total, SHARE_DECIMALS);
	dcfg_table_fixed(t, (double)d->instrs / total + d->error, SHARE_DECIMALS);
	dcfg_table_fixed(t, d->error, SHARE_DECIMALS);
	dcfg_table_end_row(t);
}

static double
instruction_count_error(const struct check *c)
{
	return (c->projected_total - (double)c->p->total) / (double)c->p->total;
}

/* The thread's figures, the same in every section: what each row of CSV repeats. */
static void
section_fields(struct dcfg_table *t, const struct check *c, const char *table)
{
	dcfg_table_section(t);
	dcfg_table_meta_u64(t, "thread", c->plan->tid);
	dcfg_table_meta_text(t, "table", table);
	dcfg_table_meta_u64(t, "instructions", c->p->total);
	dcfg_table_meta_fixed(t, "projected_instructions", c->projected_total, INSTR_DECIMALS);
	dcfg_table_meta_fixed(t, "instruction_count_error", instruction_count_error(c), SHARE_DECIMALS);
	dcfg_table_meta_fixed(t, "bbv_distance", c->distance, SHARE_DECIMALS);
	dcfg_table_meta_fixed(t, "block_share_error_max", c->worst, SHARE_DECIMALS);
}

/* "thread 3: block share error max 0.012300 (block 4 at 0x401000), BBV distance ..." */
static void
summary(struct dcfg_table *t, const struct check *c)
{
	char text[512], worst[DCFG_TABLE_FIXED_MAX], distance[DCFG_TABLE_FIXED_MAX];
	char count[DCFG_TABLE_FIXED_MAX], zero[DCFG_TABLE_FIXED_MAX];
	const struct dcfg_rg_block *b = block_of(c->p, c->worst_id);
	int n;

	dcfg_table_fixed_text(worst, c->worst, SHARE_DECIMALS);
	dcfg_table_fixed_text(distance, c->distance, SHARE_DECIMALS);
	dcfg_table_fixed_text(count, instruction_count_error(c), SHARE_DECIMALS);
	dcfg_table_fixed_text(zero, 0, SHARE_DECIMALS);
	n = snprintf(text, sizeof text, "thread %llu: block share error max %s",
	    (unsigned long long)c->plan->tid, worst);
	/* the block where it is, unless no block is off at all */
	if (strcmp(worst, zero) != 0 && n > 0 && (size_t)n < sizeof text)
		n += snprintf(text + n, sizeof text - (size_t)n, b ? " (block %llu at 0x%llx)" :
		    " (block %llu)", (unsigned long long)c->worst_id,
		    (unsigned long long)(b ? b->start : 0));
	if (n > 0 && (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n,
		    ", BBV distance %s, instruction count error %s", distance, count);
	dcfg_table_note(t, "summary", text, DCFG_TABLE_END);
}

int
dcfg_rg_check(const struct dcfg_rg_plan *plan, const struct dcfg_rg_profile *p,
    const struct dcfg_regions_options *o, struct dcfg_output *out, struct dcfg_error *err)
{
	struct check c = { .p = p, .plan = plan };
	struct dcfg_table t;
	size_t i;
	int rc;

	if (whole_run(&c) < 0)
		return dcfg_error_set(err, p->path, "out of memory");
	project(&c);
	qsort(c.d, c.n, sizeof *c.d, by_instructions);
	dcfg_table_open(&t, out, o->table_format, "dcfg-regions", 1);
	dcfg_table_meta_u64(&t, "slices", plan->n_slices);
	dcfg_table_meta_u64(&t, "regions", plan->n);
	summary(&t, &c);
	section_fields(&t, &c, "blocks");
	dcfg_table_columns(&t, block_columns, sizeof block_columns / sizeof block_columns[0]);
	for (i = 0; i < c.n; i++)
		block_row(&t, &c, &c.d[i]);
	rc = dcfg_table_close(&t) < 0 ? dcfg_error_set(err, p->path, "out of memory") : 0;
	if (rc == 0 && o->has_max_distance && c.distance > o->max_distance) {
		char d[DCFG_TABLE_FIXED_MAX];
		dcfg_table_fixed_text(d, c.distance, SHARE_DECIMALS);
		dcfg_error_set(err, p->path, "thread %llu: the BBV distance %s is above --max-distance %g",
		    (unsigned long long)plan->tid, d, o->max_distance);
		rc = 1;
	}
	free(c.d);
	return rc;
}
