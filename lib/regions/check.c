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

#define SHARE_DECIMALS DCFG_RG_SHARE_DECIMALS
#define INSTR_DECIMALS DCFG_RG_INSTR_DECIMALS

struct check {
	const struct dcfg_rg_profile *p;
	const struct dcfg_rg_plan *plan;
	struct dcfg_rg_share *d;    /* the blocks */
	size_t n;
	double projected_total;
	double distance;            /* Manhattan, of the two vectors made shares: 0 to 2 */
	size_t worst;               /* the first block of the largest error's size */
	struct dcfg_rg_routines rt; /* with --dcfg */
	int routines;
};

static int
by_id(const void *a, const void *b)
{
	const struct dcfg_rg_share *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int
dcfg_rg_share_order(const void *a, const void *b)
{
	const struct dcfg_rg_share *x = a, *y = b;

	if (x->instrs != y->instrs)
		return x->instrs > y->instrs ? -1 : 1;
	return by_id(a, b);
}

void
dcfg_rg_share_errors(struct dcfg_rg_share *s, size_t n, uint64_t total, double projected,
    double *distance, size_t *worst)
{
	double largest = -1;
	size_t i;

	*distance = 0;
	*worst = 0;
	for (i = 0; i < n; i++) {
		double size;
		s[i].error = (projected > 0 ? s[i].projected / projected : 0) -
		    (double)s[i].instrs / (double)total;
		size = s[i].error < 0 ? -s[i].error : s[i].error;
		*distance += size;
		if (size > largest) {
			largest = size;
			*worst = i;
		}
	}
}

void
dcfg_rg_share_cells(struct dcfg_table *t, const struct dcfg_rg_share *s, uint64_t total)
{
	double share = (double)s->instrs / (double)total;

	dcfg_table_u64(t, s->instrs);
	dcfg_table_fixed(t, s->projected, INSTR_DECIMALS);
	dcfg_table_fixed(t, share, SHARE_DECIMALS);
	dcfg_table_fixed(t, share + s->error, SHARE_DECIMALS);
	dcfg_table_fixed(t, s->error, SHARE_DECIMALS);
	dcfg_table_end_row(t);
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
			c->d[c->n++] = (struct dcfg_rg_share){ .id = s->slot[i] - 1, .instrs = s->sum[i] };
	if (c->p->max_id_sum > 0)
		c->d[c->n++] = (struct dcfg_rg_share){ .id = UINT64_MAX, .instrs = c->p->max_id_sum };
	if (c->n > 0)
		qsort(c->d, c->n, sizeof *c->d, by_id);
	return 0;
}

/* Each region's vector times its multiplier, added up into the blocks (sorted by id). */
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
			struct dcfg_rg_share dk = { .id = p->pairs[k->first + j].id };
			struct dcfg_rg_share *d = bsearch(&dk, c->d, c->n, sizeof *c->d, by_id);
			if (d)
				d->projected += r->multiplier * (double)p->pairs[k->first + j].value;
		}
		c->projected_total += r->multiplier * (double)p->sums[r->choice->slice];
	}
}

static int
block_by_id(const void *a, const void *b)
{
	const struct dcfg_rg_block *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

const struct dcfg_rg_block *
dcfg_rg_block_of(const struct dcfg_rg_profile *p, uint64_t id)
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

static void
hex_cell(struct dcfg_table *t, int known, uint64_t v)
{
	struct dcfg_table_piece h = { known ? DCFG_PIECE_HEX : DCFG_PIECE_TEXT, "-", v };

	dcfg_table_pieces(t, &h, 1);
}

static void
block_row(struct dcfg_table *t, const struct check *c, const struct dcfg_rg_share *d)
{
	const struct dcfg_rg_block *b = dcfg_rg_block_of(c->p, d->id);
	const struct dcfg_rg_image *im = b ? image_of(c->p, b->start) : NULL;

	dcfg_table_u64(t, d->id);
	hex_cell(t, b != NULL, b ? b->start : 0);
	dcfg_table_name(t, im ? im->name : "-");
	hex_cell(t, im != NULL, im ? b->start - im->low : 0);
	dcfg_rg_share_cells(t, d, c->p->total);
}

static double
size_of(double error)
{
	return error < 0 ? -error : error;
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
	dcfg_table_meta_fixed(t, "block_share_error_max", size_of(c->d[c->worst].error), SHARE_DECIMALS);
	if (c->routines) {
		dcfg_table_meta_fixed(t, "routine_distance", c->rt.distance, SHARE_DECIMALS);
		dcfg_table_meta_fixed(t, "routine_share_error_max", size_of(c->rt.r[c->rt.worst].error),
		    SHARE_DECIMALS);
	}
}

/* TEXT (SIZE bytes) with more appended, cut to fit. */
static void
append(char *text, size_t size, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(text);

	if (n < size)
		snprintf(text + n, size - n, fmt, a, b);
}

/*
 * "thread 3: block share error max 0.012300 (block 4 at 0x401000), BBV
 * distance 0.021000, instruction count error -0.004000[, routine share
 * error max 0.010000 (main), routine distance 0.015000]"; where the
 * largest error is, unless nothing is off.
 */
static void
summary(struct dcfg_table *t, const struct check *c)
{
	char text[1024], figure[DCFG_TABLE_FIXED_MAX], zero[DCFG_TABLE_FIXED_MAX], where[512];
	const struct dcfg_rg_share *w = &c->d[c->worst];
	const struct dcfg_rg_block *b = dcfg_rg_block_of(c->p, w->id);

	dcfg_table_fixed_text(zero, 0, SHARE_DECIMALS);
	snprintf(text, sizeof text, "thread %llu: ", (unsigned long long)c->plan->tid);
	dcfg_table_fixed_text(figure, size_of(w->error), SHARE_DECIMALS);
	where[0] = '\0';
	if (strcmp(figure, zero) != 0)
		snprintf(where, sizeof where, b ? " (block %llu at 0x%llx)" : " (block %llu)",
		    (unsigned long long)w->id, (unsigned long long)(b ? b->start : 0));
	append(text, sizeof text, "block share error max %s%s", figure, where);
	dcfg_table_fixed_text(figure, c->distance, SHARE_DECIMALS);
	append(text, sizeof text, ", BBV distance %s%s", figure, "");
	dcfg_table_fixed_text(figure, instruction_count_error(c), SHARE_DECIMALS);
	append(text, sizeof text, ", instruction count error %s%s", figure, "");
	if (c->routines) {
		dcfg_table_fixed_text(figure, size_of(c->rt.r[c->rt.worst].error), SHARE_DECIMALS);
		where[0] = '\0';
		if (strcmp(figure, zero) != 0) {
			strcpy(where, " (");
			dcfg_rg_routine_name(&c->rt, c->rt.worst, where + 2, sizeof where - 3);
			strcat(where, ")");
		}
		append(text, sizeof text, ", routine share error max %s%s", figure, where);
		dcfg_table_fixed_text(figure, c->rt.distance, SHARE_DECIMALS);
		append(text, sizeof text, ", routine distance %s%s", figure, "");
	}
	dcfg_table_note(t, "summary", text, DCFG_TABLE_END);
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

static int
write_table(struct check *c, const struct dcfg_regions_options *o, struct dcfg_output *out)
{
	struct dcfg_table t;
	size_t i;

	dcfg_table_open(&t, out, o->table_format, "dcfg-regions", 1);
	dcfg_table_meta_u64(&t, "slices", c->plan->n_slices);
	dcfg_table_meta_u64(&t, "regions", c->plan->n);
	summary(&t, c);
	section_fields(&t, c, "blocks");
	dcfg_table_columns(&t, block_columns, sizeof block_columns / sizeof block_columns[0]);
	for (i = 0; i < c->n; i++)
		block_row(&t, c, &c->d[i]);
	if (c->routines) {
		section_fields(&t, c, "routines");
		dcfg_rg_routines_write(&t, &c->rt, c->p->total);
	}
	return dcfg_table_close(&t);
}

int
dcfg_rg_check(const struct dcfg_rg_plan *plan, const struct dcfg_rg_profile *p,
    const struct dcfg_rg_source *src, const struct dcfg_regions_options *o,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct check c = { .p = p, .plan = plan, .routines = src->d != NULL };
	int rc = -1;

	if (whole_run(&c) < 0) {
		dcfg_error_set(err, p->path, "out of memory");
		goto done;
	}
	project(&c);
	if (c.routines && dcfg_rg_routines_of(&c.rt, src, p, c.d, c.n, c.projected_total, err) < 0)
		goto done;
	qsort(c.d, c.n, sizeof *c.d, dcfg_rg_share_order);
	dcfg_rg_share_errors(c.d, c.n, p->total, c.projected_total, &c.distance, &c.worst);
	if (write_table(&c, o, out) < 0) {
		dcfg_error_set(err, p->path, "out of memory");
		goto done;
	}
	rc = 0;
	if (o->has_max_distance && c.distance > o->max_distance) {
		char d[DCFG_TABLE_FIXED_MAX];
		dcfg_table_fixed_text(d, c.distance, SHARE_DECIMALS);
		dcfg_error_set(err, p->path, "thread %llu: the BBV distance %s is above --max-distance %g",
		    (unsigned long long)plan->tid, d, o->max_distance);
		rc = 1;
	}
done:
	if (c.routines)
		dcfg_rg_routines_free(&c.rt);
	free(c.d);
	return rc;
}
