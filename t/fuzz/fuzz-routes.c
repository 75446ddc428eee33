/*
 * Two routes to one answer must agree (issue 23). The input is a
 * DCFG-trace, read with the bundled sample's DCFG; every route runs in
 * this process, through the library, on files in memory:
 *
 *   plain     dcfg-expand --chunks                 (every edge)
 *   runs      dcfg-expand --chunks --runs          (repeats as runs)
 *   totals    dcfg-expand --count
 *   shards    dcfg-expand --plan N, N from 1 to 4 (--align with the DCFG
 *             one input in two), each line expanded and counted, the
 *             tables merged by dcfg-count --merge
 *   encode    dcfg-encode of the stream, expanded again
 *   stages    dcfg-edges | dcfg-blocks, then counted
 *   callgrind dcfg-convert --to callgrind --keep-stubs of the sample's DCFG
 *             with the stream's edge counts in it
 *   pullwin   dcfg_trace_pull_* and dcfg_chunk_window_* (the library's
 *             exact window, edge by edge) against dcfg-expand --dcfg
 *             --from-icount --to-icount (its cut by the runs), for each
 *             window of a --plan's lines (-p, -t) and one the bytes choose
 *
 * and checks: plain | dcfg-count equals runs | dcfg-count for every --by
 * kind and --bbv; --count equals what the lines add up to (edges per
 * thread, weighted by the runs around them, and the INSTR_COUNT of the
 * chunk markers); the merged shards equal one run's table; the encoded
 * stream expands to the same edges; the stream after the stages counts the
 * same; the Callgrind profile puts the same instructions on every source
 * line and file as dcfg-count --by line and --by file; both windows hold
 * the same edges in the same order. The reference stream is plain where
 * it was written whole, else runs (a huge but periodic trace), so huge
 * inputs are checked too.
 *
 * Work is bounded: a stream route writes into a pipe of CAP_BYTES that is
 * never read while it runs, so a route that would write more stops with a
 * failed write ("capped") and is compared with nothing; --count runs only
 * after plain or runs finished under the cap, so it decodes no more than
 * they did. --bbv (interval 100) is asked only where the plain stream was
 * written whole: a vector per interval of a huge trace would be a hang.
 * pullwin decodes at most PULL_EDGES_MAX edges a window (routes-window.h,
 * pull_window_digest), before dcfg-expand decodes the same.
 *
 * Acceptance (a route that refuses what another accepts is a finding):
 *   - plain, runs and --count decode the same chunks: all accept or all
 *     refuse, except --count alone refusing a thread whose instructions
 *     or edges pass 2^64 - 1 (only --count adds them up);
 *   - plain | count and runs | count: both accept or both refuse;
 *   - an accepted stream is encoded (unless a chunk marker's PRECEDING +
 *     INSTRS passes 2^64 - 1: no trace can hold that chunk), and what is
 *     encoded is expanded;
 *   - the stages and their count accept exactly when the count of the
 *     stream they read accepts;
 *   - where the whole is counted, every shard expands and is counted, and
 *     the tables merge. --plan itself reads only the chunk table, so it may
 *     refuse what the decoder accepts (and the other way): not compared.
 *     A whole count refused while every shard's count is accepted is no
 *     finding either (a sum past 2^64 - 1 only the whole makes);
 *   - pullwin runs on traces plain or runs decoded whole, so each window
 *     is refused by both (with the same message) or by neither: an edge
 *     not in the DCFG, an edge past 2^64 instructions, a process the DCFG
 *     lacks, a -p or -t not in the trace. A window that ends before a
 *     run passes 2^64 instructions is taken by both.
 */
#include "fuzz.h"

#include <errno.h>
#include <fcntl.h>

#include "cli/count_stream.h"
#include "count/bykind.h"
#include "count/count_merge.h"
#include "convert/convert.h"
#include "stream/blocks.h"
#include "stream/edges.h"
#include "encode/encode.h"
#include "expand/expand.h"
#include "expand/plan.h"
#include "routes.h"
#include "routes-window.h"

#define SHARDS_MAX 4
#define IDS_MAX 256
#define KIND_BBV DCFG_BY_KINDS   /* kinds below are --by's (bykind.h), this one is --bbv */
#define KINDS (DCFG_BY_KINDS + 1)

static const char *
kind_name(int kind)
{
	return kind == KIND_BBV ? "bbv" : dcfg_count_kind((enum dcfg_count_by)kind)->name;
}

/* dcfg-count --dcfg SAMPLE --by KIND (or --bbv) STREAM, into M. */
static int
count_to(struct mem *m, const char *stream, int kind)
{
	static struct dcfg_output out;
	struct dcfg_count_options co = { .by = kind == KIND_BBV ? DCFG_BY_EDGE : (enum dcfg_count_by)kind,
		.bbv = kind == KIND_BBV ? 100 : 0 };
	struct dcfg_stage s = { .dcfg = fuzz_sample_dcfg() };
	struct dcfg_error err;
	int rc;

	mem_reset(m);
	if (dcfg_output_open(&out, m->path, &err) < 0)
		abort();
	rc = dcfg_count_stream(&s, &out, stream, &co, &err);
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	mem_load(m);
	return rc < 0 ? REFUSED : DONE;
}

/*
 * dcfg-count --merge of N tables into M: the one use of count_merge.h, so
 * that options it may gain (what the tables cover) are set here alone.
 */
static int
merge_to(struct mem *m, struct mem *tables, size_t n)
{
	static struct dcfg_output out;
	struct dcfg_count_merge_options mo = { 0 };
	struct dcfg_error err;
	char *paths[SHARDS_MAX];
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		paths[i] = tables[i].path;
	mem_reset(m);
	if (dcfg_output_open(&out, m->path, &err) < 0)
		abort();
	rc = dcfg_count_merge(paths, n, &mo, &out, &err);
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	mem_load(m);
	if (rc < 0)
		fprintf(stderr, "fuzz-routes: merge: %s: %s\n", err.file, err.message);
	return rc < 0 ? REFUSED : DONE;
}

static int
same_rows(const struct digest *a, const struct digest *b, int instrs)
{
	size_t i;

	if (a->many || b->many)
		return 1;
	if (a->n_rows != b->n_rows)
		return 0;
	for (i = 0; i < a->n_rows; i++)
		if (a->rows[i].pid != b->rows[i].pid || a->rows[i].tid != b->rows[i].tid ||
		    a->rows[i].edges != b->rows[i].edges ||
		    (instrs && a->rows[i].instrs != b->rows[i].instrs))
			return 0;
	return 1;
}

/* plain and runs both written whole: the same edges, counted alike by every kind. */
static void
check_runs(const struct mem *plain, const struct mem *runs)
{
	static struct mem a, b;
	struct digest dp, dr;
	int k, ra, rb;

	digest_stream(plain->buf, &dp);
	digest_stream(runs->buf, &dr);
	if (!dr.wrap && (dp.edges != dr.edges || dp.sum != dr.sum || !same_rows(&dp, &dr, 1)))
		disagree("--runs stands for other edges than the plain stream", NULL);
	for (k = 0; k < KINDS; k++) {
		ra = count_to(&a, plain->path, k);
		rb = count_to(&b, runs->path, k);
		if (ra != rb)
			disagree(ra == DONE ? "dcfg-count refuses --runs, not plain" :
			    "dcfg-count refuses plain, not --runs", kind_name(k));
		if (ra == DONE && !same_table(&a, &b))
			disagree("--runs | dcfg-count differs from | dcfg-count", kind_name(k));
		note(kind_name(k), ra);
	}
}

/* --count against the reference stream's lines; REFUSED: the stream's route refused. */
static void
check_totals(const char *trace, struct dcfg_expand_options o, int refused, const struct mem *ref)
{
	static struct mem totals;
	struct digest want, got;
	size_t i;
	int rc, wraps = 0;

	o.mode = DCFG_EXPAND_COUNT;
	o.runs = o.chunks = 0;
	rc = expand_to(&totals, trace, &o, NULL);
	note("totals", rc);
	if (rc == CAPPED)
		abort();   /* a line a thread */
	if (refused) {
		if (rc != REFUSED)
			disagree("--count accepts a trace the stream refuses", NULL);
		return;
	}
	digest_stream(ref->buf, &want);
	for (i = 0; i < want.n_rows; i++)
		wraps |= want.rows[i].instrs_wrap;
	/* a thread's edges past 2^64 - 1 (want.wrap) are refused by --count too */
	if (rc == REFUSED && !wraps && !want.wrap)
		disagree("--count refuses a trace the stream accepts", NULL);
	if (rc == REFUSED || want.wrap)
		return;
	digest_totals(totals.buf, &got);
	if (!same_rows(&want, &got, 1))
		disagree("--count differs from the lines dcfg-expand writes", NULL);
}

/* A --plan line as dcfg-expand options; 0 if it holds a word no line may. */
static int
plan_line(const char *s, struct dcfg_expand_options *o, uint64_t *pids, uint64_t *tids)
{
	while (*s && *s != '\n') {
		size_t n = strcspn(s, " \n");
		const char *w = s;
		s += n + (s[n] == ' ');
		if (n == 6 && strncmp(w, "--dcfg", 6) == 0) {
			o->dcfg = fuzz_sample_dcfg();
			s += strcspn(s, " \n");
			s += *s == ' ';
			continue;
		}
		if ((n == 2 && strncmp(w, "-p", 2) == 0 && o->n_pids < IDS_MAX))
			pids[o->n_pids++] = parse_u64(&s);
		else if (n == 2 && strncmp(w, "-t", 2) == 0 && o->n_tids < IDS_MAX)
			tids[o->n_tids++] = parse_u64(&s);
		else if (n == 13 && strncmp(w, "--from-icount", 13) == 0)
			o->from = parse_u64(&s), o->window = 1;
		else if (n == 11 && strncmp(w, "--to-icount", 11) == 0)
			o->to = parse_u64(&s), o->window = 1;
		else if (n == 7 && strncmp(w, "--align", 7) == 0)
			o->align = parse_u64(&s);   /* the plan's shape (issue 35, item 4) */
		else if (n == 7 && strncmp(w, "--shard", 7) == 0) {
			o->shard = parse_u64(&s);
			if (*s++ != '/')
				return 0;
			o->shards = parse_u64(&s);
		}
		else
			return 0;
		s += *s == ' ';
	}
	return 1;
}

/* dcfg-expand --plan N into M, N from 1 to 4, with --align one input in two; -1: refused. */
static int
make_plan(struct mem *m, const char *trace, const struct dcfg *d, size_t size)
{
	static struct dcfg_output out;
	struct dcfg_plan_options po = { .lines = 1 + size % SHARDS_MAX };
	struct dcfg_error err;

	if (d && (size & 16)) {
		po.align = 1 + size % 1000;
		po.dcfg = d;
		po.dcfg_path = "sample.dcfg.json";
	}
	mem_reset(m);
	if (dcfg_output_open(&out, m->path, &err) < 0)
		abort();
	if (dcfg_plan(trace, &po, &out, &err) < 0) {
		dcfg_output_close(&out, &err);
		note("plan", REFUSED);
		return -1;
	}
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	mem_load(m);
	return 0;
}

/*
 * dcfg-expand --plan N: each line expanded as the reference was (plain or
 * runs) and counted by KIND; merged, the tables equal WHOLE, the
 * reference's own table (REFUSED: none), and the edges are the reference's.
 */
static void
check_plan(const char *trace, const struct mem *ref, int runs, const struct dcfg *d,
    int kind, const struct mem *whole, int whole_rc, size_t size)
{
	static struct mem plan, shard, tables[SHARDS_MAX], merged;
	static uint64_t pids[IDS_MAX], tids[IDS_MAX];
	struct digest want, got;
	uint64_t edges = 0, sum = 0;
	const char *line;
	size_t n = 0;

	if (make_plan(&plan, trace, d, size) < 0)
		return;
	digest_stream(ref->buf, &want);
	for (line = plan.buf; *line; line = strchr(line, '\n') + 1, n++) {
		struct dcfg_expand_options o = { .mode = DCFG_EXPAND_EDGES, .chunks = 1, .runs = runs,
			.pids = pids, .tids = tids, .to = UINT64_MAX };
		int rc;
		if (n == SHARDS_MAX || !strchr(line, '\n') || !plan_line(line, &o, pids, tids))
			disagree("--plan wrote a line dcfg-expand's SHARDS does not allow", NULL);
		if ((rc = expand_to(&shard, trace, &o, NULL)) == CAPPED) {
			note("shard", rc);
			return;
		}
		/*
		 * A window priced by the DCFG (--align) counts the thread's
		 * instructions, as dcfg-count --by thread does: past 2^64 - 1
		 * both refuse, where one run without the DCFG cannot tell.
		 */
		if (rc == REFUSED) {
			if (whole_rc == DONE &&
			    !(o.dcfg && count_to(&shard, ref->path, DCFG_BY_THREAD) == REFUSED))
				disagree("a shard of --plan refuses what one run accepts", NULL);
			return;
		}
		if (count_to(&tables[n], shard.path, kind) == REFUSED) {
			if (whole_rc == DONE)
				disagree("dcfg-count refuses a shard, not the whole", kind_name(kind));
			return;
		}
		digest_stream(shard.buf, &got);
		edges += got.edges;
		sum += got.sum;
		if (got.wrap)
			want.wrap = 1;
	}
	if (!want.wrap && (edges != want.edges || sum != want.sum))
		disagree("the shards of --plan hold other edges than one run", NULL);
	if (whole_rc != DONE)
		return;
	if (merge_to(&merged, tables, n) == REFUSED)
		disagree("dcfg-count --merge refuses the tables of a plan's shards", kind_name(kind));
	if (!same_table(&merged, whole)) {
		fprintf(stderr, "--- merged\n%s--- one run\n%s", merged.buf, whole->buf);
		disagree("the merged shards differ from one run", kind_name(kind));
	}
	note(n == 1 ? "merge of 1 shard" : n == 2 ? "merge of 2 shards" : n == 3 ? "merge of 3 shards" :
	    "merge of 4 shards", DONE);
}

/*
 * 1 when a thread's chunk markers in WANT count other instructions than
 * the DCFG does (TABLE, dcfg-count --by thread): dcfg-encode --dcfg
 * prices the chunks by the DCFG, and may find them going backwards.
 */
static int
markers_disagree(const struct digest *want, const struct mem *table)
{
	const char *s = table->buf;
	uint64_t pid = 0, tid, instrs;
	size_t i;

	for (; *s; s += *s == '\n') {
		if (strncmp(s, "# process ", 10) == 0) {
			s += 10;
			pid = parse_u64(&s);
		} else if (*s >= '0' && *s <= '9') {
			tid = parse_u64(&s);
			s += *s == '\t';
			parse_u64(&s);
			s += *s == '\t';
			instrs = parse_u64(&s);
			for (i = 0; i < want->n_rows; i++)
				if (want->rows[i].pid == pid && want->rows[i].tid == tid &&
				    want->rows[i].instrs != instrs)
					return 1;
		}
		s += strcspn(s, "\n");
	}
	return 0;
}

/* dcfg-encode of the reference stream, expanded again: the same edges. */
static void
check_encode(const struct mem *ref, int runs, const struct dcfg *d, size_t size)
{
	static struct mem trace, back;
	static struct dcfg_output out;
	struct dcfg_encode_options eo = { .dcfg = d, .chunk_edges = 1 + size % 50 };
	struct dcfg_expand_options o = { .mode = DCFG_EXPAND_EDGES, .runs = runs, .dcfg = d,
		.to = UINT64_MAX };
	struct dcfg_error err;
	struct digest want, got;
	int rc;

	mem_reset(&trace);
	if (dcfg_output_open(&out, trace.path, &err) < 0)
		abort();
	rc = dcfg_encode(ref->path, &eo, &out, &err);
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	digest_stream(ref->buf, &want);
	if (rc < 0 && want.chunk_wrap)
		return;   /* a chunk no instruction count can place: encode refuses it, rightly */
	/*
	 * Encode prices every edge by the DCFG, as dcfg-count does: a stream
	 * whose instructions by the DCFG pass 2^64 - 1 (a run of huge weight),
	 * or that names an edge the DCFG lacks, is refused by both.
	 */
	if (rc < 0 && (count_to(&trace, ref->path, DCFG_BY_THREAD) == REFUSED ||
	    markers_disagree(&want, &trace)))
		return;
	if (rc < 0) {
		fprintf(stderr, "fuzz-routes: encode: %s: %s\n", err.file, err.message);
		disagree("dcfg-encode refuses a stream dcfg-expand wrote", NULL);
	}
	rc = expand_to(&back, trace.path, &o, NULL);
	note("encode", rc);
	if (rc == CAPPED)
		return;
	if (rc == REFUSED)
		disagree("dcfg-expand refuses what dcfg-encode wrote", NULL);
	digest_stream(back.buf, &got);
	if (want.wrap || got.wrap)
		return;
	if (want.edges != got.edges || want.sum != got.sum || (!runs && want.ordered != got.ordered))
		disagree("dcfg-encode | dcfg-expand gives other edges", NULL);
}

/* dcfg-edges | dcfg-blocks: the stream they write counts as the one they read. */
static void
check_stages(const struct mem *ref, int kind, const struct mem *whole, int whole_rc)
{
	static struct mem edges, blocks, table;
	static struct dcfg_output out;
	struct dcfg_stage s = { .dcfg = fuzz_sample_dcfg(), .out = &out };
	struct dcfg_error err;
	int rc;

	mem_reset(&edges);
	if (dcfg_output_open(&out, edges.path, &err) < 0)
		abort();
	rc = dcfg_edges_run(&s, ref->path, 0, &err);
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	if (rc == 0) {
		s = (struct dcfg_stage){ .dcfg = fuzz_sample_dcfg(), .out = &out };
		mem_reset(&blocks);
		if (dcfg_output_open(&out, blocks.path, &err) < 0)
			abort();
		rc = dcfg_blocks_run(&s, edges.path, 0, &err);
		if (dcfg_output_close(&out, &err) < 0)
			abort();
	}
	rc = rc < 0 ? REFUSED : count_to(&table, blocks.path, kind);
	note("stages", rc);
	if (rc != whole_rc)
		disagree(rc == DONE ? "dcfg-edges | dcfg-blocks | dcfg-count accepts what dcfg-count refuses" :
		    "dcfg-edges | dcfg-blocks | dcfg-count refuses what dcfg-count accepts", kind_name(kind));
	if (rc == DONE && !same_table(&table, whole))
		disagree("the stream after dcfg-edges | dcfg-blocks counts otherwise", kind_name(kind));
}

/*
 * The Callgrind route (dcfg-convert --to callgrind --keep-stubs) with the
 * stream's edge counts (EDGES, its table by edge) in the sample's DCFG,
 * into M; restores the DCFG's own counts after.
 */
static int
callgrind_to(struct mem *m, const struct mem *edges)
{
	static struct dcfg_output out;
	static uint64_t *saved;
	const struct dcfg *d = fuzz_sample_dcfg();
	const struct dcfg_process *p = &d->processes[0];
	struct dcfg_convert_options co = { .dcfg_path = "sample.dcfg.json", .keep_stubs = 1,
		.creator = "fuzz-routes" };
	struct dcfg_convert c = { d, &co, &out };
	struct dcfg_error err;
	const char *s = edges->buf;
	uint64_t id;
	size_t i;
	int rc;

	if (saved == NULL && (saved = malloc(p->edges.count * sizeof *saved)) == NULL)
		abort();
	for (i = 0; i < p->edges.count; i++) {
		saved[i] = d->edges[p->edges.first + i].total;
		d->edges[p->edges.first + i].total = 0;
	}
	for (rc = 0; *s; s += *s == '\n') {
		if (strncmp(s, "# process ", 10) == 0) {
			s += 10;
			rc |= parse_u64(&s) != p->pid;   /* another process: not compared */
		} else if (*s >= '0' && *s <= '9') {
			const struct dcfg_edge *e = dcfg_edge_by_id(d, p, (uint32_t)(id = parse_u64(&s)));
			s += *s == '\t';
			if (e != NULL && id <= UINT32_MAX)
				d->edges[e - d->edges].total = parse_u64(&s);
		}
		s += strcspn(s, "\n");
	}
	mem_reset(m);
	if (!rc) {
		if (dcfg_output_open(&out, m->path, &err) < 0)
			abort();
		rc = dcfg_convert_callgrind(&c, &err);
		if (dcfg_output_close(&out, &err) < 0)
			abort();
	}
	for (i = 0; i < p->edges.count; i++)
		d->edges[p->edges.first + i].total = saved[i];
	mem_load(m);
	return rc != 0 ? REFUSED : DONE;
}

/* dcfg-count --by line and --by file against the Callgrind route, on the reference stream. */
static void
check_lines(const struct mem *ref)
{
	static struct mem edges, table, cg;
	static struct line_sums want, got;
	int by_line;

	if (count_to(&edges, ref->path, DCFG_BY_EDGE) != DONE || callgrind_to(&cg, &edges) != DONE)
		return;
	for (by_line = 1; by_line >= 0; by_line--) {
		if (count_to(&table, ref->path, by_line ? DCFG_BY_LINE : DCFG_BY_FILE) != DONE)
			continue;
		line_sums_of_table(table.buf, &want);
		line_sums_of_callgrind(cg.buf, by_line, &got);
		if (!same_line_sums(&want, &got))
			disagree("dcfg-count and Callgrind put other instructions on a line",
			    by_line ? "line" : "file");
		note(by_line ? "callgrind line" : "callgrind file", DONE);
	}
}

/*
 * The windows pullwin compares: each of a --plan's lines (with its -p and
 * -t), cut as --align cut it or at chunks, and one the input's bytes
 * choose, which falls on and between edges of the seeds' first hundreds
 * of instructions.
 */
static void
check_pull_windows(const char *trace, const uint8_t *data, size_t size)
{
	static struct mem plan;
	static uint64_t pids[IDS_MAX], tids[IDS_MAX];
	struct dcfg_expand_options all = { 0 };
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	const char *line;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * UINT64_C(0x100000001b3);
	check_pull_window(trace, &all, h % 1024, h % 1024 + (h >> 10) % 1024, size);
	if (make_plan(&plan, trace, fuzz_sample_dcfg(), size) < 0)
		return;
	for (line = plan.buf; *line && strchr(line, '\n'); line = strchr(line, '\n') + 1) {
		struct dcfg_expand_options o = { .pids = pids, .tids = tids, .to = UINT64_MAX };
		if (plan_line(line, &o, pids, tids))
			check_pull_window(trace, &o, o.from, o.to, size);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mem plain, runs, whole;
	const char *trace = fuzz_file(data, size);
	const struct dcfg *d = size & 8 ? fuzz_sample_dcfg() : NULL;
	struct dcfg_expand_options o = { .mode = DCFG_EXPAND_EDGES, .chunks = 1, .dcfg = d,
		.to = UINT64_MAX };
	const struct mem *ref;
	int pr, rr, kind = (int)(size % KINDS), whole_rc;

	pr = expand_to(&plain, trace, &o, NULL);
	o.runs = 1;
	rr = expand_to(&runs, trace, &o, NULL);
	o.runs = 0;
	note("plain", pr);
	note("runs", rr);
	if (pr == CAPPED && rr == CAPPED)
		return 0;   /* huge and not periodic: only every edge would tell */
	if (pr != CAPPED && rr != CAPPED && pr != rr)
		disagree(pr == REFUSED ? "--runs accepts what plain refuses" :
		    "--runs refuses what plain accepts", NULL);
	ref = pr == DONE ? &plain : &runs;
	check_totals(trace, o, pr == REFUSED || rr == REFUSED, ref);
	if (pr == REFUSED || rr == REFUSED)
		return 0;
	if (pr == DONE && rr == DONE)
		check_runs(&plain, &runs);
	if (ref == &runs && kind == KIND_BBV)
		kind = DCFG_BY_EDGE;   /* a vector per interval of a huge trace */
	whole_rc = count_to(&whole, ref->path, kind);
	check_plan(trace, ref, ref == &runs, d, kind, &whole, whole_rc, size);
	check_encode(ref, ref == &runs, d, size);
	check_stages(ref, kind, &whole, whole_rc);
	if (whole_rc == DONE)
		check_lines(ref);
	check_pull_windows(trace, data, size);
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
