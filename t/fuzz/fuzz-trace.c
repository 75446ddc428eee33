/*
 * The DCFG-trace reader with the transition tables and the sequence
 * decoder behind it; the decoder with runs, checked against the plain
 * decoder edge for edge; the summary dcfg-info makes of a trace without
 * decoding it; dcfg-expand --plan's chunk table and shards (at most the
 * lines asked for); and the look at the first bytes that tells the kinds
 * apart.
 */
#include "fuzz.h"

#include "dcfg/model.h"
#include "common/kind.h"
#include "common/output.h"
#include "expand/plan.h"
#include <dcfg/stream.h>
#include <dcfg/trace.h>
#include "info/trace_summary.h"
#include "expand/window.h"
#include "planref.h"

/* Inputs may claim any EDGE_COUNT; a run stops after this many edges. */
#define MAX_EDGES 200000

struct run {
	uint64_t edges;
	uint32_t ids[1024];
};

/* The first MAX_EDGES edges of a chunk, as a count and a hash. */
struct digest {
	uint64_t n, hash;
};

/*
 * An instruction window over the chunk, with each edge's instructions
 * made up (its id mod 7): what falls inside, worked out edge by edge on
 * the plain decoding, and by window.h on the decoding with runs.
 */
struct cut {
	uint64_t from, to, icount, first, edges, instrs, hash;
	int past;
};

static int
made_up_instrs(void *ctx, uint32_t edge, uint64_t *n)
{
	(void)ctx;
	*n = edge % 7;
	return edge == 4242 ? -1 : 0;   /* one id "not in the DCFG" */
}

static void
cut_edge(struct cut *k, uint32_t id)
{
	uint64_t n;

	if (k->past)
		return;
	/* a `to` of 2^64 - 1 is no end (window.c) */
	if (made_up_instrs(NULL, id, &n) < 0 || (k->to != UINT64_MAX && k->icount >= k->to)) {
		k->past = 1;
		return;
	}
	if (k->icount >= k->from) {
		if (k->edges++ == 0)
			k->first = k->icount;
		k->instrs += n;
		k->hash = (k->hash ^ id) * UINT64_C(0x100000001b3);
	}
	k->icount += n;
}

static void
cut_write(void *ctx, const uint32_t *ids, size_t n)
{
	uint64_t *hash = ctx;
	size_t i;

	for (i = 0; i < n; i++)
		*hash = (*hash ^ ids[i]) * UINT64_C(0x100000001b3);
}

static void
digest_add(struct digest *d, uint32_t id)
{
	if (d->n++ < MAX_EDGES)
		d->hash = (d->hash ^ id) * UINT64_C(0x100000001b3);
}


/* A run being read: its tokens are kept until the outermost one ends. */
struct unrun {
	uint64_t tok[3 * DCFG_PERIOD_MAX];
	size_t n;
	unsigned depth;
	size_t match[3 * DCFG_PERIOD_MAX];   /* a run's start: its end */
	struct { size_t at, end; uint64_t left; } stack[DCFG_RUN_DEPTH_MAX];
};

/* Expands the outermost run kept in U into D, up to MAX_EDGES edges, with an explicit stack. */
static void
expand_kept(struct unrun *u, struct digest *d)
{
	size_t opens[DCFG_RUN_DEPTH_MAX], i, depth = 0;
	int top = -1;

	for (i = 0; i < u->n; i++) {
		if (u->tok[i] == DCFG_TOKEN_RUN) {
			opens[depth++] = i;
			i++;
		} else if (u->tok[i] == DCFG_TOKEN_END) {
			u->match[opens[--depth]] = i;
		}
	}
	i = 0;
	while (d->n < MAX_EDGES) {
		if (top >= 0 && i == u->stack[top].end) {
			if (--u->stack[top].left > 0) {
				i = u->stack[top].at;
				continue;
			}
			i = u->stack[top--].end + 1;
			continue;
		}
		if (i >= u->n)
			break;
		if (u->tok[i] == DCFG_TOKEN_RUN) {
			top++;
			u->stack[top].at = i + 2;
			u->stack[top].end = u->match[i];
			u->stack[top].left = u->tok[i + 1];
			i += 2;
			continue;
		}
		digest_add(d, (uint32_t)u->tok[i++]);
	}
	u->n = 0;
}

static void
keep(struct unrun *u, uint64_t t)
{
	if (u->n == sizeof u->tok / sizeof u->tok[0])
		abort();   /* a run longer than the decoder promises */
	u->tok[u->n++] = t;
}

/*
 * Decodes the chunk again with runs and checks that it stands for the
 * same edges, and fails at the same edge, as the plain decoding did.
 */
static void
check_runs(struct dcfg_chunk *c, struct run *r, const struct digest *plain, ssize_t plain_rc,
    uint64_t plain_at, const struct cut *want)
{
	static struct unrun u;
	static struct dcfg_window w;
	struct dcfg_run_event ev;
	struct digest d = { 0, 0 };
	uint64_t hash = 0;
	int wrc = 0;
	ssize_t n, i;

	dcfg_window_init(&w, want->from, want->to, 0);
	w.edge_instrs = made_up_instrs;
	w.write = cut_write;
	w.write_run = NULL;
	w.ctx = &hash;

	u.n = 0;
	u.depth = 0;
	dcfg_chunk_rewind(c);
	do {
		if ((n = dcfg_chunk_next_runs(c, r->ids, 1 + r->edges % 1024, &ev)) < 0)
			break;
		if (wrc == 0 && !w.past)
			wrc = dcfg_window_take(&w, r->ids, (size_t)n, &ev);
		for (i = 0; i < n; i++) {
			if (u.depth > 0)
				keep(&u, r->ids[i]);
			else
				digest_add(&d, r->ids[i]);
		}
		if (ev.kind == DCFG_RUN_BEGIN) {
			if (ev.count < 2 || u.depth == DCFG_RUN_DEPTH_MAX)
				abort();
			keep(&u, DCFG_TOKEN_RUN);
			keep(&u, ev.count);
			u.depth++;
		} else if (ev.kind == DCFG_RUN_END) {
			if (u.depth == 0)
				abort();
			keep(&u, DCFG_TOKEN_END);
			if (--u.depth == 0)
				expand_kept(&u, &d);
		}
	} while ((n > 0 || ev.kind != DCFG_RUN_NONE) && d.n < MAX_EDGES);
	if (d.n >= MAX_EDGES && plain->n >= MAX_EDGES) {
		if (d.hash != plain->hash)
			abort();
		return;
	}
	/* the plain decoding failed past the cap: its failing call handed over none of its edges */
	if (d.n >= MAX_EDGES && plain_rc < 0 && plain_at >= MAX_EDGES)
		return;
	/* the window, where the plain decoding saw the chunk to its end or past the window */
	if (n == 0 && wrc == 0 && plain_rc == 0 && plain->n < MAX_EDGES &&
	    (w.edges != want->edges || w.instrs != want->instrs || hash != want->hash ||
	    (w.edges > 0 && w.first != want->first)))
		abort();
	/* a failing call hands over none of its edges: compare where it failed */
	if ((n < 0) != (plain_rc < 0))
		abort();
	if (n < 0 ? dcfg_chunk_emitted(c) != plain_at : d.n != plain->n || d.hash != plain->hash)
		abort();
}

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	(void)ctx;
	(void)t;
	return pid == 7 ? DCFG_TRACE_SKIP : DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct run *r = ctx;
	ssize_t n;

	struct digest plain = { 0, 0 };
	struct cut want = { 0 };
	ssize_t i;

	if (dcfg_chunk_info(c)->index == 3)
		return DCFG_TRACE_OK;   /* a chunk left undecoded, as --from-icount does */
	/*
	 * The third chunk's window runs to its end: all its edges written out,
	 * so only where the plain decoding is compared (EDGE_COUNT under the
	 * cap), or 2^32 copies of a run would be 2^32 writes of the harness's
	 * making.
	 */
	want.from = dcfg_chunk_info(c)->edge_count % 97;
	want.to = dcfg_chunk_info(c)->index == 2 && dcfg_chunk_info(c)->edge_count < MAX_EDGES ?
	    UINT64_MAX : want.from + 1 + dcfg_chunk_info(c)->first_edge_id % 500;
	while ((n = dcfg_chunk_next(c, r->ids, sizeof r->ids / sizeof r->ids[0])) > 0) {
		for (i = 0; i < n; i++) {
			digest_add(&plain, r->ids[i]);
			cut_edge(&want, r->ids[i]);
		}
		r->edges += (uint64_t)n;
		if (plain.n >= MAX_EDGES)
			break;
	}
	check_runs(c, r, &plain, n, dcfg_chunk_emitted(c), &want);
	if (r->edges > MAX_EDGES)
		return DCFG_TRACE_STOP;
	if (n == 0 && dcfg_chunk_info(c)->index == 1) {
		dcfg_chunk_rewind(c);
		while ((n = dcfg_chunk_next(c, r->ids, 7)) > 0)
			if ((r->edges += (uint64_t)n) > MAX_EDGES)
				return DCFG_TRACE_STOP;
	}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

/*
 * dcfg-expand --plan N over the file, N from 1 to 5; with --align (one
 * input in two) cut at multiples of an interval and priced by the sample's
 * DCFG, which other processes are missing from (an error); of the whole
 * trace, or (one input in two) of one of its threads, by -t, or by -p and
 * -t. A plan written must be one dcfg-expand(1) allows for the chunk table
 * (planref.h).
 */
static void
check_plan(const char *path, size_t size)
{
	static const struct dcfg_trace_handler h = {
		.process = planref_on_process,
		.thread = planref_on_thread,
		.chunk = planref_on_chunk,
	};
	static struct planref ref;
	static char text[1 << 20];
	static int fd = -1;
	static char out_path[64];
	struct dcfg_plan_options po = { .lines = 1 + size % 5 };
	struct planref_selection sel = { NULL, NULL, 0, 0 };
	struct dcfg_output out;
	struct dcfg_error err;
	const char *why;
	size_t len = 0;
	ssize_t n;
	uint64_t pid, tid;
	int rc, read;

	if (fd < 0)
		fd = fuzz_memfd(out_path, sizeof out_path);
	if (size & 4) {
		po.align = 1 + size % 1000;
		po.dcfg = fuzz_sample_dcfg();
		po.dcfg_path = "sample.dcfg.json";
	}
	ref.n_c = ref.n_t = ref.n_pid = 0;
	ref.too_big = 0;
	read = dcfg_trace_read(path, &h, &ref, &err) == 0;
	if ((size & 8) && read && ref.n_t > 0) {
		tid = ref.t[(size >> 5) % ref.n_t].tid;
		pid = ref.t[(size >> 5) % ref.n_t].pid;
		po.tids = sel.tid = &tid;
		po.n_tids = sel.n_tid = 1;
		if (size & 16) {
			po.pids = sel.pid = &pid;
			po.n_pids = sel.n_pid = 1;
		}
	}
	/* emptied and rewound: -o /proc/self/fd/N writes through this very descriptor */
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	if (dcfg_output_open(&out, out_path, &err) < 0)
		abort();
	rc = dcfg_plan(path, &po, &out, &err);
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	while (len < sizeof text && (n = pread(fd, text + len, sizeof text - len, (off_t)len)) > 0)
		len += (size_t)n;
	if (rc < 0 || len == sizeof text)
		return;
	if (!read)
		abort();   /* the plan read this table without a fault */
	if ((why = planref_judge(&ref, text, len, po.lines, po.align, po.dcfg_path, &sel)) != NULL) {
		fprintf(stderr, "fuzz-trace: --plan %llu%s%s%s: %s\n%.*s", (unsigned long long)po.lines,
		    po.align ? " --align" : "", sel.n_pid ? " -p" : "", sel.n_tid ? " -t" : "", why,
		    (int)len, text);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct dcfg_trace_handler h = {
		.process = on_process,
		.chunk = on_chunk,
	};
	static struct dcfg_output out;
	struct dcfg_trace_summary_options so = { .only_pid = size & 1, .pid = 1 };
	struct dcfg_trace_summary ts;
	struct run r = { 0 };
	struct dcfg_error err;
	const char *path = fuzz_file(data, size);

	dcfg_trace_read(path, &h, &r, &err);
	if (dcfg_trace_summarize(path, &so, &ts, &err) == 0) {
		if (dcfg_output_open(&out, "/dev/null", &err) < 0)
			abort();
		dcfg_trace_summary_write(&out, &ts, (int)(size & 2));
		dcfg_output_close(&out, &err);
		dcfg_trace_summary_free(&ts);
	}
	check_plan(path, size);
	dcfg_kind_sniff((const char *)data, size, 1);
	dcfg_kind_sniff((const char *)data, size / 2, 0);
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	return fuzz_mutate_json(data, size, max, seed, FUZZ_TRACE);
}
#endif
