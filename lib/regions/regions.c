/*
 * Regions from SimPoint's answer and a profile: which markers and vectors
 * each region needs, read in one pass over the profile, then its fields
 * (dcfg-regions(1) says how each is computed).
 */
#include "regions.h"
#include "regions_plan.h"
#include "regions_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Slices are counted below this, so that index + 1 never wraps. */
#define MAX_SLICE ((uint64_t)1 << 62)

static int
by_lo(const void *a, const void *b)
{
	const struct dcfg_rg_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static uint64_t
warm_first(uint64_t slice, uint64_t w)
{
	return slice >= w ? slice - w : 0;
}

/* The markers (WANT) and the slices' vectors (RANGES) the regions need. */
static int
plan_reading(struct dcfg_rg_profile *p, const struct dcfg_rg_answer *a, uint64_t w,
    struct dcfg_error *err)
{
	size_t i, n = 0, k;

	p->want = malloc(3 * a->n * sizeof *p->want);
	p->ranges = malloc(a->n * sizeof *p->ranges);
	if (p->want == NULL || p->ranges == NULL)
		return dcfg_error_set(err, a->sp_path, "out of memory");
	for (i = 0; i < a->n; i++) {
		uint64_t s = a->c[i].slice;
		if (s >= MAX_SLICE)
			return dcfg_error_at(err, a->sp_path, a->c[i].sp_line, 1,
			    "slice %llu is past any profile's slices", (unsigned long long)s);
		p->want[n++] = s;
		p->want[n++] = s + 1;
		if (w > 0 && s > 0)
			p->want[n++] = warm_first(s, w);
		p->ranges[i] = (struct dcfg_rg_range){ w > 0 ? warm_first(s, w) : s, s };
	}
	qsort(p->want, n, sizeof *p->want, dcfg_rg_by_u64);
	for (i = k = 0; i < n; i++)
		if (k == 0 || p->want[k - 1] != p->want[i])
			p->want[k++] = p->want[i];
	p->n_want = k;
	qsort(p->ranges, a->n, sizeof *p->ranges, by_lo);
	for (i = k = 0; i < a->n; i++) {
		if (k > 0 && p->ranges[i].lo <= p->ranges[k - 1].hi + 1) {
			if (p->ranges[i].hi > p->ranges[k - 1].hi)
				p->ranges[k - 1].hi = p->ranges[i].hi;
		} else {
			p->ranges[k++] = p->ranges[i];
		}
	}
	p->n_ranges = k;
	if ((p->m = calloc(p->n_want ? p->n_want : 1, sizeof *p->m)) == NULL)
		return dcfg_error_set(err, a->sp_path, "out of memory");
	return 0;
}

static const struct dcfg_rg_marker *
marker(const struct dcfg_rg_profile *p, uint64_t idx)
{
	const uint64_t *w = bsearch(&idx, p->want, p->n_want, sizeof *p->want, dcfg_rg_by_u64);

	return w && p->m[w - p->want].image ? &p->m[w - p->want] : NULL;
}

/* The executions of PC in slices LO..HI: its blocks' instructions over their static instructions. */
static int
executions(const struct dcfg_rg_profile *p, const struct dcfg_rg_marker *m, uint64_t lo,
    uint64_t hi, uint64_t *n, struct dcfg_error *err)
{
	size_t i, j, b, found = 0;
	int starts = 0;

	/*
	 * The blocks that start at the PC, whose entries the marker counts; or,
	 * when none does (another writer's marker), every block that holds it.
	 */
	for (b = 0; b < p->n_blocks && !starts; b++)
		starts = p->blocks[b].start == m->pc;
	*n = 0;
	for (b = 0; b < p->n_blocks; b++) {
		const struct dcfg_rg_block *blk = &p->blocks[b];
		if (starts ? blk->start != m->pc : blk->start > m->pc || blk->end < m->pc)
			continue;
		found++;
		if (!blk->in_vectors && blk->count != 0 && blk->count != UINT64_MAX)
			return dcfg_error_at(err, p->path, blk->line, 1,
			    "the marker's PC 0x%llx is in block %llu, which ran %llu times but is in no "
			    "T line (an image left out of the vectors): its executions in a region are unknown",
			    (unsigned long long)m->pc, (unsigned long long)blk->id,
			    (unsigned long long)blk->count);
		for (i = 0; i < p->n_kept; i++) {
			const struct dcfg_rg_kept *k = &p->kept[i];
			if (k->slice < lo || k->slice > hi)
				continue;
			for (j = k->first; j < k->first + k->n; j++) {
				if (p->pairs[j].id != blk->id)
					continue;
				if (p->pairs[j].value % blk->instrs != 0)
					return dcfg_error_at(err, p->path, blk->line, 1,
					    "slice %llu gives block %llu %llu instructions, not a multiple of its %llu",
					    (unsigned long long)k->slice, (unsigned long long)blk->id,
					    (unsigned long long)p->pairs[j].value,
					    (unsigned long long)blk->instrs);
				*n += p->pairs[j].value / blk->instrs;
			}
		}
	}
	if (found == 0)
		return dcfg_error_at(err, p->path, m->line, 1,
		    "the marker's PC 0x%llx is in no Block id line", (unsigned long long)m->pc);
	return 0;
}

/*
 * Slices FIRST..LAST, from marker FIRST to marker LAST + 1. The end PC's
 * executions inside them, plus the end marker's own when it is a slice
 * boundary (every marker but the one after the profile's last slice).
 */
static int
span(const struct dcfg_rg_profile *p, const uint64_t *before, uint64_t first, uint64_t last,
    struct dcfg_rg_span *s, struct dcfg_error *err)
{
	s->start = marker(p, first);
	s->end = marker(p, last + 1);
	s->from_run_start = first == 0;
	s->first_slice = first;
	s->slices = last - first + 1;
	s->icount = before[first];
	s->length = before[last + 1] - before[first];
	if (executions(p, s->end, first, last, &s->relative, err) < 0)
		return -1;
	if (last + 1 < p->n_slices && s->relative < UINT64_MAX)
		s->relative++;
	else if (last + 1 < p->n_slices)
		s->relative = 0;   /* 2^64 executions: more than any count, refused below */
	if (s->relative > s->end->count || (s->relative == 0 && last + 1 < p->n_slices))
		return dcfg_error_at(err, p->path, s->end->line, 1,
		    "the vectors give the marker's PC %llu executions since slice %llu, more than its count",
		    (unsigned long long)s->relative, (unsigned long long)first);
	return 0;
}

static int
check_answer(const struct dcfg_rg_answer *a, const struct dcfg_rg_profile *p,
    struct dcfg_error *err)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		const struct dcfg_rg_choice *c = &a->c[i];
#ifdef FUZZ_PLANT_REGIONS
		/* an off-by-one planted for the regions fuzz target to find (README, Fuzzing) */
		if (c->slice > p->n_slices)
#else
		if (c->slice >= p->n_slices)
#endif
			return dcfg_error_at(err, a->sp_path, c->sp_line, 1,
			    "slice %llu is past the profile's last (%s has %zu slices, from 0)",
			    (unsigned long long)c->slice, p->path, p->n_slices);
		if (c->slice + 1 == p->n_slices && p->n_markers == p->n_slices)
			return dcfg_error_at(err, a->sp_path, c->sp_line, 1,
			    "slice %llu is the profile's last, and %s has no marker after it",
			    (unsigned long long)c->slice, p->path);
		if (a->labels && c->slice < a->n_labels && a->labels[c->slice] != c->cluster)
			return dcfg_error_at(err, a->sp_path, c->sp_line, 1,
			    "slice %llu is in cluster %lu in %s, not %llu",
			    (unsigned long long)c->slice, (unsigned long)a->labels[c->slice],
			    a->labels_path, (unsigned long long)c->cluster);
	}
	return 0;
}

static int
by_cluster(const void *a, const void *b)
{
	const struct dcfg_rg_choice *x = a, *y = b;

	return x->cluster < y->cluster ? -1 : x->cluster > y->cluster;
}

static void
cluster_sums(struct dcfg_rg_plan *plan, const struct dcfg_rg_answer *a,
    const struct dcfg_rg_profile *p)
{
	size_t i;

	for (i = 0; i < p->n_slices; i++) {
		struct dcfg_rg_choice key = { .cluster = a->labels[i] };
		const struct dcfg_rg_choice *c = bsearch(&key, a->c, a->n, sizeof *a->c, by_cluster);
		if (c == NULL)
			continue;   /* a cluster SimPoint chose no slice for (-coveragePct) */
		plan->r[c - a->c].cluster_slices++;
		plan->r[c - a->c].cluster_icount += p->sums[i];
	}
}

static int
regions(struct dcfg_rg_plan *plan, const struct dcfg_rg_answer *a,
    const struct dcfg_rg_profile *p, uint64_t w, struct dcfg_error *err)
{
	uint64_t *before;
	size_t i;
	int rc = 0;

	if ((before = malloc((p->n_slices + 1) * sizeof *before)) == NULL ||
	    (plan->r = calloc(a->n, sizeof *plan->r)) == NULL) {
		free(before);
		return dcfg_error_set(err, p->path, "out of memory");
	}
	before[0] = 0;
	for (i = 0; i < p->n_slices; i++)
		before[i + 1] = before[i] + p->sums[i];   /* no wrap: the reader checked the total */
	plan->n = a->n;
	plan->max_cluster = a->c[a->n - 1].cluster;
	if (a->labels)
		cluster_sums(plan, a, p);
	for (i = 0; i < a->n && rc == 0; i++) {
		struct dcfg_rg_region *r = &plan->r[i];
		uint64_t s = a->c[i].slice;
		r->choice = &a->c[i];
		r->id = a->c[i].cluster + 1;
		r->has_cluster_sums = a->labels != NULL;
		r->multiplier = a->labels ? (double)r->cluster_icount / (double)p->total *
		    (double)p->n_slices : a->c[i].weight * (double)p->n_slices;
		rc = span(p, before, s, s, &r->sim, err);
		if (rc == 0 && w > 0) {
			r->warmup = s > 0 ? 1 : -1;
			r->warm_id = r->id + plan->max_cluster + 2;
			if (s > 0)
				rc = span(p, before, warm_first(s, w), s - 1, &r->warm, err);
		}
	}
	free(before);
	return rc;
}

int
dcfg_regions_format_by_name(const char *name, enum dcfg_regions_format *f)
{
	static const char *const names[] = { "csv", "looppoint-json", "sde-control" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0) {
			*f = (enum dcfg_regions_format)i;
			return 0;
		}
	return -1;
}

static void
note_last_slices(const struct dcfg_rg_plan *plan, const struct dcfg_regions_options *o)
{
	char msg[256];
	size_t i;

	for (i = 0; i < plan->n && o->note; i++)
		if (plan->r[i].choice->slice + 1 == plan->n_slices) {
			snprintf(msg, sizeof msg, "region %llu is the profile's last slice: it ends where "
			    "the thread's last block starts, the profile's last marker",
			    (unsigned long long)plan->r[i].id);
			o->note(o->note_ctx, msg);
		}
}

/* Adds M to the markers the output counts to, unless its count is 0 (the start of the run). */
static void
counted(const struct dcfg_rg_marker **m, size_t *n, const struct dcfg_rg_marker *marker,
    uint64_t written_count)
{
	if (written_count > 0)
		m[(*n)++] = marker;
}

/*
 * A count that every thread adds to (sde-control's :global, gem5's) is
 * the thread's own only when no other thread runs the PC: the DCFG shows
 * it for every marker written, or the output is refused.
 */
static int
prove_counts(const struct dcfg_rg_plan *plan, const struct dcfg_rg_source *src,
    const struct dcfg_regions_options *o, struct dcfg_error *err)
{
	const struct dcfg_rg_marker **m;
	const char *why;
	size_t i, n = 0;
	int rc;

	if (o->format == DCFG_REGIONS_LOOPPOINT_JSON)
		why = "gem5 counts every core's executions (looppoint-json has no thread)";
	else if (o->format == DCFG_REGIONS_SDE_CONTROL && o->global_counts)
		why = "--global-counts writes :global, which counts every thread's";
	else
		return 0;
	if ((m = malloc(4 * plan->n * sizeof *m + 1)) == NULL)
		return dcfg_error_set(err, plan->inputs[0], "out of memory");
	for (i = 0; i < plan->n; i++) {
		const struct dcfg_rg_region *r = &plan->r[i];
		counted(m, &n, r->sim.start, r->sim.from_run_start ? 0 : r->sim.start->count);
		counted(m, &n, r->sim.end, r->sim.end->count);
		if (r->warmup > 0 && o->format == DCFG_REGIONS_LOOPPOINT_JSON) {
			counted(m, &n, r->warm.start, r->warm.from_run_start ? 0 : r->warm.start->count);
			counted(m, &n, r->warm.end, r->warm.end->count);
		}
	}
	rc = dcfg_rg_only_thread(src, m, n, plan->inputs[0], why, err);
	free(m);
	return rc;
}

int
dcfg_regions_run(const struct dcfg_regions_files *files,
    const struct dcfg_regions_options *o, struct dcfg_output *out, struct dcfg_error *err)
{
	const char *inputs[4] = { files->profile, files->simpoints, files->weights, files->labels };
	struct dcfg_rg_answer a;
	struct dcfg_rg_profile p = { .read_images = o->check };
	struct dcfg_rg_plan plan = { .warmup_factor = o->warmup_factor, .inputs = inputs };
	struct dcfg_rg_source src;
	int rc = -1;

	if (dcfg_rg_answer_read(&a, files->simpoints, files->weights, files->labels, err) < 0)
		goto done;
	if (plan_reading(&p, &a, o->warmup_factor, err) < 0 ||
	    dcfg_rg_profile_read(&p, files->profile, err) < 0 || check_answer(&a, &p, err) < 0)
		goto done;
	if (a.labels && a.n_labels != p.n_slices) {
		dcfg_error_at(err, files->labels, a.n_labels < p.n_slices ? a.n_labels + 1 : p.n_slices + 1,
		    1, "%zu labels for the %zu slices of %s", a.n_labels, p.n_slices, files->profile);
		goto done;
	}
	if (p.total == 0) {
		dcfg_error_set(err, files->profile, "the T lines hold no instruction");
		goto done;
	}
	if (dcfg_rg_source_of(&src, &p, o, files->dcfg, err) < 0)
		goto done;
	plan.tid = src.tid;
	plan.global = o->global_counts;
	plan.n_slices = p.n_slices;
	plan.total = p.total;
	if (regions(&plan, &a, &p, o->warmup_factor, err) < 0 ||
	    prove_counts(&plan, &src, o, err) < 0)
		goto done;
	note_last_slices(&plan, o);
	rc = o->check ? dcfg_rg_check(&plan, &p, &src, o, out, err) : dcfg_rg_write(&plan, (int)o->format, out);
done:
	free(plan.r);
	dcfg_rg_profile_free(&p);
	dcfg_rg_answer_free(&a);
	return rc;
}
