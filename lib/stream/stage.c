#include "stage.h"

#include <stdlib.h>
#include <string.h>

#include "common/progress.h"
#include "common/vec.h"
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

int
dcfg_stage_run(struct dcfg_stage *s, const char *path, struct dcfg_error *err)
{
	struct dcfg_stream_record r = { 0 };
	struct meter m = { dcfg_progress_of(s->progress, s->progress_ctx), &r };
	struct dcfg_stream *st;
	int rc, first = 1;

	dcfg_progress_file(m.pg, NULL, path, "lines");
	if ((st = dcfg_stream_open(path, NULL, err)) == NULL)
		return -1;
	if (m.pg)
		dcfg_stream_set_progress(st, on_progress, &m);
	else if (s->progress)
		dcfg_stream_set_progress(st, s->progress, s->progress_ctx);
	s->name = dcfg_stream_name(st);
	s->p = NULL;
	/* runs pass through, so the output may hold them as the input may */
	if (s->out)
		dcfg_stream_write_header(s->out, dcfg_stream_version(st));
	while ((rc = dcfg_stream_next(st, &r, err)) > 0) {
		if (first) {
			first = 0;
			fields_line(s, r.kind == DCFG_STREAM_FIELDS ? &r : NULL);
			if (r.kind == DCFG_STREAM_FIELDS)
				continue;
		}
		switch (r.kind) {
		case DCFG_STREAM_EDGE: {
			const struct dcfg_edge *e;
			if (s->p == NULL) {
				rc = dcfg_error_at(err, s->name, r.lineno, 1, "an edge before \"# process\"");
				goto done;
			}
			if ((e = dcfg_edge_by_id(s->dcfg, s->p, r.edge)) == NULL) {
				rc = dcfg_error_at(err, s->name, r.lineno, 1,
				    "edge id %u is not in process %llu of the DCFG", r.edge,
				    (unsigned long long)s->p->pid);
				goto done;
			}
			if (s->line(s->ctx, &r, e, err) < 0) {
				rc = -1;
				goto done;
			}
			break;
		}
		case DCFG_STREAM_PROCESS:
			if (s->process && s->p && s->process(s->ctx, NULL, err) < 0) {
				rc = -1;
				goto done;
			}
			if ((s->p = dcfg_find_process(s->dcfg, r.value)) == NULL) {
				rc = dcfg_error_at(err, s->name, r.lineno, 1,
				    "process %llu is not in the DCFG", (unsigned long long)r.value);
				goto done;
			}
			pass(s, &r);
			if (s->process && s->process(s->ctx, s->p, err) < 0) {
				rc = -1;
				goto done;
			}
			break;
		case DCFG_STREAM_RUN:
		case DCFG_STREAM_RUN_END:
			if (!s->runs) {
				rc = dcfg_error_at(err, s->name, r.lineno, 1,
				    "this command cannot honour runs: expand them first (dcfg-stream(5))");
				goto done;
			}
			pass(s, &r);
			if (s->run && s->run(s->ctx, &r, err) < 0) {
				rc = -1;
				goto done;
			}
			break;
		case DCFG_STREAM_CHUNK:
			pass(s, &r);
			if (s->chunk && s->chunk(s->ctx, &r, err) < 0) {
				rc = -1;
				goto done;
			}
			break;
		case DCFG_STREAM_THREAD:
			pass(s, &r);
			if (s->thread)
				s->thread(s->ctx, r.value);
			break;
		default:
			pass(s, &r);
			if (s->meta && s->meta(s->ctx, &r, err) < 0) {
				rc = -1;
				goto done;
			}
			break;
		}
		if (s->out && dcfg_output_failed(s->out)) {
			rc = 1;
			goto done;
		}
	}
	if (rc == 0 && first)
		fields_line(s, NULL);
	if (rc == 0 && s->process && s->p)
		rc = s->process(s->ctx, NULL, err) < 0 ? -1 : 0;
done:
	dcfg_stream_close(st);
	return rc < 0 ? -1 : rc;
}

int
dcfg_suffixes_reset(struct dcfg_suffixes *c, size_t n)
{
	size_t i;

	free(c->start);
	free(c->len);
	c->start = malloc((n + 1) * sizeof *c->start);
	c->len = malloc((n + 1) * sizeof *c->len);
	c->n = n;
	c->used = 0;
	if (c->start == NULL || c->len == NULL)
		return -1;
	for (i = 0; i < n; i++)
		c->len[i] = UINT32_MAX;
	return 0;
}

void
dcfg_suffixes_free(struct dcfg_suffixes *c)
{
	free(c->start);
	free(c->len);
	free(c->pool);
	memset(c, 0, sizeof *c);
}

void
dcfg_suffix_write(struct dcfg_suffixes *c, struct dcfg_output *out, size_t key,
    void (*render)(void *ctx, size_t key), void *ctx)
{
	size_t at, n;

	if (key < c->n && c->len[key] != UINT32_MAX) {
		dcfg_out_bytes(out, c->pool + c->start[key], c->len[key]);
		return;
	}
	/* Render into the output buffer itself, then keep a copy, unless it flushed. */
	if (sizeof out->buf - out->len < 4096)
		dcfg_output_flush(out);
	at = out->len;
	render(ctx, key);
	if (key >= c->n || out->len < at || dcfg_output_failed(out))
		return;
	n = out->len - at;
	if (c->used + n >= UINT32_MAX / 2 ||
	    dcfg_reserve((void **)&c->pool, &c->cap, c->used + n, 1) < 0)
		return;   /* not kept: rendered again next time */
	memcpy(c->pool + c->used, out->buf + at, n);
	c->start[key] = (uint32_t)c->used;
	c->len[key] = (uint32_t)n;
	c->used += n;
}
