/*
 * The trace reader as pull iteration (trace.h, dcfg_trace_pull_open(3)).
 * dcfg_trace_read drives the parse and calls back; a callback cannot
 * return to the caller and resume, so the reading runs on a thread of its
 * own that, at each callback, posts the event and waits for the answer:
 * one event in flight, two thread switches per event, none per edge. The
 * consumer decodes a chunk while the reader waits inside its callback.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dcfg/trace.h>
#include "selection.h"

struct dcfg_trace_pull {
	pthread_mutex_t lock;
	pthread_cond_t posted, answered;    /* by the reader; by the consumer */
	pthread_t thread;
	char *path;
	struct dcfg_selection sel;          /* -p and -t of dcfg-expand, */
	uint64_t *ids;                      /* over a copy of their ids, */
	int no_process, no_thread;          /* or an empty list given: nothing */
	struct dcfg_trace_event ev;
	int waiting;                        /* the event is posted, not answered */
	int answer;
	int closing;                        /* 1: every answer is STOP; 2: and the consumer has gone */
	int done, rc;                       /* the reading is over: dcfg_trace_read's result */
	struct dcfg_error err;
};

static void
destroy(struct dcfg_trace_pull *r)
{
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->posted);
	pthread_cond_destroy(&r->answered);
	dcfg_selection_free(&r->sel);
	free(r->ids);
	free(r->path);
	free(r);
}

/* The reader's side: posts EV and waits for its answer. */
static int
hand_over(struct dcfg_trace_pull *r, struct dcfg_trace_event ev)
{
	int answer = DCFG_TRACE_STOP;

	pthread_mutex_lock(&r->lock);
	if (!r->closing) {
		r->ev = ev;
		r->waiting = 1;
		pthread_cond_signal(&r->posted);
		while (r->waiting && !r->closing)
			pthread_cond_wait(&r->answered, &r->lock);
		if (!r->waiting)
			answer = r->answer;
		r->waiting = 0;
	}
	pthread_mutex_unlock(&r->lock);
	return answer;
}

/* What is not selected is skipped here, unseen by the consumer. */
static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct dcfg_trace_pull *r = ctx;

	if (!dcfg_selection_process(&r->sel, pid) || r->no_process)
		return DCFG_TRACE_SKIP;
	return hand_over(r, (struct dcfg_trace_event){ DCFG_EVENT_PROCESS, pid, 0, t, NULL });
}

static int
on_thread(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid)
{
	struct dcfg_trace_pull *r = ctx;

	if (!dcfg_selection_thread(&r->sel, tid) || r->no_thread)
		return DCFG_TRACE_SKIP;
	return hand_over(r, (struct dcfg_trace_event){ DCFG_EVENT_THREAD, pid, tid, t, NULL });
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	const struct dcfg_chunk_info *i = dcfg_chunk_info(c);

	return hand_over(ctx, (struct dcfg_trace_event){ DCFG_EVENT_CHUNK, i->pid, i->tid, NULL, c });
}

static void *
run(void *arg)
{
	static const struct dcfg_trace_handler h = {
		.process = on_process, .thread = on_thread, .chunk = on_chunk
	};
	struct dcfg_trace_pull *r = arg;
	struct dcfg_error err = { .line = 0 };      /* copied whole below, set or not */
	int rc = dcfg_trace_read(r->path, &h, r, &err), abandoned;

	if (rc == 0 && dcfg_selection_check(&r->sel, r->path ? r->path : "-", &err) < 0)
		rc = -2;

	pthread_mutex_lock(&r->lock);
	r->rc = rc;
	r->err = err;
	r->done = 1;
	abandoned = r->closing == 2;
	pthread_cond_broadcast(&r->posted);
	pthread_mutex_unlock(&r->lock);
	/* the consumer has gone (dcfg_trace_pull_close gave up waiting): the reader frees */
	if (abandoned)
		destroy(r);
	return NULL;
}

/* R's selection, over copies of the ids. 0, or -1 when out of memory. */
static int
select_ids(struct dcfg_trace_pull *r, const uint64_t *pids, size_t n_pids,
    const uint64_t *tids, size_t n_tids)
{
	r->no_process = pids != NULL && n_pids == 0;
	r->no_thread = tids != NULL && n_tids == 0;
	if ((r->ids = malloc((n_pids + n_tids + 1) * sizeof *r->ids)) == NULL)
		return -1;
	if (n_pids)
		memcpy(r->ids, pids, n_pids * sizeof *r->ids);
	if (n_tids)
		memcpy(r->ids + n_pids, tids, n_tids * sizeof *r->ids);
	return dcfg_selection_init(&r->sel, r->ids, n_pids, r->ids + n_pids, n_tids);
}

struct dcfg_trace_pull *
dcfg_trace_pull_open(const char *path, const uint64_t *pids, size_t n_pids,
    const uint64_t *tids, size_t n_tids)
{
	struct dcfg_trace_pull *r = calloc(1, sizeof *r);
	sigset_t all, old;
	int rc;

	if (r == NULL)
		return NULL;
	if ((path != NULL && (r->path = strdup(path)) == NULL) ||
	    select_ids(r, pids, n_pids, tids, n_tids) < 0) {
		dcfg_selection_free(&r->sel);
		free(r->ids);
		free(r->path);
		free(r);
		return NULL;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->posted, NULL);
	pthread_cond_init(&r->answered, NULL);
	/* signals go to the caller's threads, never to the reader's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&r->thread, NULL, run, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		destroy(r);
		return NULL;
	}
	return r;
}

/* Waits on COND until UNTIL (NULL: without limit): 0, or ETIMEDOUT. */
static int
wait_for(struct dcfg_trace_pull *r, pthread_cond_t *cond, const struct timespec *until)
{
	if (until == NULL)
		return pthread_cond_wait(cond, &r->lock);
	return pthread_cond_timedwait(cond, &r->lock, until);
}

/* The time WAIT_MS milliseconds from now, in AT; NULL for -1 (no limit). */
static const struct timespec *
deadline(int wait_ms, struct timespec *at)
{
	if (wait_ms < 0)
		return NULL;
	clock_gettime(CLOCK_REALTIME, at);
	at->tv_sec += wait_ms / 1000;
	at->tv_nsec += (long)(wait_ms % 1000) * 1000000L;
	if (at->tv_nsec >= 1000000000L) {
		at->tv_sec++;
		at->tv_nsec -= 1000000000L;
	}
	return at;
}

int
dcfg_trace_pull_next(struct dcfg_trace_pull *r, struct dcfg_trace_event *ev, int wait_ms,
    struct dcfg_error *err)
{
	struct timespec at;
	const struct timespec *until = deadline(wait_ms, &at);
	int rc;

	pthread_mutex_lock(&r->lock);
	while (!r->waiting && !r->done)
		if (wait_for(r, &r->posted, until) == ETIMEDOUT && !r->waiting && !r->done) {
			pthread_mutex_unlock(&r->lock);
			return DCFG_TRACE_PULL_WAIT;
		}
	if (r->waiting) {
		*ev = r->ev;
		rc = DCFG_TRACE_PULL_EVENT;
	} else {
		rc = r->rc;
		if (rc < 0 && err)
			*err = r->err;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

void
dcfg_trace_pull_answer(struct dcfg_trace_pull *r, int answer)
{
	pthread_mutex_lock(&r->lock);
	if (r->waiting) {
		r->answer = answer;
		r->waiting = 0;
		pthread_cond_signal(&r->answered);
	}
	pthread_mutex_unlock(&r->lock);
}

void
dcfg_trace_pull_close(struct dcfg_trace_pull *r, int wait_ms)
{
	struct timespec at;
	const struct timespec *until = deadline(wait_ms, &at);
	int over;

	if (r == NULL)
		return;
	pthread_mutex_lock(&r->lock);
	r->closing = 1;
	pthread_cond_signal(&r->answered);
	while (!r->done)
		if (wait_for(r, &r->posted, until) == ETIMEDOUT && !r->done)
			break;
	over = r->done;
	if (!over) {
		/* the reader is stuck (standard input that does not come): it frees R when it ends */
		pthread_t thread = r->thread;
		r->closing = 2;
		pthread_mutex_unlock(&r->lock);
		pthread_detach(thread);
		return;
	}
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	destroy(r);
}
