/*
 * dcfg-record's second half: a spool (lib/record/spool.h) read and built
 * into a DCFG and its trace by dcfg_record_build() (lib/record/record.h).
 *
 * The input is the spool's files: a header of four little-endian 16-bit
 * lengths, of process, images, tbs and thread.0, then their bytes in that
 * order; what is left is thread.1 (no thread.1 when nothing is). A length
 * past the input's end takes what is left. They are written into a
 * directory made for the run (mkdtemp) and removed with it at the end.
 * t/fuzz/seeds-spool.sh packs spools into this form.
 *
 * dcfg_record_build() must return 0, or -1 with a message, and leave in
 * the directory nothing but the spool and, on 0, the two outputs (no
 * temporary, no plain DCFG). On 0 a second route must agree: the DCFG
 * loads with the library's loader and dcfg-check finds no error in it
 * nor in the trace, and each thread's edges decoded from the trace,
 * counted by edge id, are the DCFG's COUNT_PER_THREAD.
 *
 * Two things the spool can ask for are the machine's, not the reader's,
 * and are kept out: an image path is opened as a file, so one that is
 * not empty (anonymous), "[...]" or under /nonexistent/ (no such file:
 * no symbols) skips the input (a FIFO would block the open); and a
 * thread file's HITS stand for that many blocks each, so a spool whose
 * threads run more than HITS_MAX blocks through HITS is skipped (the
 * time is the run's, linear in it). The chunk size (--chunk-size) comes
 * from the input's size. FUZZ_SPOOL_SHOW=1 prints the result of each
 * input: "built", or "refused: MESSAGE", or "skipped: WHY".
 */
#include "fuzz.h"

#include <dirent.h>
#include <string.h>

#include "check/check.h"
#include "common/output.h"
#include "dcfg/trace.h"
#include "record/record.h"
#include "record/spool.h"

#define HITS_MAX 4096
#define THREADS 2
#define HEADER 8

static const char *const names[] = { "process", "images", "tbs", "thread.0", "thread.1" };
#define N_FILES (sizeof names / sizeof names[0])

static int show;

static void
fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-spool: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static void
put(const char *dir, const char *name, const uint8_t *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		fail("cannot write", path);
}

/* An image path the library may open: empty, "[...]", or under /nonexistent/ without "..". */
static int
paths_safe(const uint8_t *p, size_t len)
{
	size_t at = 0;

	while (at < len) {
		const uint8_t *nl = memchr(p + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - p) : len, i = at, spaces = 0;
		while (i < end && spaces < 3)
			spaces += p[i++] == ' ';
		if (spaces == 3 && i < end && p[i] != '[' && p[i] != '\0' &&
		    (end - i < 13 || memcmp(p + i, "/nonexistent/", 13) != 0))
			return 0;
		for (; i + 1 < end; i++)
			if (p[i] == '.' && p[i + 1] == '.')
				return 0;
		at = end + 1;
	}
	return 1;
}

/*
 * The blocks a thread file's HITS stand for, summed until the records
 * stop decoding as the reader decodes them (it stops there too).
 */
static uint64_t
hits_of(const uint8_t *p, size_t len)
{
	uint64_t sum = 0, v[2];
	size_t at = sizeof(struct dcfg_spool_thread);

	while (at < len) {
		int k;
		for (k = 0; k < 2; k++) {
			unsigned shift = 0;
			v[k] = 0;
			for (;;) {
				if (at >= len || shift > 63)
					return sum;
				v[k] |= (uint64_t)(p[at] & 0x7f) << shift;
				shift += 7;
				if (!(p[at++] & 0x80))
					break;
			}
		}
		if (v[0] > HITS_MAX || (sum += v[0]) > HITS_MAX)
			return UINT64_MAX;
		if (v[1] == 0)
			return sum;
	}
	return sum;
}

/* Every file of DIR is a spool file or, when BUILT, one of the outputs. */
static void
check_left(const char *dir, int built)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		fail("cannot list", dir);
	while ((e = readdir(d)) != NULL) {
		size_t i;
		int known = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
		for (i = 0; i < N_FILES; i++)
			known |= strcmp(e->d_name, names[i]) == 0;
		if (built)
			known |= strcmp(e->d_name, "out.dcfg.json.bz2") == 0 ||
			    strcmp(e->d_name, "out.trace.json.bz2") == 0;
		if (!known)
			fail(built ? "left after a build" : "left after a refusal", e->d_name);
	}
	closedir(d);
}

struct tally {
	const struct dcfg *d;
	const struct dcfg_process *process;
	const struct dcfg_edge *edges;
	size_t n_edges;
	uint64_t *counts;          /* [thread][edge index] */
	uint64_t tid;
};

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct tally *y = ctx;

	(void)t;
	if ((y->process = dcfg_find_process(y->d, pid)) == NULL)
		fail("the trace has a process the DCFG has not", NULL);
	return DCFG_TRACE_OK;
}

static int
on_thread(void *ctx, struct dcfg_trace *t, uint64_t pid, uint64_t tid)
{
	struct tally *y = ctx;

	(void)t;
	(void)pid;
	if (tid >= THREADS)
		fail("the trace has a thread past the spool's", NULL);
	y->tid = tid;
	return DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct tally *y = ctx;
	uint32_t ids[1024];
	ssize_t n, i;

	while ((n = dcfg_chunk_next(c, ids, sizeof ids / sizeof ids[0])) > 0)
		for (i = 0; i < n; i++) {
			const struct dcfg_edge *e = dcfg_edge_by_id(y->d, y->process, ids[i]);
			if (e == NULL)
				fail("the trace has an edge the DCFG has not", NULL);
			y->counts[y->tid * y->n_edges + (size_t)(e - y->edges)]++;
		}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

/* dcfg-check's errors in the DCFG and, with it, in the trace. */
static void
check_files(const struct dcfg *d, const char *trace)
{
	static struct dcfg_output out;
	struct dcfg_findings f = { 0 };
	struct dcfg_error err;

	if (dcfg_output_open(&out, show ? "/dev/stderr" : "/dev/null", &err) < 0)
		fail("cannot open /dev/null", NULL);
	f.out = &out;
	if (dcfg_check_dcfg(d, &f) < 0 || dcfg_check_trace(trace, d, &f, &err) < 0)
		fail("dcfg-check cannot read what was built", err.message);
	dcfg_output_close(&out, &err);
	if (f.errors > 0)
		fail("dcfg-check finds errors in what was built", NULL);
}

/* The trace's edges, counted per thread, against the DCFG's COUNT_PER_THREAD: how many. */
static uint64_t
check_built(const char *dcfg_path, const char *trace_path)
{
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL };
	struct dcfg_trace_handler h = { .process = on_process, .thread = on_thread, .chunk = on_chunk };
	struct tally y = { 0 };
	struct dcfg_error err;
	const uint64_t *counts;
	size_t i, n_counts;
	struct dcfg *d;
	uint64_t total = 0;
	unsigned t;

	if ((d = dcfg_load(dcfg_path, &lo, &err)) == NULL)
		fail("the DCFG built does not load", err.message);
	y.d = d;
	y.edges = dcfg_edges(d, &y.n_edges);
	counts = dcfg_counts(d, &n_counts);
	if ((y.counts = calloc(THREADS * y.n_edges + 1, sizeof *y.counts)) == NULL)
		abort();
	if (dcfg_trace_read(trace_path, &h, &y, &err) != 0)
		fail("the trace built does not decode", err.message);
	for (i = 0; i < y.n_edges; i++)
		for (t = 0; t < THREADS; t++) {
			uint64_t want = t < y.edges[i].counts.count ? counts[y.edges[i].counts.first + t] : 0;
			if (y.counts[t * y.n_edges + i] != want) {
				fprintf(stderr, "edge %u thread %u: trace %llu, DCFG %llu\n", y.edges[i].id, t,
				    (unsigned long long)y.counts[t * y.n_edges + i], (unsigned long long)want);
				fail("the trace's edge counts are not the DCFG's COUNT_PER_THREAD", NULL);
			}
			total += want;
		}
	check_files(d, trace_path);
	free(y.counts);
	dcfg_free(d);
	return total;
}

static void
clean(const char *dir)
{
	char path[4096];
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d != NULL)
		closedir(d);
	if (rmdir(dir) < 0)
		fail("cannot remove", dir);
}

static void
say(const char *what, const char *detail)
{
	if (show)
		printf("%s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t chunks[] = { 0, 1, 7, 64 };
	char dir[] = "/tmp/fuzz-spool-XXXXXX", dcfg_path[64], trace_path[64], msg[1024];
	struct dcfg_record_build_options o = { .chunk_instrs = chunks[size % 4] };
	const uint8_t *p[N_FILES];
	size_t len[N_FILES], at = HEADER, i;
	struct dcfg_error err;
	int rc;

	show = getenv("FUZZ_SPOOL_SHOW") != NULL;
	if (size < HEADER)
		return 0;
	for (i = 0; i < N_FILES; i++) {
		size_t want = i + 1 < N_FILES ? (size_t)data[2 * i] | (size_t)data[2 * i + 1] << 8 : size;
		p[i] = data + at;
		len[i] = want < size - at ? want : size - at;
		at += len[i];
	}
	if (!paths_safe(p[1], len[1])) {
		say("skipped", "an image path outside /nonexistent/");
		return 0;
	}
	if (hits_of(p[3], len[3]) > HITS_MAX || hits_of(p[4], len[4]) > HITS_MAX) {
		say("skipped", "more blocks through HITS than HITS_MAX");
		return 0;
	}
	if (mkdtemp(dir) == NULL)
		fail("mkdtemp", NULL);
	for (i = 0; i < N_FILES; i++)
		if (i + 1 < N_FILES || len[i] > 0)
			put(dir, names[i], p[i], len[i]);
	snprintf(dcfg_path, sizeof dcfg_path, "%s/out.dcfg.json.bz2", dir);
	snprintf(trace_path, sizeof trace_path, "%s/out.trace.json.bz2", dir);
	o.spool_dir = dir;
	o.dcfg_path = dcfg_path;
	o.trace_path = trace_path;
	memset(&err, 0, sizeof err);
	rc = dcfg_record_build(&o, &err);
	if (rc != 0 && rc != -1)
		fail("dcfg_record_build returned neither 0 nor -1", NULL);
	if (rc < 0 && err.message[0] == '\0')
		fail("dcfg_record_build failed without a message", NULL);
	check_left(dir, rc == 0);
	if (rc == 0) {
		snprintf(msg, sizeof msg, "%llu edges traced, as counted",
		    (unsigned long long)check_built(dcfg_path, trace_path));
		say("built", msg);
	} else {
		dcfg_error_format(&err, msg, sizeof msg);
		say("refused", msg);
	}
	clean(dir);
	return 0;
}

#ifdef FUZZ_MUTATOR
/*
 * The spool's moves, for a boundary a byte flip rarely makes: a number of
 * a thread file (HITS or NEXT) set to 0, 1, 2, around the tbs' count or
 * to 2^32 or 2^63; a tbs record's id, instruction count, last length or
 * pc to its bounds; a number of the text files to one around a limit.
 * One move in three is libFuzzer's own.
 */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Part K's bytes [AT, AT + OLD) replaced by NEW's N; the new size, or 0 when past MAX. */
static size_t
splice(uint8_t *data, size_t size, size_t max, int k, size_t at, size_t old, const uint8_t *new,
    size_t n)
{
	size_t len;

	if (size - old + n > max)
		return 0;
	memmove(data + at + n, data + at + old, size - at - old);
	memcpy(data + at, new, n);
	if (k < 4) {
		len = ((size_t)data[2 * k] | (size_t)data[2 * k + 1] << 8) - old + n;
		if (len > 0xffff)
			return 0;
		data[2 * k] = (uint8_t)len;
		data[2 * k + 1] = (uint8_t)(len >> 8);
	}
	return size - old + n;
}

/* The tbs records' count, as the reader walks them. */
static size_t
count_tbs(const uint8_t *p, size_t len, size_t *starts, size_t max)
{
	struct dcfg_spool_tb h;
	size_t at = 0, n = 0;

	while (at + sizeof h <= len && n < max) {
		memcpy(&h, p + at, sizeof h);
		starts[n++] = at;
		at += sizeof h + h.n_insns + h.last_len;
	}
	return n;
}

static size_t
thread_move(uint8_t *data, size_t size, size_t max, int k, size_t at, size_t len, uint64_t n_tbs,
    uint64_t *rs)
{
	const uint64_t values[] = { 0, 1, 2, n_tbs - 1, n_tbs, n_tbs + 1, n_tbs + 2, 1ull << 32,
	    1ull << 63 };
	size_t pos[512], n = 0, i = sizeof(struct dcfg_spool_thread), start;
	uint8_t enc[10];
	uint64_t v;

	while (i < len && n < 512) {
		pos[n++] = i;
		while (i < len && (data[at + i] & 0x80))
			i++;
		i++;
	}
	if (n == 0)
		return 0;
	start = pos[next_rand(rs) % n];
	for (i = start; i < len && (data[at + i] & 0x80); i++)
		;
	v = values[next_rand(rs) % (sizeof values / sizeof values[0])];
	for (n = 0; n == 0 || v != 0; v >>= 7)
		enc[n++] = (uint8_t)((v & 0x7f) | (v >> 7 ? 0x80 : 0));
	return splice(data, size, max, k, at + start, (i < len ? i + 1 : len) - start, enc, n);
}

static size_t
tbs_move(uint8_t *p, size_t len, uint64_t *rs)
{
	size_t starts[512], n = count_tbs(p, len, starts, 512);
	struct dcfg_spool_tb h;

	if (n == 0)
		return 0;
	memcpy(&h, p + starts[next_rand(rs) % n], sizeof h);
	switch (next_rand(rs) % 4) {
	case 0: h.id += (uint32_t)(next_rand(rs) % 3) - 1; break;
	case 1: h.n_insns = (uint16_t[]){ 0, 1, 4096, 4097, 65535 }[next_rand(rs) % 5]; break;
	case 2: h.last_len = (uint8_t[]){ 0, 1, 15, 16, 255 }[next_rand(rs) % 5]; break;
	default: h.pc = (uint64_t[]){ 0, UINT64_MAX, UINT64_MAX - 1, h.pc - 1, h.pc + 1 }[next_rand(rs) % 5];
	}
	memcpy(p + starts[next_rand(rs) % n], &h, sizeof h);
	return 1;
}

static size_t
text_move(uint8_t *data, size_t size, size_t max, int k, size_t at, size_t len, uint64_t *rs)
{
	static const char *const numbers[] = { "0", "1", "65536", "65537", "0x0", "0x1",
	    "0xffffffffffffffff", "0x10000000000000000", "18446744073709551615",
	    "18446744073709551616" };
	size_t i = len ? next_rand(rs) % len : 0, end;
	const char *v = numbers[next_rand(rs) % (sizeof numbers / sizeof numbers[0])];

	while (i < len && !(data[at + i] >= '0' && data[at + i] <= '9'))
		i++;
	if (i >= len)
		return 0;
	while (i > 0 && data[at + i - 1] != ' ')
		i--;
	for (end = i; end < len && data[at + end] != ' ' && data[at + end] != '\n'; end++)
		;
	return splice(data, size, max, k, at + i, end - i, (const uint8_t *)v, strlen(v));
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	uint64_t rs = seed | (uint64_t)1 << 40;
	size_t at[N_FILES], len[N_FILES], off = HEADER, i, got = 0;
	size_t starts[512];
	int k;

	if (size < HEADER || next_rand(&rs) % 3 == 0)
		return LLVMFuzzerMutate(data, size, max);
	for (i = 0; i < N_FILES; i++) {
		size_t want = i + 1 < N_FILES ? (size_t)data[2 * i] | (size_t)data[2 * i + 1] << 8 : size;
		at[i] = off;
		len[i] = want < size - off ? want : size - off;
		off += len[i];
	}
	k = (int)(next_rand(&rs) % N_FILES);
	if (k >= 3)
		got = thread_move(data, size, max, k, at[k], len[k],
		    count_tbs(data + at[2], len[2], starts, 512), &rs);
	else if (k == 2)
		got = tbs_move(data + at[2], len[2], &rs) ? size : 0;
	else
		got = text_move(data, size, max, k, at[k], len[k], &rs);
	return got ? got : LLVMFuzzerMutate(data, size, max);
}
#endif
