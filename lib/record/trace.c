/*
 * The trace: lib/encode's first two passes each walk every thread again,
 * its edges given straight to the encoder with the chunks the counting
 * pass measured (no text between), each edge's instructions from the
 * graph; the third reads back the second's text, kept in the spool.
 */
#include "trace.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <dcfg/dcfg.h>
#include "encode/encode.h"
#include "common/tempfiles.h"

/* The encoder keeps one chunk's edges: a marker's chunk longer than this is split. */
#define REC_ENCODE_CHUNK_EDGES (1u << 24)
/* Edge ids a walk hands over at once. */
#define REC_TRACE_IDS (64u * 1024)

struct tracer {
	struct rec_build *b;
	dcfg_encode_sink sink;
	void *enc;
	uint32_t thread;
	size_t chunk;             /* the next chunk of b->chunks */
	uint64_t left;            /* edges still to give of the current chunk */
	int stop;                 /* the sink's non-zero value that stopped the walk */
};

/* The walk's edge ids to the encoder, a chunk marker where the counting pass cut a chunk. */
static int
trace_ids(void *ctx, const uint32_t *ids, size_t n)
{
	struct tracer *t = ctx;
	const struct rec_build *b = t->b;

	while (n > 0) {
		size_t take;
		int rc;
		if (t->left == 0) {
			const struct rec_chunk *c;
			struct dcfg_stream_record r = { .kind = DCFG_STREAM_CHUNK, .weight = 1 };
			if (t->chunk >= b->thread_chunks[t->thread + 1])
				return 2;
			c = &b->chunks[t->chunk++];
			r.preceding = c->preceding;
			r.instrs = c->instrs;
			r.edges = c->edges;
			if ((rc = t->sink(t->enc, &r)) != 0)
				return t->stop = rc, 3;
			t->left = c->edges;
		}
		take = t->left < n ? (size_t)t->left : n;
		if ((rc = dcfg_encode_sink_edges(t->enc, ids, take)) != 0)
			return t->stop = rc, 3;
		t->left -= take;
		ids += take;
		n -= take;
	}
	return 0;
}

/*
 * The walk runs on a thread of its own, ahead of the encoder: blocks of
 * edge ids pass through slots, each a thread's start, a block of its ids,
 * or its end with the walk's result. The encoder works on a chunk at its
 * close, so the slots hold twice the largest chunk's edges (and a few
 * more), the walk going on meanwhile: memory of two more chunks, flat in
 * the program's length, at most REC_TRACE_SLOTS_MAX slots (33 MiB).
 */
#define REC_TRACE_SLOTS_MIN 4
#define REC_TRACE_SLOTS_MAX 132

enum slot_kind { SLOT_THREAD, SLOT_IDS, SLOT_THREAD_END, SLOT_DONE };

struct slot {
	enum slot_kind kind;
	uint32_t thread;
	int rc;                   /* SLOT_THREAD_END: the walk's */
	uint32_t *ids;            /* REC_TRACE_IDS of room */
	size_t n;
};

struct walker {
	struct rec_build *b;
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	struct slot *slots;
	size_t n_slots;
	uint32_t *walk_ids;       /* the walk's own REC_TRACE_IDS */
	size_t head, count;       /* the oldest full slot, how many are full */
	int stop;                 /* the encoder stopped: the walk ends */
	struct dcfg_error err;    /* the walk's, when a slot's rc is -1 */
};

/* The next empty slot, waited for; NULL when the encoder stopped. */
static struct slot *
empty_slot(struct walker *w)
{
	struct slot *s = NULL;

	pthread_mutex_lock(&w->lock);
	while (!w->stop && w->count == w->n_slots)
		pthread_cond_wait(&w->emptied, &w->lock);
	if (!w->stop)
		s = &w->slots[(w->head + w->count) % w->n_slots];
	pthread_mutex_unlock(&w->lock);
	return s;
}

static void
fill_slot(struct walker *w)
{
	pthread_mutex_lock(&w->lock);
	w->count++;
	pthread_cond_signal(&w->filled);
	pthread_mutex_unlock(&w->lock);
}

/* Hands a slot of KIND over; 1 when the encoder stopped. */
static int
put_mark(struct walker *w, enum slot_kind kind, uint32_t thread, int rc)
{
	struct slot *s = empty_slot(w);

	if (s == NULL)
		return 1;
	s->kind = kind;
	s->thread = thread;
	s->rc = rc;
	fill_slot(w);
	return 0;
}

static int
put_ids(void *ctx, const uint32_t *ids, size_t n)
{
	struct walker *w = ctx;
	struct slot *s = empty_slot(w);

	if (s == NULL)
		return 1;
	s->kind = SLOT_IDS;
	memcpy(s->ids, ids, n * sizeof *ids);
	s->n = n;
	fill_slot(w);
	return 0;
}

static void *
walk_all(void *arg)
{
	struct walker *w = arg;
	struct rec_build *b = w->b;
	struct rec_id_sink out = { .ids = w->walk_ids, .cap = REC_TRACE_IDS, .flush = put_ids, .ctx = w };
	uint32_t th;
	int rc = 0;

	for (th = 0; th < b->g->n_threads && rc == 0; th++) {
		if (b->thread_chunks[th] == b->thread_chunks[th + 1])
			continue;   /* a thread that ran no block: nothing to trace */
		if (put_mark(w, SLOT_THREAD, th, 0) != 0)
			return NULL;
		rc = rec_walk_thread(b, th, &out, &w->err);
		if (put_mark(w, SLOT_THREAD_END, th, rc) != 0)
			return NULL;
	}
	put_mark(w, SLOT_DONE, 0, 0);
	return NULL;
}

/* A slot from the walk: the thread record to the encoder, ids through T, a thread checked. */
static int
take_slot(struct tracer *t, struct walker *w, const struct slot *s, struct dcfg_error *err)
{
	const struct rec_build *b = t->b;
	struct dcfg_stream_record r = { .kind = DCFG_STREAM_THREAD, .weight = 1 };
	int rc;

	switch (s->kind) {
	case SLOT_THREAD:
		r.value = s->thread;
		t->thread = s->thread;
		t->chunk = b->thread_chunks[s->thread];
		t->left = 0;
		return t->sink(t->enc, &r);
	case SLOT_IDS:
		rc = trace_ids(t, s->ids, s->n);
		return rc == 3 ? t->stop : rc == 2 ? dcfg_error_set(err, b->s->dir,
		    "thread %u: the second walk does not match the first's chunks", t->thread) : rc;
	case SLOT_THREAD_END:
		if (s->rc < 0) {
			*err = w->err;
			return -1;
		}
		if (s->rc != 0 || t->left != 0 || t->chunk != b->thread_chunks[t->thread + 1])
			return dcfg_error_set(err, b->s->dir,
			    "thread %u: the second walk does not match the first's chunks", t->thread);
		return 0;
	default:
		return 0;
	}
}

/* Takes the walk's slots in order until its end or a non-zero result. */
static int
take_slots(struct tracer *t, struct walker *w, struct dcfg_error *err)
{
	int rc = 0, done = 0;

	while (rc == 0 && !done) {
		struct slot *s;
		pthread_mutex_lock(&w->lock);
		while (w->count == 0)
			pthread_cond_wait(&w->filled, &w->lock);
		s = &w->slots[w->head];
		pthread_mutex_unlock(&w->lock);
		done = s->kind == SLOT_DONE;
		rc = take_slot(t, w, s, err);
		pthread_mutex_lock(&w->lock);
		w->head = (w->head + 1) % w->n_slots;
		w->count--;
		if (rc != 0)
			w->stop = 1;
		pthread_cond_signal(&w->emptied);
		pthread_mutex_unlock(&w->lock);
	}
	return rc;
}

/* Slots for B's largest chunk twice (measured best), and REC_TRACE_SLOTS_MIN more. */
static size_t
slots_for(const struct rec_build *b)
{
	uint64_t most = 0;
	size_t i;

	for (i = 0; i < b->n_chunks; i++)
		if (b->chunks[i].edges > most)
			most = b->chunks[i].edges;
	most = 2 * (most / REC_TRACE_IDS) + REC_TRACE_SLOTS_MIN;
	return most < REC_TRACE_SLOTS_MAX ? (size_t)most : REC_TRACE_SLOTS_MAX;
}

/* One pass of the encoder: every thread walked again, its chunks as the counting pass cut them. */
static int
replay(void *ctx, dcfg_encode_sink sink, void *enc, struct dcfg_error *err)
{
	struct rec_build *b = ctx;
	struct tracer t = { .b = b, .sink = sink, .enc = enc };
	struct dcfg_stream_record r = { .kind = DCFG_STREAM_PROCESS, .weight = 1 };
	struct walker *w;
	pthread_t walk_thread;
	sigset_t saved;
	size_t i;
	int rc;

	r.value = b->g->pid;
	if ((rc = sink(enc, &r)) != 0)
		return rc;
	if ((w = calloc(1, sizeof *w)) == NULL)
		return dcfg_error_set(err, b->s->dir, "out of memory");
	w->b = b;
	w->n_slots = slots_for(b);
	if ((w->slots = calloc(w->n_slots, sizeof *w->slots)) == NULL) {
		free(w);
		return dcfg_error_set(err, b->s->dir, "out of memory");
	}
	for (i = 0; i < w->n_slots; i++)
		if ((w->slots[i].ids = malloc(REC_TRACE_IDS * sizeof *w->slots[i].ids)) == NULL)
			rc = dcfg_error_set(err, b->s->dir, "out of memory");
	if ((w->walk_ids = malloc(REC_TRACE_IDS * sizeof *w->walk_ids)) == NULL)
		rc = dcfg_error_set(err, b->s->dir, "out of memory");
	if (rc == 0) {
		pthread_mutex_init(&w->lock, NULL);
		pthread_cond_init(&w->filled, NULL);
		pthread_cond_init(&w->emptied, NULL);
		dcfg_temp_hold_signals(&saved);   /* the main thread takes them */
		if (pthread_create(&walk_thread, NULL, walk_all, w) != 0)
			rc = dcfg_error_set(err, b->s->dir, "starting the trace's walk: out of resources");
		dcfg_temp_release_signals(&saved);
		if (rc == 0) {
			rc = take_slots(&t, w, err);
			pthread_join(walk_thread, NULL);
		}
		pthread_cond_destroy(&w->emptied);
		pthread_cond_destroy(&w->filled);
		pthread_mutex_destroy(&w->lock);
	}
	for (i = 0; i < w->n_slots; i++)
		free(w->slots[i].ids);
	free(w->slots);
	free(w->walk_ids);
	free(w);
	return rc;
}

int
rec_write_trace(struct rec_build *b, struct dcfg_output *out, struct dcfg_error *err)
{
	struct dcfg_encode_options eo = { .chunk_edges = REC_ENCODE_CHUNK_EDGES,
	    .spill_dir = b->s->dir };
	struct dcfg_encode_source src = { .name = b->s->dir, .replay = replay, .ctx = b,
	    .edge_instrs = b->edge_instrs, .n_edges = b->g->n_edges };
	int rc = dcfg_encode_edges(&src, &eo, out, err);

	if (rc > 0)
		rc = dcfg_error_set(err, b->s->dir, "writing the trace failed");
	return rc;
}
