/*
 * The three outputs of dcfg-regions: the region CSV of PinPoints and
 * LoopPoint, gem5's looppoint.json, SDE's -control arguments. Names are
 * written as words that no reader splits (" ," escaped).
 */
#include "regions.h"
#include "regions_plan.h"

#include <stdio.h>

static const char header[] =
    "# comment,thread-id,region-id,start-pc, start-image-name, start-image-offset, "
    "start-pc-count,end-pc, end-image-name, end-image-offset, end-pc-count,"
    "end-pc-relative-count, region-length, region-weight, region-multiplier, region-type\n";

static void
word(struct dcfg_output *out, const char *s)
{
	dcfg_out_escaped_word(out, s, " ,");
}

static void
fixed(struct dcfg_output *out, double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.*f", decimals, v);
	dcfg_out_str(out, buf);
}

static uint64_t
start_count(const struct dcfg_rg_span *s)
{
	return s->from_run_start ? 0 : s->start->count;
}

static uint64_t
offset(const struct dcfg_rg_marker *m)
{
	return m->in_image ? m->offset : 0;
}

/* 0xPC,IMAGE,0xOFFSET,COUNT */
static void
marker_fields(struct dcfg_output *out, const struct dcfg_rg_marker *m, uint64_t count)
{
	dcfg_out_hex(out, m->pc);
	dcfg_out_char(out, ',');
	word(out, m->image);
	dcfg_out_char(out, ',');
	dcfg_out_hex(out, offset(m));
	dcfg_out_char(out, ',');
	dcfg_out_u64(out, count);
}

static void
marker_comment(struct dcfg_output *out, const char *what, const struct dcfg_rg_marker *m,
    uint64_t count, const uint64_t *relative)
{
	dcfg_out_str(out, what);
	dcfg_out_str(out, " pc : ");
	dcfg_out_hex(out, m->pc);
	dcfg_out_str(out, " image: ");
	word(out, m->image);
	dcfg_out_str(out, " offset: ");
	dcfg_out_hex(out, offset(m));
	dcfg_out_str(out, " absolute_count: ");
	dcfg_out_u64(out, count);
	if (relative) {
		dcfg_out_str(out, "  relative_count: ");
		dcfg_out_u64(out, *relative);
		dcfg_out_str(out, " source-info: ");
	} else {
		dcfg_out_str(out, "  source-info: ");
	}
	word(out, m->source);
	dcfg_out_char(out, '\n');
}

static void
span_comments(struct dcfg_output *out, const struct dcfg_rg_span *s)
{
	marker_comment(out, "#Start:", s->start, start_count(s), NULL);
	marker_comment(out, "#End:", s->end, s->end->count, &s->relative);
}

/* ,TID,ID,start...,end...,RELATIVE,LENGTH, */
static void
span_fields(struct dcfg_output *out, const struct dcfg_rg_plan *plan, uint64_t id,
    const struct dcfg_rg_span *s)
{
	dcfg_out_char(out, ',');
	dcfg_out_u64(out, plan->tid);
	dcfg_out_char(out, ',');
	dcfg_out_u64(out, id);
	dcfg_out_char(out, ',');
	marker_fields(out, s->start, start_count(s));
	dcfg_out_char(out, ',');
	marker_fields(out, s->end, s->end->count);
	dcfg_out_char(out, ',');
	dcfg_out_u64(out, s->relative);
	dcfg_out_char(out, ',');
	dcfg_out_u64(out, s->length);
	dcfg_out_char(out, ',');
}

static void
region_head(struct dcfg_output *out, uint64_t id, const struct dcfg_rg_span *s)
{
	dcfg_out_str(out, "# RegionId = ");
	dcfg_out_u64(out, id);
	dcfg_out_str(out, " Slice = ");
	dcfg_out_u64(out, s->first_slice);
	dcfg_out_str(out, " Icount = ");
	dcfg_out_u64(out, s->icount);
	dcfg_out_str(out, " Length = ");
	dcfg_out_u64(out, s->length);
}

static void
simulation(struct dcfg_output *out, const struct dcfg_rg_plan *plan, const struct dcfg_rg_region *r)
{
	region_head(out, r->id, &r->sim);
	dcfg_out_str(out, " Weight = ");
	fixed(out, r->choice->weight, 5);
	dcfg_out_str(out, " Multiplier = ");
	fixed(out, r->multiplier, 3);
	if (r->has_cluster_sums) {
		dcfg_out_str(out, " ClusterSlicecount = ");
		dcfg_out_u64(out, r->cluster_slices);
		dcfg_out_str(out, " ClusterIcount = ");
		dcfg_out_u64(out, r->cluster_icount);
	}
	dcfg_out_char(out, '\n');
	span_comments(out, &r->sim);
	dcfg_out_str(out, "cluster ");
	dcfg_out_u64(out, r->choice->cluster);
	dcfg_out_str(out, " from slice ");
	dcfg_out_u64(out, r->choice->slice);
	span_fields(out, plan, r->id, &r->sim);
	fixed(out, r->choice->weight, 5);
	dcfg_out_char(out, ',');
	fixed(out, r->multiplier, 3);
	dcfg_out_str(out, ",simulation\n\n");
}

static void
warmup(struct dcfg_output *out, const struct dcfg_rg_plan *plan, const struct dcfg_rg_region *r)
{
	if (r->warmup < 0) {
		dcfg_out_str(out, "# No warmup possible for regionid ");
		dcfg_out_u64(out, r->id);
		dcfg_out_str(out, " with WarmupFactor ");
		dcfg_out_u64(out, plan->warmup_factor);
		dcfg_out_str(out, "\n\n");
		return;
	}
	region_head(out, r->warm_id, &r->warm);
	dcfg_out_str(out, " WarmupFactor = ");
	dcfg_out_u64(out, r->warm.slices);
	dcfg_out_char(out, '\n');
	span_comments(out, &r->warm);
	dcfg_out_str(out, "Warmup for regionid ");
	dcfg_out_u64(out, r->id);
	span_fields(out, plan, r->warm_id, &r->warm);
	dcfg_out_str(out, "0.00000,0.000,warmup:");
	dcfg_out_u64(out, r->id);
	dcfg_out_str(out, "\n\n");
}

static void
csv(const struct dcfg_rg_plan *plan, struct dcfg_output *out)
{
	uint64_t total = 0;
	size_t i;

	dcfg_out_str(out, "# Regions based on:");
	for (i = 0; i < 4; i++)
		if (plan->inputs[i]) {
			dcfg_out_char(out, ' ');
			word(out, plan->inputs[i]);
		}
	dcfg_out_char(out, '\n');
	dcfg_out_str(out, header);
	dcfg_out_char(out, '\n');
	for (i = 0; i < plan->n; i++) {
		simulation(out, plan, &plan->r[i]);
		total += plan->r[i].sim.length;
	}
	for (i = 0; i < plan->n; i++)
		if (plan->r[i].warmup != 0)
			warmup(out, plan, &plan->r[i]);
	dcfg_out_str(out, "# Total instructions in ");
	dcfg_out_u64(out, plan->n);
	dcfg_out_str(out, " regions = ");
	dcfg_out_u64(out, total);
	dcfg_out_str(out, "\n# Total instructions in workload = ");
	dcfg_out_u64(out, plan->total);
	dcfg_out_str(out, "\n# Total slices in workload = ");
	dcfg_out_u64(out, plan->n_slices);
	dcfg_out_char(out, '\n');
}

static void
json_pair(struct dcfg_output *out, const char *name, const struct dcfg_rg_marker *m,
    const char *count_key, uint64_t count, const uint64_t *relative)
{
	dcfg_out_char(out, '"');
	dcfg_out_str(out, name);
	dcfg_out_str(out, "\": {\"pc\": ");
	dcfg_out_u64(out, m->pc);
	dcfg_out_str(out, ", \"");
	dcfg_out_str(out, count_key);
	dcfg_out_str(out, "\": ");
	dcfg_out_u64(out, count);
	if (relative) {
		dcfg_out_str(out, ", \"relative\": ");
		dcfg_out_u64(out, *relative);
	}
	dcfg_out_char(out, '}');
}

static void
json(const struct dcfg_rg_plan *plan, struct dcfg_output *out)
{
	size_t i;

	dcfg_out_char(out, '{');
	for (i = 0; i < plan->n; i++) {
		const struct dcfg_rg_region *r = &plan->r[i];
		dcfg_out_str(out, i ? ",\n  \"" : "\n  \"");
		dcfg_out_u64(out, r->id);
		dcfg_out_str(out, "\": {\"simulation\": {");
		json_pair(out, "start", r->sim.start, "global", start_count(&r->sim), NULL);
		dcfg_out_str(out, ", ");
		json_pair(out, "end", r->sim.end, "global", r->sim.end->count, &r->sim.relative);
		dcfg_out_str(out, "}, \"multiplier\": ");
		fixed(out, r->multiplier, 3);
		if (r->warmup > 0) {
			dcfg_out_str(out, ", \"warmup\": {");
			json_pair(out, "start", r->warm.start, "count", start_count(&r->warm), NULL);
			dcfg_out_str(out, ", ");
			json_pair(out, "end", r->warm.end, "count", r->warm.end->count, NULL);
			dcfg_out_char(out, '}');
		}
		dcfg_out_char(out, '}');
	}
	dcfg_out_str(out, "\n}\n");
}

/*
 * start:address:IMAGE+0xOFFSET:countN:tidT (an absolute 0xPC outside every
 * image): the count of Pin's controller is thread T's own; :global (proven
 * by the DCFG) counts every thread's.
 */
static void
control(struct dcfg_output *out, const struct dcfg_rg_plan *plan, const char *action,
    const struct dcfg_rg_marker *m, uint64_t count)
{
	dcfg_out_str(out, "-control ");
	dcfg_out_str(out, action);
	dcfg_out_str(out, ":address:");
	if (m->in_image) {
		word(out, m->image);
		dcfg_out_char(out, '+');
		dcfg_out_hex(out, m->offset);
	} else {
		dcfg_out_hex(out, m->pc);
	}
	dcfg_out_str(out, ":count");
	dcfg_out_u64(out, count);
	if (plan->global) {
		dcfg_out_str(out, ":global");
	} else {
		dcfg_out_str(out, ":tid");
		dcfg_out_u64(out, plan->tid);
	}
}

static void
sde(const struct dcfg_rg_plan *plan, struct dcfg_output *out)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		const struct dcfg_rg_span *s = &plan->r[i].sim;
		if (!s->from_run_start) {
			control(out, plan, "start", s->start, s->start->count);
			dcfg_out_char(out, ' ');
		}
		control(out, plan, "stop", s->end, s->end->count);
		dcfg_out_char(out, '\n');
	}
}

int
dcfg_rg_write(const struct dcfg_rg_plan *plan, int format, struct dcfg_output *out)
{
	switch ((enum dcfg_regions_format)format) {
	case DCFG_REGIONS_CSV: csv(plan, out); break;
	case DCFG_REGIONS_LOOPPOINT_JSON: json(plan, out); break;
	case DCFG_REGIONS_SDE_CONTROL: sde(plan, out); break;
	}
	return 0;
}
