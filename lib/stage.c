#include "stage.h"

#include <string.h>

static void
fields_line(struct dcfg_stage *s, const struct dcfg_stream_record *theirs)
{
	if (s->out == NULL || s->fields == NULL)
		return;
	if (s->replace) {
		dcfg_out_str(s->out, "# fields ");
	} else if (theirs) {
		dcfg_out_bytes(s->out, theirs->line, theirs->len);
		dcfg_out_char(s->out, ' ');
	} else {
		dcfg_out_str(s->out, "# fields edge ");
	}
	dcfg_out_str(s->out, s->fields);
	dcfg_out_char(s->out, '\n');
}

static void
pass(struct dcfg_stage *s, const struct dcfg_stream_record *r)
{
	if (s->out == NULL)
		return;
	dcfg_out_bytes(s->out, r->line, r->len);
	dcfg_out_char(s->out, '\n');
}

int
dcfg_stage_run(struct dcfg_stage *s, const char *path, struct dcfg_error *err)
{
	struct dcfg_stream_record r;
	struct dcfg_stream *st;
	int rc, first = 1;

	if ((st = dcfg_stream_open(path, NULL, err)) == NULL)
		return -1;
	if (s->progress)
		dcfg_stream_set_progress(st, s->progress, s->progress_ctx);
	s->name = dcfg_stream_name(st);
	s->p = NULL;
	if (s->out)
		dcfg_out_str(s->out, "# dcfg-stream 1\n");
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
		case DCFG_STREAM_THREAD:
			pass(s, &r);
			if (s->thread)
				s->thread(s->ctx, r.value);
			break;
		default:
			pass(s, &r);
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
