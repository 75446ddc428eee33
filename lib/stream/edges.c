#include "edges.h"

#include <stdio.h>
#include <string.h>

#include "writer.h"

#define BIT(k) (UINT64_C(1) << (k))

static const struct {
	const char *name;
	uint64_t kinds;
} classes[] = {
	{ "branch", BIT(DCFG_EDGE_BRANCH) | BIT(DCFG_EDGE_CONDITIONAL_BRANCH) |
	    BIT(DCFG_EDGE_UNCONDITIONAL_BRANCH) | BIT(DCFG_EDGE_DIRECT_BRANCH) |
	    BIT(DCFG_EDGE_INDIRECT_BRANCH) | BIT(DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH) |
	    BIT(DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH) |
	    BIT(DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH) |
	    BIT(DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH) | BIT(DCFG_EDGE_FALL_THROUGH) |
	    BIT(DCFG_EDGE_REP) },
	{ "call", BIT(DCFG_EDGE_CALL) | BIT(DCFG_EDGE_DIRECT_CALL) | BIT(DCFG_EDGE_INDIRECT_CALL) },
	{ "return", BIT(DCFG_EDGE_RETURN) },
	{ "bypass", BIT(DCFG_EDGE_CALL_BYPASS) | BIT(DCFG_EDGE_SYSTEM_CALL_BYPASS) |
	    BIT(DCFG_EDGE_CONTEXT_CHANGE_BYPASS) | BIT(DCFG_EDGE_INTERRUPT_BYPASS) |
	    BIT(DCFG_EDGE_EXCLUDED_CODE_BYPASS) | BIT(DCFG_EDGE_UNKNOWN_IMAGE_BYPASS) },
	{ "system", BIT(DCFG_EDGE_SYSTEM_CALL) | BIT(DCFG_EDGE_SYSTEM_RETURN) |
	    BIT(DCFG_EDGE_SYSTEM_CALL_BYPASS) },
	{ "context", BIT(DCFG_EDGE_CONTEXT_CHANGE) | BIT(DCFG_EDGE_CONTEXT_CHANGE_RETURN) |
	    BIT(DCFG_EDGE_CONTEXT_CHANGE_BYPASS) | BIT(DCFG_EDGE_INTERRUPT) |
	    BIT(DCFG_EDGE_INTERRUPT_RETURN) | BIT(DCFG_EDGE_INTERRUPT_BYPASS) },
	{ "entry", BIT(DCFG_EDGE_ENTRY) },
	{ "exit", BIT(DCFG_EDGE_EXIT) },
};

int
dcfg_edge_types_parse(const char *list, uint64_t *mask, char *bad, size_t size)
{
	const char *p = list, *comma;
	size_t n, i;

	*mask = 0;
	for (;;) {
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		for (i = 0; i < sizeof classes / sizeof classes[0]; i++)
			if (strlen(classes[i].name) == n && memcmp(classes[i].name, p, n) == 0)
				break;
		if (i < sizeof classes / sizeof classes[0]) {
			*mask |= classes[i].kinds;
		} else {
			enum dcfg_edge_kind k = dcfg_edge_kind_from_name(p, n);
			if (k == DCFG_EDGE_OTHER) {
				snprintf(bad, size, "%.*s", (int)n, p);
				return -1;
			}
			*mask |= BIT(k);
		}
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

const char *
dcfg_edge_type_name(const struct dcfg *d, const struct dcfg_edge *e)
{
	uint32_t t = dcfg_idmap_get(&d->edge_type_by_id, e->type_id);

	return t == DCFG_NONE ? "UNDEFINED" : dcfg_string(d, d->edge_types[t].name);
}

/* "SOURCE<TAB>TARGET<TAB>TYPE" of an edge. */
static void
out_edge(struct dcfg_output *out, const struct dcfg *d, const struct dcfg_edge *e)
{
	dcfg_out_u64(out, e->source);
	dcfg_out_char(out, '\t');
	dcfg_out_u64(out, e->target);
	dcfg_out_char(out, '\t');
	dcfg_out_escaped(out, dcfg_edge_type_name(d, e));
}

struct edges_run {
	struct dcfg_stage *s;
	uint64_t types;
};

/* Key: the edge's index in the DCFG. */
static void
render(void *ctx, size_t key)
{
	struct edges_run *x = ctx;
	const struct dcfg *d = x->s->dcfg;
	const struct dcfg_edge *e = &d->edges[key];
	struct dcfg_output *out = x->s->out;

	dcfg_out_char(out, '\t');
	out_edge(out, d, e);
	dcfg_out_char(out, '\n');
}

static int
edge_key(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
    uint32_t *key, struct dcfg_error *err)
{
	struct edges_run *x = ctx;

	(void)r;
	(void)err;
	if (x->types && !(x->types & BIT(e->kind)))
		*key = DCFG_STAGE_DROP;
	else
		*key = (uint32_t)(e - x->s->dcfg->edges);
	return 0;
}

int
dcfg_edges_run(struct dcfg_stage *s, const char *path, uint64_t types,
    struct dcfg_error *err)
{
	struct edges_run x = { .s = s, .types = types };

	s->fields = "source target type";
	s->key = edge_key;
	s->render = render;
	s->n_keys = s->dcfg->n_edges;
	s->runs = 1;       /* a line's columns do not depend on how often it runs */
	s->ctx = &x;
	return dcfg_stage_run(s, path, err);
}

void
dcfg_edges_list(struct dcfg_output *out, const struct dcfg *d)
{
	size_t i;
	uint32_t k, t;

	dcfg_out_str(out, "# edge\tsource\ttarget\ttype\ttotal\tcounts\n");
	for (i = 0; i < d->n_processes; i++) {
		const struct dcfg_process *p = &d->processes[i];
		dcfg_stream_write_process(out, p->pid);
		for (k = 0; k < p->edges.count; k++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + k];
			dcfg_out_u64(out, e->id);
			dcfg_out_char(out, '\t');
			out_edge(out, d, e);
			dcfg_out_char(out, '\t');
			dcfg_out_u64(out, e->total);
			dcfg_out_char(out, '\t');
			for (t = 0; e->counts.first != DCFG_NONE && t < e->counts.count; t++) {
				if (t)
					dcfg_out_char(out, ',');
				dcfg_out_u64(out, d->counts[e->counts.first + t]);
			}
			dcfg_out_char(out, '\n');
		}
	}
}
