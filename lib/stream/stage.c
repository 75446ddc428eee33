#include "stage.h"

#include <stdlib.h>
#include <string.h>

#include "common/progress.h"
#include "keyed.h"
#include "reader.h"
#include "writer.h"

static void
fields_line(struct dcfg_stage *s, const struct dcfg_stream_record *theirs)
{
	if (s->out == NULL || s->fields == NULL)
		return;
	if (s->replace)
		dcfg_stream_write_fields(s->out, s->fields);
	else
		dcfg_stream_write_fields_after(s->out, theirs, s->fields);
}

static void
pass(struct dcfg_stage *s, const struct dcfg_stream_record *r)
{
	if (s->out)
		dcfg_stream_write_record(s->out, r);
}

/* The meter counts the lines handed to the stage: R is the last one. */
struct meter {
	struct dcfg_progress *pg;
	const struct dcfg_stream_record *r;
};

static void
on_progress(void *ctx, uint64_t bytes)
{
	const struct meter *m = ctx;

	dcfg_progress_update(m->pg, bytes, m->r->lineno);
}

/* A data line, with the edge it names in the current process. */
static inline int
edge_line(struct dcfg_stage *s, struct dcfg_keyed *k, const struct dcfg_stream_record *r,
    struct dcfg_error *err)
{
	const struct dcfg_edge *e;

	if (s->p == NULL)
		return dcfg_error_at(err, s->name, r->lineno, 1, "an edge before \"# process\"");
	if ((e = dcfg_edge_by_id(s->dcfg, s->p, r->edge)) == NULL)
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "edge id %u is not in process %llu of the DCFG", r->edge,
		    (unsigned long long)s->p->pid);
	return s->key ? dcfg_keyed_line(k, s, r, e, err) : s->line(s->ctx, r, e, err);
}

static int
process_line(struct dcfg_stage *s, struct dcfg_keyed *k, const struct dcfg_stream_record *r,
    struct dcfg_error *err)
{
	if (s->process && s->p && s->process(s->ctx, NULL, err) < 0)
		return -1;
	if ((s->p = dcfg_find_process(s->dcfg, r->value)) == NULL)
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "process %llu is not in the DCFG", (unsigned long long)r->value);
	pass(s, r);
	if (s->key && dcfg_keyed_process(k, s) < 0)
		return dcfg_error_set(err, s->name, "out of memory");
	return s->process ? s->process(s->ctx, s->p, err) : 0;
}

/* One line of the stream: 0, or -1 with ERR set. */
static int
step(struct dcfg_stage *s, struct dcfg_keyed *k, const struct dcfg_stream_record *r,
    struct dcfg_error *err)
{
	switch (r->kind) {
	case DCFG_STREAM_EDGE:
		return edge_line(s, k, r, err);
	case DCFG_STREAM_PROCESS:
		return process_line(s, k, r, err);
	case DCFG_STREAM_RUN:
	case DCFG_STREAM_RUN_END:
		if (!s->runs)
			return dcfg_error_at(err, s->name, r->lineno, 1,
			    "this command cannot honour runs: expand them first (dcfg-stream(5))");
		pass(s, r);
		return s->run ? s->run(s->ctx, r, err) : 0;
	case DCFG_STREAM_CHUNK:
		pass(s, r);
		return s->chunk ? s->chunk(s->ctx, r, err) : 0;
	case DCFG_STREAM_THREAD:
		pass(s, r);
		if (s->thread)
			s->thread(s->ctx, r->value);
		return 0;
	default:
		pass(s, r);
		return s->meta ? s->meta(s->ctx, r, err) : 0;
	}
}

/* The lines after the first: 0 at the end, 1 when the output failed, -1 with ERR set. */
static int
rest(struct dcfg_stage *s, struct dcfg_keyed *k, struct dcfg_stream *st,
    struct dcfg_stream_record *r, struct dcfg_error *err)
{
	int rc;

	for (;;) {
		if (s->key && dcfg_keyed_lines(k, s, st) > 0)
			r->lineno = dcfg_stream_lineno(st);   /* for the meter */
		if (s->out && dcfg_output_failed(s->out))
			return 1;
		if ((rc = dcfg_stream_next(st, r, err)) <= 0)
			return rc;
		/* a data line straight, without the switch: most lines are */
		if ((r->kind == DCFG_STREAM_EDGE ? edge_line(s, k, r, err) : step(s, k, r, err)) < 0)
			return -1;
	}
}

int
dcfg_stage_run(struct dcfg_stage *s, const char *path, struct dcfg_error *err)
{
	struct dcfg_stream_record r = { 0 };
	struct meter m = { dcfg_progress_of(s->progress, s->progress_ctx), &r };
	struct dcfg_keyed k = { 0 };
	struct dcfg_stream *st;
	int rc;

	dcfg_progress_file(m.pg, NULL, path, "lines");
	if (s->key && dcfg_keyed_init(&k, s) < 0) {
		dcfg_keyed_free(&k);
		return dcfg_error_set(err, path, "out of memory");
	}
	if ((st = dcfg_stream_open(path, NULL, err)) == NULL) {
		dcfg_keyed_free(&k);
		return -1;
	}
	if (m.pg)
		dcfg_stream_set_progress(st, on_progress, &m);
	else if (s->progress)
		dcfg_stream_set_progress(st, s->progress, s->progress_ctx);
	s->name = dcfg_stream_name(st);
	s->p = NULL;
	/* runs pass through, so the output may hold them as the input may */
	if (s->out)
		dcfg_stream_write_header(s->out, dcfg_stream_version(st));
	if ((rc = dcfg_stream_next(st, &r, err)) > 0) {
		fields_line(s, r.kind == DCFG_STREAM_FIELDS ? &r : NULL);
		if (r.kind != DCFG_STREAM_FIELDS && step(s, &k, &r, err) < 0)
			rc = -1;
		else
			rc = rest(s, &k, st, &r, err);
	} else if (rc == 0) {
		fields_line(s, NULL);
	}
	if (rc == 0 && s->process && s->p)
		rc = s->process(s->ctx, NULL, err) < 0 ? -1 : 0;
	dcfg_stream_close(st);
	dcfg_keyed_free(&k);
	return rc < 0 ? -1 : rc;
}
