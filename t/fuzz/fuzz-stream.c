/*
 * The edge-stream reader, and the stages that read a stream (dcfg-edges,
 * dcfg-blocks, dcfg-count) against a fixed DCFG: the bundled sample, whose
 * edge ids a fuzzer finds in the seed streams.
 *
 * Every input is also expanded by dcfg-unrun's expansion of runs
 * (t/tools/unrun.h) and, as a second method, by the one of dcfg-stream(5)'s
 * EXAMPLES (the awk: each period built up as text, copied COUNT times into
 * the one around it). Both stop after CAP_LINES lines or CAP_BYTES bytes,
 * so a huge COUNT costs no more than a small one; what each wrote is then
 * a beginning of the same version 1 stream, and the shorter must be the
 * start of the longer. And the reader's promises are checked: each line's
 * weight and depth are those of the runs around it, a "# end run" gives
 * its run's COUNT back, and unrun has written as many data lines as the
 * weights of those read add up to whenever no run is open.
 */
#include "fuzz.h"

#include <string.h>

#include "stream/blocks.h"
#include "cli/count_stream.h"
#include "stream/edges.h"
#include <dcfg/stream.h>
#include "../tools/unrun.h"

#define CAP_LINES 4096
#define CAP_BYTES (1024 * 1024)

/* Text that stops growing at the caps; only whole lines go in. */
struct text {
	char *buf;
	size_t len, cap, lines;
	uint64_t data;       /* its data lines */
};

static int
text_full(const struct text *t)
{
	return t->lines >= CAP_LINES || t->len >= CAP_BYTES;
}

/* Adds LINE and a newline: 1 when the text is full (LINE not added then). */
static int
text_add(struct text *t, const char *line, size_t len)
{
	if (text_full(t))
		return 1;
	if (dcfg_reserve((void **)&t->buf, &t->cap, t->len + len + 1, 1) < 0)
		abort();
	memcpy(t->buf + t->len, line, len);
	t->buf[t->len + len] = '\n';
	t->len += len + 1;
	t->lines++;
	t->data += len == 0 || line[0] != '#';
	return 0;
}

static int
sink(void *ctx, const char *line, size_t len)
{
	return text_add(ctx, line, len);
}

/* The awk of dcfg-stream(5): a text per open run, copied out at its end. */
struct awk {
	struct text p[DCFG_RUN_DEPTH_MAX + 1];   /* p[0] is the output */
	uint64_t count[DCFG_RUN_DEPTH_MAX + 1];
	unsigned d;
};

static void
awk_feed(struct awk *a, const struct dcfg_stream_record *r)
{
	struct text *s;
	size_t at, n;
	uint64_t i;

	if (r->kind == DCFG_STREAM_RUN) {
		a->count[++a->d] = r->value;
		a->p[a->d].len = a->p[a->d].lines = 0;
		return;
	}
	if (r->kind != DCFG_STREAM_RUN_END) {
		text_add(&a->p[a->d], r->line, r->len);
		return;
	}
	s = &a->p[a->d];
	/* an empty period is copied to nothing whatever the count */
	for (i = 0; i < a->count[a->d] && s->len > 0 && !text_full(&a->p[a->d - 1]); i++)
		for (at = 0; at < s->len; at += n + 1) {
			n = (size_t)((char *)memchr(s->buf + at, '\n', s->len - at) - (s->buf + at));
			if (text_add(&a->p[a->d - 1], s->buf + at, n))
				break;
		}
	a->d--;
}

/*
 * Both expansions of the stream at PATH, and the reader's promises. The
 * data lines' weights added up (saturating), 0 for a stream refused at once.
 */
static uint64_t
expansions(const char *path)
{
	static struct awk a;
	struct text got = { 0 };
	struct unrun u = { .emit = sink, .ctx = &got };
	uint64_t w[DCFG_RUN_DEPTH_MAX + 1] = { 1 }, weights = 0, counts[DCFG_RUN_DEPTH_MAX];
	struct dcfg_stream_record r;
	struct dcfg_error err;
	struct dcfg_stream *st;
	unsigned d = 0;
	int stopped = 0, rc;

	if ((st = dcfg_stream_open(path, NULL, &err)) == NULL)
		return 0;
	a.d = 0;
	a.p[0].len = a.p[0].lines = a.p[0].data = 0;
	while ((rc = dcfg_stream_next(st, &r, &err)) > 0) {
		/* a "# end run" is at the depth and weight its run opened at */
		unsigned at = r.kind == DCFG_STREAM_RUN_END ? d - 1 : d;
		if ((r.kind == DCFG_STREAM_RUN_END && d == 0) || r.depth != at || r.weight != w[at])
			abort();
		if (r.kind == DCFG_STREAM_RUN) {
			if (d == DCFG_RUN_DEPTH_MAX || r.value == 0 ||
			    __builtin_mul_overflow(w[d], r.value, &w[d + 1]))
				abort();
			counts[d++] = r.value;
		} else if (r.kind == DCFG_STREAM_RUN_END) {
			if (r.value != counts[--d])
				abort();
		} else if (r.kind == DCFG_STREAM_EDGE) {
			weights = __builtin_add_overflow(weights, r.weight, &weights) ?
			    UINT64_MAX : weights;
		} else if (d > 0) {
			abort();   /* only data lines and runs in a period */
		}
		if (stopped)
			continue;   /* the rest is read for the reader's sake */
		if ((rc = unrun_feed(&u, &r)) < 0)
			abort();
		stopped = rc > 0;
		awk_feed(&a, &r);
		if (u.depth != d || a.d != d)
			abort();
		if (!stopped && d == 0 && got.data != weights)
			abort();
	}
	if (rc == 0 && d != 0)
		abort();
	if (got.data > weights)
		abort();
	/* both are beginnings of the same stream; neither stopped: all of it */
	if (memcmp(got.buf ? got.buf : "", a.p[0].buf ? a.p[0].buf : "",
	    got.len < a.p[0].len ? got.len : a.p[0].len) != 0)
		abort();
	if (rc == 0 && !stopped && !text_full(&a.p[0]) && got.len != a.p[0].len)
		abort();
	unrun_free(&u);
	free(got.buf);
	dcfg_stream_close(st);
	return weights;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcfg_output out;
	const char *path = fuzz_file(data, size);
	struct dcfg_count_options co = { .by = (enum dcfg_count_by)(size % 9) };
	struct dcfg_stage s;
	struct dcfg_error err;
	uint64_t weights = expansions(path);

	if (dcfg_output_open(&out, "/dev/null", &err) < 0)
		abort();
	s = (struct dcfg_stage){ .dcfg = fuzz_sample_dcfg(), .out = &out };
	dcfg_edges_run(&s, path, 0, &err);
	s = (struct dcfg_stage){ .dcfg = fuzz_sample_dcfg(), .out = &out };
	dcfg_blocks_run(&s, path, (int)(size & 1), &err);
	s = (struct dcfg_stage){ .dcfg = fuzz_sample_dcfg() };
	/*
	 * --bbv writes a vector per interval, as many as the runs make: short
	 * intervals only for a stream of few lines written out, so that a huge
	 * COUNT is no hang of the harness's making.
	 */
	if (size & 2)
		co.bbv = weights <= 1000000 ? 1000 : UINT64_C(1) << 62;
	dcfg_count_stream(&s, &out, path, &co, &err);
	dcfg_output_close(&out, &err);
	return 0;
}
