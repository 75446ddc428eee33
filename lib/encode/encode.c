/*
 * dcfg_encode and dcfg_encode_edges (encode.h): the three passes over a
 * text stream or the caller's records, each record through the same
 * step (encode_records.c).
 */
#include "encode_state.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_spool.h"
#include "spill.h"
#include <dcfg/stream.h>

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct enc *e = ctx;

	e->pass_bytes = bytes;
	if (e->meter)
		dcfg_progress_update(e->meter, bytes, e->r->lineno);
	else if (e->o->progress)
		e->o->progress(e->o->progress_ctx, e->pass_base + bytes);
}

static int
sink(void *enc, const struct dcfg_stream_record *r)
{
	return dcfg_enc_on_record(enc, r);
}

/* A pass over the caller's records. */
static int
walk_source(struct enc *e)
{
	static const struct dcfg_stream_record none = { .kind = DCFG_STREAM_EDGE };
	int rc;

	e->r = &none;
	dcfg_enc_begin_walk(e);
	rc = e->src->replay(e->src->ctx, sink, e, e->err);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return 0;   /* OUT failed: dcfg_encode_edges says so */
	e->r = &none;
	return dcfg_enc_end_walk(e);
}

static int
walk(struct enc *e)
{
	struct dcfg_stream_record r = { 0 };
	struct dcfg_stream *s;
	int rc;

	if (e->src != NULL)
		return walk_source(e);
	e->r = &r;
	dcfg_progress_file(e->meter, e->name, e->path, "lines");
	dcfg_progress_pass(e->meter, e->pass, 3);
	if (e->spool >= 0) {
		int fd;
		/* standard input, spooled, is read from the spool: it has a size */
		if (e->meter) {
			e->meter->sized = 1;
			e->meter->size = e->spool_size;
		}
		if (lseek(e->spool, 0, SEEK_SET) < 0 || (fd = dup(e->spool)) < 0)
			return dcfg_error_set(e->err, e->name, "rereading the spooled input: %s",
			    strerror(errno));
		s = dcfg_stream_open_fd(fd, e->name, e->err);
	} else {
		s = dcfg_stream_open(e->path, e->name, e->err);
	}
	if (s == NULL)
		return -1;
	dcfg_stream_set_progress(s, on_progress, e);
	dcfg_enc_begin_walk(e);
	while ((rc = dcfg_stream_next(s, &r, e->err)) > 0)
		if ((rc = dcfg_enc_on_record(e, &r)) != 0)
			break;
	if (rc < 0)
		goto fail;
	e->r = &r;
	if (dcfg_enc_end_walk(e) < 0)
		goto fail;
	e->pass_base += e->pass_bytes;
	dcfg_stream_close(s);
	return 0;
fail:
	dcfg_stream_close(s);
	return -1;
}

static void free_enc(struct enc *e);

/*
 * One pass over the records. With a spill, pass 2 also writes what pass 3
 * would, to the spill, and pass 3 reads that back instead of walking.
 */
static int
run_pass(struct enc *e)
{
	struct dcfg_output *out = e->out;
	int rc;

	e->writes = e->pass == 3 || (e->pass == 2 && e->spill != NULL);
	if (e->pass == 3 && e->spill != NULL)
		return dcfg_enc_spill_replay(e);
	if (e->pass == 2 && e->spill != NULL)
		e->out = e->spill;
	rc = walk(e);
	e->out = out;
	return rc;
}

/* The three passes over E's records; E freed. 0, 1 when OUT failed, -1 with ERR set. */
static int
run_passes(struct enc *e)
{
	size_t i;
	int rc = -1;

	if (e->o->spill_dir != NULL &&
	    (e->spill = dcfg_enc_spill_open(e->o->spill_dir, e->name, e->err)) == NULL)
		goto done;
	for (e->pass = 1; e->pass <= 3; e->pass++) {
		if (e->pass == 3)
			dcfg_out_str(e->out, "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0,\n"
			    "\"PROCESSES\": [[\"PROCESS_ID\", \"STRING_DICTIONARY\", "
			    "\"TRANSITION_TABLE\", \"THREAD_DATA\"]");
		if (run_pass(e) < 0)
			goto done;
		for (i = 0; i < e->n_procs; i++) {
			if (e->pass == 1 && dcfg_transitions_build(&e->procs[i].tt) < 0) {
				dcfg_error_set(e->err, e->name, "out of memory");
				goto done;
			}
			if (e->pass == 2 && dcfg_dictionary_choose(&e->procs[i].dict) < 0) {
				dcfg_error_set(e->err, e->name, "out of memory");
				goto done;
			}
		}
	}
	dcfg_out_str(e->out, "]}\n");
	rc = dcfg_output_failed(e->out) ? 1 : 0;
done:
	free_enc(e);
	return rc;
}

static void
free_enc(struct enc *e)
{
	size_t i;

	if (e->spool >= 0)
		close(e->spool);
	for (i = 0; i < e->n_procs; i++) {
		dcfg_transitions_free(&e->procs[i].tt);
		dcfg_dictionary_free(&e->procs[i].dict);
	}
	free(e->procs);
	free(e->edges);
	free(e->runs);
	dcfg_chunkenc_free(e->ce);
	free(e->tokens);
	free(e->spilled);
	dcfg_enc_spill_close(e->spill);
	free(e);
}

static struct enc *
new_enc(const char *name, const struct dcfg_encode_options *opt, struct dcfg_output *out,
    struct dcfg_error *err)
{
	struct enc *e = calloc(1, sizeof *e);

	if (e == NULL || (e->ce = dcfg_chunkenc_new()) == NULL) {
		free(e);
		dcfg_error_set(err, name, "out of memory");
		return NULL;
	}
	e->o = opt;
	e->out = out;
	e->err = err;
	e->name = name;
	e->path = name;
	e->spool = -1;
	e->counts_instrs = opt->dcfg != NULL;
	return e;
}

int
dcfg_encode(const char *path, const struct dcfg_encode_options *opt,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct enc *e = new_enc(path ? path : "-", opt, out, err);

	if (e == NULL)
		return -1;
	e->meter = dcfg_progress_of(opt->progress, opt->progress_ctx);
	if (dcfg_encode_spool_input(path, &e->spool, &e->spool_size, err) < 0) {
		free_enc(e);
		return -1;
	}
	return run_passes(e);
}

int
dcfg_encode_edges(const struct dcfg_encode_source *src, const struct dcfg_encode_options *opt,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct enc *e = new_enc(src->name ? src->name : "-", opt, out, err);

	if (e == NULL)
		return -1;
	e->src = src;
	e->counts_instrs = opt->dcfg != NULL || src->edge_instrs != NULL;
	return run_passes(e);
}
