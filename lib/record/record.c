/*
 * dcfg_record_build (record.h): the spool read, the graph built and
 * counted, the DCFG written plain into the spool and compressed under
 * its final name on a second thread while the trace is built.
 * Both final files stay temporaries until both are whole.
 */
#include "record.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "bzip2out.h"
#include "common/tempfiles.h"
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

/*
 * The DCFG's part, on a thread of its own while the trace is built:
 * written plain into the spool (PLAIN, opened by the caller: temporaries
 * are recorded on the main thread), then compressed into FINAL.
 */
struct dcfg_job {
	const struct dcfg_rec_graph *g;
	struct dcfg_output *plain, *final;
	const char *plain_path;
	struct dcfg_error err;
	int rc;
	pthread_t thread;
	int started;
};

static void *
run_dcfg_job(void *arg)
{
	struct dcfg_job *j = arg;

	if (dcfg_rec_write_dcfg(j->g, j->plain, &j->err) < 0) {
		dcfg_output_discard(j->plain);
		j->rc = -1;
	} else if ((j->rc = dcfg_output_close(j->plain, &j->err)) == 0) {
		j->rc = rec_bzip2_file(j->plain_path, j->final, &j->err);
	}
	free(j->plain);
	j->plain = NULL;
	return NULL;
}

/* Starts J on a thread (signals held: the main thread takes them), or runs it here. */
static int
start_dcfg_job(struct dcfg_job *j, int threaded, struct dcfg_error *err)
{
	sigset_t saved;

	if ((j->plain = malloc(sizeof *j->plain)) == NULL)
		return dcfg_error_set(err, j->plain_path, "out of memory");
	if (dcfg_output_open(j->plain, j->plain_path, err) < 0) {
		free(j->plain);
		j->plain = NULL;
		return -1;
	}
	if (threaded) {
		dcfg_temp_hold_signals(&saved);
		j->started = pthread_create(&j->thread, NULL, run_dcfg_job, j) == 0;
		dcfg_temp_release_signals(&saved);
	}
	if (!j->started)
		run_dcfg_job(j);
	return 0;
}

/* Waits for J; its result, its error into ERR unless ERR already holds one (MINE < 0). */
static int
join_dcfg_job(struct dcfg_job *j, int mine, struct dcfg_error *err)
{
	if (j->started) {
		pthread_join(j->thread, NULL);
		j->started = 0;
	}
	if (j->rc < 0 && mine == 0)
		*err = j->err;
	return mine < 0 ? mine : j->rc;
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
	struct dcfg_job job = { .rc = 0 };
	uint64_t bytes;
	int rc;

	if (rec_blocks_build(b, o->program_path, err) < 0 || sum_thread_sizes(b, &bytes, err) < 0)
		return -1;
	/* the trace: the encoder's passes 1 and 2 (pass 3 reads back pass 2's text) */
	b->bytes_total = o->trace_path ? 3 * bytes : bytes;
	if (rec_count_all(b, err) < 0)
		return -1;
	if ((f->dcfg_out = open_final(o->dcfg_path, err)) == NULL)
		return -1;
	if (o->trace_path && (f->trace_out = open_final(o->trace_path, err)) == NULL)
		return -1;
	job.g = b->g;
	job.final = f->dcfg_out;
	job.plain_path = f->dcfg_plain;
	if (start_dcfg_job(&job, o->trace_path != NULL, err) < 0)
		return -1;
	rc = o->trace_path ? write_trace_files(b, f, err) : 0;
	if (join_dcfg_job(&job, rc, err) < 0)
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
