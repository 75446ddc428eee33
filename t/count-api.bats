#!/usr/bin/env bats
# <dcfg/count.h>, the counting of dcfg-count as a library
# (dcfg_counter_new(3)): programs built against the build tree count
# traces, streams and the DCFG's own counts through it, and their tables
# must be byte for byte what dcfg-count writes for the same input, by its
# own route (dcfg-expand | dcfg-count). The refusals are checked against
# the messages the page and dcfg-count(1) give.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
SAMPLE="$BATS_TEST_DIRNAME/data/sample"
REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
KINDS="edge block routine loop image type thread line file"

# The page's EXAMPLES program, as ./count DCFG TRACE KIND.
example() {
	awk -f "$ROOT/scripts/man-example.awk" "$ROOT/man/man3/dcfg_counter_new.3" > count.c
	cc_dcfg count count.c
}

# ./table DCFG KIND MODE [STREAM]: a stream (or the DCFG) counted through the
# API's other calls, printed as dcfg-count writes its TSV.
#   dcfg      dcfg_counter_add_dcfg, per process, rows by dcfg_counter_next
#   weighted  each data line by dcfg_counter_add_weighted, in batches
#   shards    data lines dealt alternately to two counters, merged at the process end
#   threaded  the same, each counter in a thread of its own (a one-process stream)
#   top3      as weighted, the first three rows
table_program() {
	cat > table.c <<'C'
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dcfg/count.h>
#include <dcfg/stream.h>

#define BATCH 7   /* small: batches end inside threads and runs */

static struct dcfg_error err;

static void
die(const char *what)
{
	fprintf(stderr, "table: %s: %s\n", what, err.message);
	exit(1);
}

static void
print(struct dcfg_counter *c, uint64_t top)
{
	struct dcfg_count_table_info info;
	const struct dcfg_counted_row *r;
	const char *col;
	size_t i;

	if (dcfg_counter_begin(c, top, &info, &err) != DCFG_COUNT_OK)
		die("begin");
	printf("# process %" PRIu64 "\n# total_instructions %" PRIu64 "\n", info.pid,
	    info.total_instructions);
	for (i = 0; (col = dcfg_count_by_column(info.by, i)) != NULL; i++)
		printf("%s%s", i ? "\t" : "# ", col);
	printf("\n");
	while ((r = dcfg_counter_next(c)) != NULL) {
		printf("%s", r->key);
		for (i = 0; i < r->n_between; i++)
			printf("\t%s", r->between[i]);
		printf("\t%" PRIu64, r->executions);
		if (info.by == DCFG_BY_LOOP)
			printf("\t%" PRIu64, r->iterations);
		printf("\t%" PRIu64 "\t%s\n", r->instructions, r->share);
	}
}

struct feed {
	struct dcfg_counter *c[2];
	uint32_t ids[2][BATCH];
	uint64_t weights[2][BATCH];
	size_t n[2];
	unsigned long lines;
};

static void
flush(struct feed *f)
{
	int k;

	for (k = 0; k < 2; k++) {
		if (f->c[k] && f->n[k] &&
		    dcfg_counter_add_weighted(f->c[k], f->ids[k], f->weights[k], f->n[k], &err) != 0)
			die("add");
		f->n[k] = 0;
	}
}

static void
end_process(struct feed *f, uint64_t top)
{
	flush(f);
	if (f->c[1] && dcfg_counter_merge(f->c[0], f->c[1], &err) != DCFG_COUNT_OK)
		die("merge");
	if (f->c[0])
		print(f->c[0], top);
	dcfg_counter_free(f->c[0]);
	dcfg_counter_free(f->c[1]);
	f->c[0] = f->c[1] = NULL;
}

/* A one-process stream's data lines, each with the thread it is in. */
struct line {
	uint64_t tid, weight;
	uint32_t id;
};

struct half {
	const struct dcfg *d;
	const struct dcfg_process *p;
	enum dcfg_count_by by;
	const struct line *lines;
	size_t n;
	int which;                 /* counts lines WHICH, WHICH + 2, ... */
	struct dcfg_counter *c;
	struct dcfg_error err;
	int rc;
};

static void *
count_half(void *arg)
{
	struct half *h = arg;
	size_t i;

	if ((h->c = dcfg_counter_new(h->d, h->p, h->by, "half", &h->err)) == NULL)
		return NULL;
	for (i = 0; i < h->n && h->rc == 0; i++) {
		if (i == 0 || h->lines[i].tid != h->lines[i - 1].tid)
			h->rc = dcfg_counter_thread(h->c, h->lines[i].tid, &h->err);
		if (h->rc == 0 && i % 2 == (size_t)h->which)
			h->rc = dcfg_counter_add(h->c, &h->lines[i].id, 1, h->lines[i].weight, &h->err);
	}
	return NULL;
}

/* Two threads count alternate lines of a one-process stream with counters of one DCFG; merged. */
static int
threaded(const struct dcfg *d, enum dcfg_count_by by, const char *path)
{
	struct dcfg_stream *s = dcfg_stream_open(path, NULL, &err);
	struct dcfg_stream_record r;
	struct line *lines = NULL;
	struct half h[2];
	pthread_t t[2];
	size_t n = 0, cap = 0;
	uint64_t tid = 0, pid = 0;
	int k;

	if (s == NULL)
		die("open");
	while (dcfg_stream_next(s, &r, &err) > 0) {
		if (r.kind == DCFG_STREAM_PROCESS)
			pid = r.value;
		else if (r.kind == DCFG_STREAM_THREAD)
			tid = r.value;
		else if (r.kind == DCFG_STREAM_EDGE) {
			if (n == cap && (lines = realloc(lines, (cap = 2 * cap + 64) * sizeof *lines)) == NULL)
				return 2;
			lines[n++] = (struct line){ tid, r.weight, r.edge };
		}
	}
	dcfg_stream_close(s);
	for (k = 0; k < 2; k++) {
		h[k] = (struct half){ .d = d, .p = dcfg_find_process(d, pid), .by = by, .lines = lines,
			.n = n, .which = k };
		if (pthread_create(&t[k], NULL, count_half, &h[k]) != 0)
			return 2;
	}
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	if (h[0].c == NULL || h[1].c == NULL || h[0].rc || h[1].rc ||
	    dcfg_counter_merge(h[0].c, h[1].c, &err) != DCFG_COUNT_OK)
		die("threads");
	print(h[0].c, 0);
	dcfg_counter_free(h[0].c);
	dcfg_counter_free(h[1].c);
	free(lines);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dcfg_load_options opt = { 0 };
	enum dcfg_count_by by;
	struct dcfg *d;
	struct feed f = { .n = { 0 } };
	struct dcfg_stream *s;
	struct dcfg_stream_record r;
	const struct dcfg_process *p;
	size_t np, i;
	uint32_t crc;
	uint64_t bytes, top;
	int shards, rc, k;

	if (argc < 4 || dcfg_count_by_parse(argv[2], &by) < 0)
		return 2;
	opt.keep = dcfg_count_by_keep(by);
	if ((d = dcfg_load(argv[1], &opt, &err)) == NULL)
		die("load");
	dcfg_identity(d, &crc, &bytes);
	printf("# dcfg-count 1 by=%s dcfg=%08" PRIx32 ":%" PRIu64 "%s%s\n", dcfg_count_by_name(by),
	    crc, bytes, strcmp(argv[3], "top3") == 0 ? " top=3" : "",
	    strcmp(argv[3], "dcfg") == 0 ? " from=dcfg" : "");
	if (strcmp(argv[3], "dcfg") == 0) {
		p = dcfg_processes(d, &np);
		for (i = 0; i < np; i++) {
			struct dcfg_counter *c = dcfg_counter_new(d, &p[i], by, argv[1], &err);
			if (c == NULL || dcfg_counter_add_dcfg(c, &err) != DCFG_COUNT_OK)
				die("from the DCFG");
			print(c, 0);
			dcfg_counter_free(c);
		}
		dcfg_free(d);
		return 0;
	}
	if (strcmp(argv[3], "threaded") == 0) {
		rc = threaded(d, by, argc > 4 ? argv[4] : "-");
		dcfg_free(d);
		return rc;
	}
	shards = strcmp(argv[3], "shards") == 0;
	top = strcmp(argv[3], "top3") == 0 ? 3 : 0;
	if ((s = dcfg_stream_open(argc > 4 ? argv[4] : "-", NULL, &err)) == NULL)
		die("open");
	while ((rc = dcfg_stream_next(s, &r, &err)) > 0) {
		switch (r.kind) {
		case DCFG_STREAM_PROCESS:
			end_process(&f, top);
			if ((p = dcfg_find_process(d, r.value)) == NULL)
				return 3;
			for (k = 0; k <= shards; k++)
				if ((f.c[k] = dcfg_counter_new(d, p, by, "stream", &err)) == NULL)
					die("new");
			break;
		case DCFG_STREAM_THREAD:
			flush(&f);
			for (k = 0; k <= shards; k++)
				if (dcfg_counter_thread(f.c[k], r.value, &err) != DCFG_COUNT_OK)
					die("thread");
			break;
		case DCFG_STREAM_EDGE:
			k = shards ? (int)(f.lines++ % 2) : 0;
			f.ids[k][f.n[k]] = r.edge;
			f.weights[k][f.n[k]++] = r.weight;
			if (f.n[k] == BATCH)
				flush(&f);
			break;
		default:
			break;
		}
	}
	if (rc < 0)
		die("read");
	end_process(&f, top);
	dcfg_stream_close(s);
	dcfg_free(d);
	return 0;
}
C
	cc_dcfg table table.c
}

@test "dcfg_counter_new(3)'s example builds warning-free and counts the sample's trace as dcfg-expand --runs | dcfg-count, by every kind" {
	run example
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	dcfg-expand --runs "$SAMPLE/prog.trace.json.bz2" > runs.stream
	grep -q '^# run ' runs.stream
	for by in $KINDS; do
		./count "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2" "$by" > mine
		dcfg-count --dcfg "$SAMPLE/prog.dcfg.json.gz" --by "$by" runs.stream > want
		[ "$(grep -vc '^#' want)" -ge 2 ]
		cmp mine want || { echo "by $by"; diff mine want | head; return 1; }
	done
}

@test "dcfg_counter_new(3)'s example agrees with dcfg-count on generated pairs of one and four threads, with long loops" {
	example
	for shape in "1 1 3000" "7 4 20000"; do
		set -- $shape
		rm -rf p
		gen-pair --seed "$1" --threads "$2" --edges "$3" --long-loops 100000 p > /dev/null
		dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
		dcfg-expand --runs p/prog.trace.json > p/runs.stream
		for by in $KINDS; do
			./count p/prog.dcfg.json p/prog.trace.json "$by" > mine
			dcfg-count --dcfg p/prog.dcfg.json --by "$by" p/runs.stream > want
			cmp mine want || { echo "shape $shape by $by"; diff mine want | head; return 1; }
		done
	done
}

@test "added in weighted batches, dealt to two counters (in one thread or two) and merged, or cut to three rows, the tables are dcfg-count's" {
	table_program
	dcfg-expand --runs "$SAMPLE/prog.trace.json.bz2" > runs.stream
	for by in $KINDS; do
		dcfg-count --dcfg "$SAMPLE/prog.dcfg.json.gz" --by "$by" runs.stream > want
		./table "$SAMPLE/prog.dcfg.json.gz" "$by" weighted runs.stream > weighted
		cmp weighted want || { echo "weighted by $by"; diff weighted want | head; return 1; }
		./table "$SAMPLE/prog.dcfg.json.gz" "$by" shards runs.stream > shards
		cmp shards want || { echo "shards by $by"; diff shards want | head; return 1; }
		./table "$SAMPLE/prog.dcfg.json.gz" "$by" threaded runs.stream > threaded
		cmp threaded want || { echo "threaded by $by"; diff threaded want | head; return 1; }
		dcfg-count --dcfg "$SAMPLE/prog.dcfg.json.gz" --by "$by" --top 3 runs.stream > want3
		./table "$SAMPLE/prog.dcfg.json.gz" "$by" top3 runs.stream > top3
		cmp top3 want3 || { echo "top 3 by $by"; diff top3 want3 | head; return 1; }
	done
}

@test "counted from the DCFG's own counts, the tables are dcfg-count --from-dcfg's, on the sample and the real DCFG" {
	table_program
	for f in "$SAMPLE/prog.dcfg.json.gz" "$REAL"; do
		[ -f "$f" ] || { echo "# $f is absent: skipped" >&3; continue; }
		for by in $KINDS; do
			./table "$f" "$by" dcfg > mine
			dcfg-count --dcfg "$f" --from-dcfg --by "$by" > want
			cmp mine want || { echo "$f by $by"; diff mine want | head; return 1; }
		done
	done
}

# ./refusals DCFG: each refusal of the page's RETURN VALUES, as "WHAT: CODE MESSAGE".
refusals_program() {
	cat > refusals.c <<'C'
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <dcfg/count.h>

static struct dcfg_error err;

static void
show(const char *what, int rc)
{
	printf("%s: %d %s\n", what, rc, rc == DCFG_COUNT_OK ? "" : err.message);
	memset(&err, 0, sizeof err);
}

static int
stop_at_first(void *ctx, const struct dcfg_counted_row *r)
{
	(void)r;
	++*(int *)ctx;
	return DCFG_COUNT_STOP;
}

int
main(int argc, char **argv)
{
	struct dcfg_load_options opt = { .keep = DCFG_KEEP_ALL };
	struct dcfg_load_options less = { .keep = DCFG_KEEP_EDGES | DCFG_KEEP_BLOCKS };
	struct dcfg_count_handler h = { NULL, stop_at_first };
	struct dcfg *d, *small;
	struct dcfg_counter *c, *t, *b, *t2, *e2;
	const struct dcfg_process *p;
	const struct dcfg_edge *e;
	const struct dcfg_block *b2;
	size_t n;
	uint32_t ids[3], zero[2];
	int rows = 0, k;

	if (argc != 2 || (d = dcfg_load(argv[1], &opt, &err)) == NULL ||
	    (small = dcfg_load(argv[1], &less, &err)) == NULL)
		return 2;
	p = dcfg_processes(d, &n);
	e = dcfg_edges(d, &n);
	c = dcfg_counter_new(d, p, DCFG_BY_EDGE, "x.trace", &err);
	t = dcfg_counter_new(d, p, DCFG_BY_THREAD, "x.trace", &err);
	b = dcfg_counter_new(d, p, DCFG_BY_BLOCK, "x.trace", &err);
	ids[0] = e[0].id;
	ids[1] = 4000000000u;
	ids[2] = e[1].id;
	show("unknown edge", dcfg_counter_add(c, ids, 3, 1, &err));
	show("rows", dcfg_counter_begin(c, 0, NULL, &err));
	printf("counted before it: %s", dcfg_counter_next(c)->key);
	printf(" %d\n", dcfg_counter_next(c) == NULL);
	show("stop", dcfg_counter_rows(c, 0, &h, &rows, &err));
	printf("rows seen: %d\n", rows);
	/* an edge run 2^63 times twice: its executions overflow, its thread's too */
	show("huge", dcfg_counter_add(c, ids, 1, UINT64_C(1) << 63, &err));
	show("huge again", dcfg_counter_add(c, ids, 1, UINT64_C(1) << 63, &err));
	show("overflow", dcfg_counter_begin(c, 0, NULL, &err));
	show("restart", dcfg_counter_restart(c, NULL, &err));
	show("after restart", dcfg_counter_begin(c, 0, NULL, &err));
	/* the thread totals alone overflow: 2^63 executions of a block of two or more instructions */
	for (n = 0; (b2 = dcfg_block_by_node(d, p, e[n].source)) == NULL || b2->num_instrs < 2; n++)
		;
	show("thread huge", dcfg_counter_add(t, &e[n].id, 1, UINT64_C(1) << 63, &err));
	show("thread table", dcfg_counter_begin(t, 0, NULL, &err));
	/*
	 * two edges from no block (special nodes), 2^63 times each: their
	 * thread's edges overflow, and nothing else (they cost no instruction)
	 */
	for (n = 0, k = 0; k < 2; n++)
		if (dcfg_block_by_node(d, p, e[n].source) == NULL)
			zero[k++] = e[n].id;
	t2 = dcfg_counter_new(d, p, DCFG_BY_THREAD, "x.trace", &err);
	e2 = dcfg_counter_new(d, p, DCFG_BY_EDGE, "x.trace", &err);
	show("free edges by thread", dcfg_counter_add(t2, zero, 2, UINT64_C(1) << 63, &err));
	show("their thread table", dcfg_counter_begin(t2, 0, NULL, &err));
	show("free edges by edge", dcfg_counter_add(e2, zero, 2, UINT64_C(1) << 63, &err));
	show("their edge table", dcfg_counter_begin(e2, 0, NULL, &err));
	show("merge of kinds", dcfg_counter_merge(c, t, &err));
	show("merge of itself", dcfg_counter_merge(b, b, &err));
	show("add dcfg", dcfg_counter_add_dcfg(b, &err));
	show("merge from the DCFG", dcfg_counter_merge(c, b, &err));
	show("restart elsewhere", dcfg_counter_restart(c, dcfg_processes(small, &n), &err));
	printf("new by 9: %d %s\n", dcfg_counter_new(d, p, DCFG_BY_KINDS, "x", &err) == NULL,
	    err.message);
	printf("new by loop, symbols dropped: %d %s\n",
	    dcfg_counter_new(small, dcfg_processes(small, &n), DCFG_BY_LOOP, "x", &err) == NULL,
	    err.message);
	printf("names: %s %s %d\n", dcfg_count_by_name(DCFG_BY_FILE),
	    dcfg_count_by_name(DCFG_BY_KINDS) ? "?" : "(null)",
	    dcfg_count_by_parse("lines", &(enum dcfg_count_by){ 0 }));
	dcfg_counter_free(c);
	dcfg_counter_free(t);
	dcfg_counter_free(b);
	dcfg_counter_free(t2);
	dcfg_counter_free(e2);
	dcfg_free(d);
	dcfg_free(small);
	return 0;
}
C
	cc_dcfg refusals refusals.c
}

@test "the refusals: an unknown edge id, a count past 2^64 - 1, merges of other kinds or of DCFG counts, a stop" {
	refusals_program
	D="$SAMPLE/prog.dcfg.json.gz"
	run ./refusals "$D"
	[ "$status" -eq 0 ]
	pid=$(dcfg-info "$D" | awk '$1 == "process:" { print $2 }')
	[ "$pid" = 12646 ]
	# the sample's first two edges, as dcfg-info --list edges lists them (not a count)
	first=$(dcfg-edges --dcfg "$D" --list | awk -F '\t' '!/^#/ { print $1; exit }')
	expected=$(cat <<-EOF
	unknown edge: -1 edge 4000000000 (at 1 of 3): process 12646 has no edge of that id
	rows: 0 
	counted before it: $first 1
	stop: 1 
	rows seen: 1
	huge: 0 
	huge again: 0 
	overflow: -2 process 12646: a count does not fit in 64 bits
	restart: 0 
	after restart: 0 
	thread huge: 0 
	thread table: -2 process 12646: a count does not fit in 64 bits
	free edges by thread: 0 
	their thread table: -2 process 12646: a count does not fit in 64 bits
	free edges by edge: 0 
	their edge table: 0 
	merge of kinds: -4 the counters count other DCFGs, processes or kinds
	merge of itself: 0 
	add dcfg: 0 
	merge from the DCFG: -4 tables made from the DCFG's own counts do not merge
	restart elsewhere: -5 the process is not one of the DCFG's
	new by 9: 1 9 is not a kind of table
	new by loop, symbols dropped: 1 tables by loop need the DCFG loaded with more of its tables (dcfg_count_by_keep)
	names: file (null) -1
	EOF
	)
	diff <(echo "$output") <(echo "$expected")
	# dcfg-count refuses the same way, with the same words, on a run of 2^63 twice
	{ echo '# dcfg-stream 2'; echo '# process 12646'; echo '# thread 0'
	  echo '# run 9223372036854775808'; echo "$first"; echo '# end run'
	  echo '# run 9223372036854775808'; echo "$first"; echo '# end run'; } > huge.stream
	run dcfg-count --dcfg "$D" huge.stream
	[ "$status" -eq 2 ]
	[[ "$output" == *"process 12646: a count does not fit in 64 bits" ]]
}

@test "a row longer than 256 KiB (a 300000-byte image name) is refused as the page says, where dcfg-count writes it" {
	table_program
	python3 -c '
import sys
s = open(sys.argv[1]).read()
open("long.dcfg.json", "w").write(s.replace("\"/usr/bin/prog\"", "\"/usr/bin/" + "a" * 300000 + "\""))' "$DATA/names.dcfg.json"
	dcfg-count --dcfg long.dcfg.json --from-dcfg --by image > want
	[ "$(awk -F '\t' 'length($1) > 300000' want | wc -l)" -eq 1 ]
	capture ./table long.dcfg.json image dcfg
	[ "$status" -eq 1 ]
	[ "$(cat stderr)" = "table: begin: out of memory, or a row longer than 256 KiB" ]
	# a kind whose rows do not carry the name is counted
	./table long.dcfg.json edge dcfg > mine
	dcfg-count --dcfg long.dcfg.json --from-dcfg --by edge > want
	cmp mine want
}
