#include "convert.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/progress.h"
#include "replay.h"

static const struct dcfg_format formats[] = {
	{ "callgrind", "KCachegrind, callgrind_annotate", DCFG_FORMAT_TRACE | DCFG_FORMAT_OUT_DIR,
	    dcfg_convert_callgrind },
	{ "webgrind", NULL, DCFG_FORMAT_TRACE | DCFG_FORMAT_OUT_DIR, dcfg_convert_webgrind },
	{ "dcpi", "one file per image",
	    DCFG_FORMAT_OUT_DIR | DCFG_FORMAT_NEEDS_DIR | DCFG_FORMAT_CPUSPEED, dcfg_convert_dcpi },
	{ "csi", "path-tracing metadata", 0, dcfg_convert_csi },
	{ "dot", "Graphviz: the call graph, or routines' CFGs",
	    DCFG_FORMAT_ROUTINE | DCFG_FORMAT_TRACE | DCFG_FORMAT_OUT_DIR, dcfg_convert_dot },
	{ "bolt", "LLVM BOLT's pre-aggregated profile of one image", DCFG_FORMAT_IMAGE, dcfg_convert_bolt },
};

#define N_FORMATS (sizeof formats / sizeof formats[0])

const struct dcfg_format *
dcfg_format_find(const char *name)
{
	size_t i;

	for (i = 0; i < N_FORMATS; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

const struct dcfg_format *
dcfg_format_at(size_t i)
{
	return i < N_FORMATS ? &formats[i] : NULL;
}

const struct dcfg_process *
dcfg_convert_processes(const struct dcfg_convert *c, int many, size_t *n,
    struct dcfg_error *err)
{
	const struct dcfg *d = c->d;
	const struct dcfg_process *p;

	*n = 1;
	if (c->o->has_pid) {
		if ((p = dcfg_find_process(d, c->o->pid)) == NULL)
			dcfg_error_set(err, c->o->dcfg_path, "process %" PRIu64 " is not in the DCFG",
			    c->o->pid);
		return p;
	}
	if (d->n_processes == 0) {
		dcfg_error_set(err, c->o->dcfg_path, "the DCFG has no process");
		return NULL;
	}
	if (d->n_processes > 1 && !many) {
		dcfg_error_set(err, c->o->dcfg_path, "the DCFG has %zu processes; choose one with -p",
		    d->n_processes);
		return NULL;
	}
	*n = d->n_processes;
	return d->processes;
}

int
dcfg_convert_file(const struct dcfg_convert *c, const char *name,
    int (*write)(struct dcfg_output *out, void *ctx, struct dcfg_error *err), void *ctx,
    struct dcfg_error *err)
{
	const char *dir = c->o->out_dir;
	struct dcfg_output *out;
	char *path;
	size_t len;
	int rc;

	if (dir == NULL)
		return write(c->out, ctx, err);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return dcfg_error_set(err, dir, "%s", strerror(errno));
	len = strlen(dir) + strlen(name) + 2;
	if ((path = malloc(len)) == NULL || (out = malloc(sizeof *out)) == NULL) {
		free(path);
		return dcfg_error_set(err, dir, "out of memory");
	}
	snprintf(path, len, "%s/%s", dir, name);
	rc = dcfg_output_check_inputs(path, (const char *[]){ c->o->dcfg_path, c->o->trace_path },
	    2, err);
	if (rc == 0)
		rc = dcfg_output_open(out, path, err);
	if (rc == 0) {
		/* a file cut short is not written: an old one stays as it was */
		if ((rc = write(out, ctx, err)) < 0)
			dcfg_output_discard(out);
		else
			rc = dcfg_output_close(out, err);
	}
	free(out);
	free(path);
	return rc;
}

/*
 * Which of P's threads ran instructions (--separate-threads writes no file
 * for the rest): those with an instruction count, or an edge count, above
 * 0. One pass over the counts, however many threads the DCFG declares.
 * NULL when out of memory.
 */
static unsigned char *
threads_that_ran(const struct dcfg *d, const struct dcfg_process *p)
{
	unsigned char *ran = calloc((size_t)p->threads + 1, 1);
	const struct dcfg_range *tc = &p->thread_instr_counts;
	uint32_t i, t;

	if (ran == NULL)
		return NULL;
	for (t = 0; tc->first != DCFG_NONE && t < tc->count && t < p->threads; t++)
		ran[t] |= d->counts[tc->first + t] > 0;
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_range *ec = &d->edges[p->edges.first + i].counts;
		for (t = 0; ec->first != DCFG_NONE && t < ec->count && t < p->threads; t++)
			ran[t] |= d->counts[ec->first + t] > 0;
	}
	return ran;
}

struct view {
	const struct dcfg_convert *c;
	const struct dcfg_profile *pf;
	dcfg_profile_writer write;
	uint32_t thread;
};

static int
write_view(struct dcfg_output *out, void *ctx, struct dcfg_error *err)
{
	const struct view *v = ctx;

	return v->write(out, v->pf, v->thread, v->c->o, err);
}

static int
convert_process(const struct dcfg_convert *c, const struct dcfg_process *p,
    const char *prefix, dcfg_profile_writer write, struct dcfg_error *err)
{
	const struct dcfg_convert_options *o = c->o;
	struct dcfg_profile pf;
	struct dcfg_replay r = { 0 };
	struct view v = { c, &pf, write, DCFG_ALL_THREADS };
	unsigned char *ran = NULL;
	char name[96];
	int rc;

	if (dcfg_profile_init(&pf, c->d, p, o->dcfg_path, err) < 0)
		return -1;
	if (!o->keep_stubs && (rc = dcfg_profile_fold_stubs(&pf, o->dcfg_path, err)) < 0)
		goto out;
	/* (read again for each process) */
	if (o->trace_path)
		dcfg_progress_file(dcfg_progress_of(o->progress, o->progress_ctx), NULL,
		    o->trace_path, NULL);
	if (o->trace_path && (rc = dcfg_replay_trace(&r, &pf, o->trace_path, o->progress,
	    o->progress_ctx, err)) < 0)
		goto out;
	if (!o->separate_threads) {
		snprintf(name, sizeof name, "%s.%" PRIu64, prefix, p->pid);
		rc = dcfg_profile_view(&pf, DCFG_ALL_THREADS, o->trace_path ?
		    dcfg_replay_incl(&r, DCFG_ALL_THREADS) : NULL, o->dcfg_path, err);
		if (rc == 0)
			rc = dcfg_convert_file(c, name, write_view, &v, err);
		goto out;
	}
	if ((ran = threads_that_ran(c->d, p)) == NULL) {
		rc = dcfg_error_set(err, o->dcfg_path, "out of memory");
		goto out;
	}
	for (v.thread = 0, rc = 0; v.thread < p->threads && rc == 0; v.thread++) {
		if (!ran[v.thread])
			continue;
		snprintf(name, sizeof name, "%s.%" PRIu64 "-%02" PRIu32, prefix, p->pid, v.thread);
		rc = dcfg_profile_view(&pf, v.thread, o->trace_path ?
		    dcfg_replay_incl(&r, v.thread) : NULL, o->dcfg_path, err);
		if (rc == 0)
			rc = dcfg_convert_file(c, name, write_view, &v, err);
	}
out:
	free(ran);
	dcfg_replay_free(&r);
	dcfg_profile_free(&pf);
	return rc;
}

int
dcfg_convert_profiles(const struct dcfg_convert *c, const char *prefix,
    dcfg_profile_writer write, struct dcfg_error *err)
{
	const struct dcfg_process *p;
	size_t n, i;
	int rc = 0;

	if ((p = dcfg_convert_processes(c, c->o->out_dir != NULL, &n, err)) == NULL)
		return -1;
	if (n > 1 && c->o->trace_path && strcmp(c->o->trace_path, "-") == 0)
		return dcfg_error_set(err, c->o->dcfg_path, "the DCFG has %zu processes and a trace "
		    "on standard input is read once; choose one with -p", n);
	for (i = 0; i < n && rc == 0; i++)
		rc = convert_process(c, &p[i], prefix, write, err);
	return rc;
}
