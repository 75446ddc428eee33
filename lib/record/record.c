/*
 * dcfg_record_build (record.h): the spool read, the graph built and
 * counted, the DCFG written plain into the spool and compressed under
 * its final name, then the trace.
 * Both final files stay temporaries until both are whole.
 */
#include "record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "bzip2out.h"
#include "trace.h"
#include "write_dcfg.h"

struct files {
	char dcfg_plain[4096], trace_plain[4096];
	struct dcfg_output *dcfg_out, *trace_out;   /* the final files, open until both are whole */
};

static int
sum_thread_sizes(struct rec_build *b, uint64_t *total, struct dcfg_error *err)
{
	uint32_t t;

	*total = 0;
	for (t = 0; t < b->g->n_threads; t++) {
		uint64_t size;
		if (rec_thread_size(b->s, t, &size, err) < 0)
			return -1;
		*total += size;
	}
	return 0;
}

/* Writes the graph to PLAIN (uncompressed), then compressed to the open final OUT. */
static int
write_dcfg_files(const struct dcfg_rec_graph *g, const char *plain, struct dcfg_output *final,
    struct dcfg_error *err)
{
	struct dcfg_output *out = malloc(sizeof *out);
	int rc;

	if (out == NULL)
		return dcfg_error_set(err, plain, "out of memory");
	if (dcfg_output_open(out, plain, err) < 0) {
		free(out);
		return -1;
	}
	if (dcfg_rec_write_dcfg(g, out, err) < 0) {
		dcfg_output_discard(out);
		free(out);
		return -1;
	}
	rc = dcfg_output_close(out, err);
	free(out);
	if (rc < 0)
		return -1;
	return rec_bzip2_file(plain, final, err);
}

static int
write_trace_files(struct rec_build *b, struct files *f, struct dcfg_error *err)
{
	struct dcfg_output *out = malloc(sizeof *out);
	int rc;

	if (out == NULL)
		return dcfg_error_set(err, f->trace_plain, "out of memory");
	if (dcfg_output_open(out, f->trace_plain, err) < 0) {
		free(out);
		return -1;
	}
	if (rec_write_trace(b, out, err) < 0) {
		dcfg_output_discard(out);
		free(out);
		return -1;
	}
	rc = dcfg_output_close(out, err);
	free(out);
	if (rc < 0)
		return -1;
	return rec_bzip2_file(f->trace_plain, f->trace_out, err);
}

static struct dcfg_output *
open_final(const char *path, struct dcfg_error *err)
{
	struct dcfg_output *out = malloc(sizeof *out);

	if (out == NULL) {
		dcfg_error_set(err, path, "out of memory");
		return NULL;
	}
	if (dcfg_output_open(out, path, err) < 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* Renames both into place, or neither stays. */
static int
close_finals(const struct dcfg_record_build_options *o, struct files *f, struct dcfg_error *err)
{
	int rc = dcfg_output_close(f->dcfg_out, err);

	free(f->dcfg_out);
	f->dcfg_out = NULL;
	if (rc < 0) {
		if (f->trace_out)
			dcfg_output_discard(f->trace_out);
	} else if (f->trace_out && dcfg_output_close(f->trace_out, err) < 0) {
		unlink(o->dcfg_path);
		rc = -1;
	}
	free(f->trace_out);
	f->trace_out = NULL;
	return rc;
}

static int
build_and_write(const struct dcfg_record_build_options *o, struct rec_build *b, struct files *f,
    struct dcfg_error *err)
{
	uint64_t bytes;

	if (rec_blocks_build(b, o->program_path, err) < 0 || sum_thread_sizes(b, &bytes, err) < 0)
		return -1;
	b->bytes_total = o->trace_path ? 4 * bytes : bytes;   /* the trace: the encoder's 3 passes */
	if (rec_count_all(b, err) < 0)
		return -1;
	if ((f->dcfg_out = open_final(o->dcfg_path, err)) == NULL)
		return -1;
	if (o->trace_path && (f->trace_out = open_final(o->trace_path, err)) == NULL)
		return -1;
	if (write_dcfg_files(b->g, f->dcfg_plain, f->dcfg_out, err) < 0)
		return -1;
	if (o->trace_path && write_trace_files(b, f, err) < 0)
		return -1;
	return close_finals(o, f, err);
}

int
dcfg_record_build(const struct dcfg_record_build_options *o, struct dcfg_error *err)
{
	struct rec_spool spool;
	struct dcfg_rec_graph g;
	struct rec_build b;
	struct files f;
	int rc;

	if (rec_spool_load(&spool, o->spool_dir, err) < 0)
		return -1;
	memset(&g, 0, sizeof g);
	memset(&b, 0, sizeof b);
	memset(&f, 0, sizeof f);
	b.s = &spool;
	b.g = &g;
	b.chunk_instrs = o->chunk_instrs;
	b.progress = o->progress;
	b.progress_ctx = o->progress_ctx;
	snprintf(f.dcfg_plain, sizeof f.dcfg_plain, "%s/dcfg.json", o->spool_dir);
	snprintf(f.trace_plain, sizeof f.trace_plain, "%s/trace.json", o->spool_dir);
	rc = build_and_write(o, &b, &f, err);
	if (f.dcfg_out) {
		dcfg_output_discard(f.dcfg_out);
		free(f.dcfg_out);
	}
	if (f.trace_out) {
		dcfg_output_discard(f.trace_out);
		free(f.trace_out);
	}
	unlink(f.dcfg_plain);
	unlink(f.trace_plain);
	rec_build_free(&b);
	dcfg_rec_graph_free(&g);
	rec_spool_free(&spool);
	return rc;
}
