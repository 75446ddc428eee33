/*
 * LoopPoint's rule (dcfg-profile --loop-aligned) over the shards of a
 * plan, against one run. The input is a line "# looppoint N K C A D",
 * then an edge stream of t/data/profile-nest.dcfg.json (D even) or of the
 * two-process gen-pair DCFG t/fuzz/looppoint-two.dcfg.json (D odd): N the slice size
 * (taken modulo 2^20, 0 is 1), the stream encoded with chunks of C edges
 * (modulo 64, 0 is 1), planned into K shards (modulo 6, plus 1), with
 * --align A when A modulo 2000 is not 0. Two routes:
 *
 *   one run     dcfg-expand TRACE | dcfg-profile --loop-aligned -o ONE
 *   the shards  per shard, dcfg-expand --chunks LINE TRACE | dcfg-profile
 *               --summary; --merge of the summaries into STARTS; per
 *               shard, the same with --part --starts STARTS; --merge of
 *               the parts into MERGED (dcfg-profile(1), SHARDS)
 *
 * must write the same files, byte for byte, and a step of the shards that
 * refuses what one run accepts is a finding too (for streams whose edges
 * chain: see chained()). After a line "%%" the
 * rest of the input is a starts file instead of the merged one: every
 * shard's --part --starts then reads it, and must give an error or a
 * part, never a crash, a hang or an unbounded allocation (no comparison).
 * FUZZ_LOOPPOINT_SHOW=1 prints what each step did. Moves: the header's
 * numbers drawn afresh, or the line moves (t/fuzz/mutate-lines.c).
 */
#include "fuzz.h"

#include <dirent.h>
#include <string.h>

#include "encode/encode.h"
#include "expand/expand.h"
#include "expand/plan.h"
#include "profile/profile.h"
/* its plan-line parser alone */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "planref.h"
#pragma GCC diagnostic pop

#define SHARDS_MAX 6
#define FILE_MAX (1 << 20)
#define PROCESSES_MAX 2      /* of the two DCFGs */

static char dir[64];
static int show = -1;

static void
say(const char *what, const char *detail)
{
	if (show)
		printf("%s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

static void
disagree(const char *what, const char *file)
{
	fprintf(stderr, "fuzz-looppoint: routes disagree: %s%s%s\n", what, file ? ": " : "",
	    file ? file : "");
	abort();
}

static const char *
at(const char *name)
{
	static char path[8][384];
	static unsigned k;
	char *p = path[k++ % 8];

	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	return p;
}

static const struct dcfg *
dcfg_of(int gp)
{
	static struct dcfg *d[2];

	return gp ? fuzz_dcfg_once(&d[1], FUZZ_DATA "/../fuzz/looppoint-two.dcfg.json") :
	    fuzz_dcfg_once(&d[0], FUZZ_DATA "/profile-nest.dcfg.json");
}

/* Every file of the directory removed (at the start of each input, and at exit). */
static void
clean(void)
{
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (dp == NULL)
		return;
	while ((e = readdir(dp)) != NULL)
		if (e->d_name[0] != '.')
			unlink(at(e->d_name));
	closedir(dp);
}

static void
clean_at_exit(void)
{
	clean();
	rmdir(dir);
}

/* The file at PATH into BUF (NUL-terminated); its length, or -1 when unreadable or too long. */
static long
slurp(const char *path, char *buf)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return -1;
	n = fread(buf, 1, FILE_MAX, f);
	fclose(f);
	if (n == FILE_MAX)
		return -1;
	buf[n] = '\0';
	return (long)n;
}

/* A step that writes files of its own (BASE.T.<tid>.bb): RC, shown; a write failure aborts. */
static int
files_step(int rc, const char *step, const struct dcfg_error *err)
{
	if (rc > 0)
		abort();
	if (rc < 0 && show)
		printf("%s refused: %s:%lu:%lu: %s\n", step, err->file, err->line, err->column,
		    err->message);
	else
		say(step, "done");
	return rc;
}

/* A step through OUT opened at PATH: 0, -1 refused (ERR shown); a write failure aborts. */
static int
close_step(struct dcfg_output *out, int rc, const char *step, struct dcfg_error *err)
{
	if (rc > 0)
		abort();
	if (rc < 0) {
		dcfg_output_discard(out);
		if (show)
			printf("%s refused: %s:%lu:%lu: %s\n", step, err->file, err->line, err->column,
			    err->message);
		return -1;
	}
	if (dcfg_output_close(out, err) < 0)
		abort();
	say(step, "done");
	return 0;
}

static int
encode(const char *stream, const struct dcfg *d, uint64_t chunk_edges)
{
	static struct dcfg_output out;
	struct dcfg_encode_options eo = { .dcfg = d, .chunk_edges = chunk_edges };
	struct dcfg_error err;

	if (dcfg_output_open(&out, at("trace"), &err) < 0)
		abort();
	return close_step(&out, dcfg_encode(stream, &eo, &out, &err), "encode", &err);
}

static int
expand(const struct dcfg_expand_options *xo, const char *to)
{
	static struct dcfg_output out;
	struct dcfg_error err;

	if (dcfg_output_open(&out, to, &err) < 0)
		abort();
	return close_step(&out, dcfg_expand(at("trace"), xo, &out, &err), "expand", &err);
}

static void
no_profile(void *ctx, uint64_t tid, const char *why)
{
	(void)ctx, (void)tid, (void)why;
}

static void
warning(void *ctx, const char *msg)
{
	(void)ctx, (void)msg;
}

/* dcfg-profile --loop-aligned of STREAM: to files BASE.T.<tid>.bb, or (PART) to the file TO. */
static int
profile(const struct dcfg *d, uint64_t n, const char *stream, int part, int summary,
    const char *starts, const char *to, const char *step, const uint64_t *pid)
{
	static struct dcfg_output out;
	struct dcfg_pinpoints_options o = { .slice_size = n, .loop_aligned = 1, .part = part,
		.summary = summary, .starts = starts, .no_profile = no_profile, .warning = warning,
		.has_pid = pid != NULL, .pid = pid ? *pid : 0 };
	struct dcfg_stage s = { .dcfg = d };
	struct dcfg_error err;

	if (!part) {
		o.base = to;
		return files_step(dcfg_pinpoints_stream(&s, stream, &o, &err), step, &err);
	}
	if (dcfg_output_open(&out, at(to), &err) < 0)
		abort();
	o.out = &out;
	return close_step(&out, dcfg_pinpoints_stream(&s, stream, &o, &err), step, &err);
}

/* dcfg-profile --merge [-p PID] of the N files NAME.1 ... NAME.N to BASE. */
static int
merge(const struct dcfg *d, const char *name, size_t n, const char *base,
    const uint64_t *pid)
{
	static char names[SHARDS_MAX][128];
	const char *paths[SHARDS_MAX];
	/* as dcfg-profile --merge: the profile's options come from the files */
	struct dcfg_pinpoints_options o = { .base = base, .no_profile = no_profile, .warning = warning,
		.has_pid = pid != NULL, .pid = pid ? *pid : 0 };
	struct dcfg_error err;
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof names[i], "%s/%s.%zu", dir, name, i + 1);
		paths[i] = names[i];
	}
	return files_step(dcfg_pinpoints_merge(d, paths, n, &o, &err),
	    strcmp(name, "sum") == 0 ? "merge of the summaries" : "merge of the parts", &err);
}

/* The plan's line as dcfg-expand's options for its shard, with --chunks. */
static void
shard_options(const struct planref_line *l, const struct dcfg *d, struct dcfg_expand_options *xo)
{
	memset(xo, 0, sizeof *xo);
	xo->chunks = 1;
	xo->pids = l->pid;
	xo->n_pids = l->n_pid;
	xo->tids = l->tid;
	xo->n_tids = l->n_tid;
	xo->window = l->has_from || l->has_to;
	xo->from = l->from;
	xo->to = l->has_to ? l->to : UINT64_MAX;
	xo->shard = l->shard;
	xo->shards = l->shards;
	xo->align = l->align;
	xo->of_pids = l->of_pid;
	xo->n_of_pids = l->n_of_pid;
	xo->of_tids = l->of_tid;
	xo->n_of_tids = l->n_of_tid;
	xo->dcfg = l->has_dcfg ? d : NULL;
}

/* dcfg-expand --plan K [--align A] of the trace, its lines into L; how many, or -1. */
static int
plan(const struct dcfg *d, uint64_t k, uint64_t align, struct planref_line *l)
{
	static struct dcfg_output out;
	static char text[65536];
	struct dcfg_plan_options po = { .lines = k, .align = align, .dcfg = d,
		.dcfg_path = align ? "prog.dcfg.json" : NULL };
	struct dcfg_error err;
	char *line, *end;
	int n = 0;

	if (dcfg_output_open(&out, at("plan"), &err) < 0)
		abort();
	if (close_step(&out, dcfg_plan(at("trace"), &po, &out, &err), "plan", &err) < 0)
		return -1;
	if (slurp(at("plan"), text) < 0)
		abort();
	for (line = text; (end = strchr(line, '\n')) != NULL; line = end + 1) {
		if (n == SHARDS_MAX || planref_parse(line, end, po.dcfg_path, &l[n]) != 0)
			disagree("dcfg-expand --plan wrote a line of another form", line);
		n++;
	}
	return n;
}

/* one.PID.T.<tid>.bb and merged.PID.T.<tid>.bb: the same files, byte for byte. */
static void
compare(void)
{
	static char a[FILE_MAX + 1], b[FILE_MAX + 1];
	DIR *dp = opendir(dir);
	struct dirent *e;
	char other[300];
	long na, nb;

	if (dp == NULL)
		abort();
	while ((e = readdir(dp)) != NULL) {
		int one = strncmp(e->d_name, "one.", 4) == 0;
		if (!one && strncmp(e->d_name, "merged.", 7) != 0)
			continue;
		snprintf(other, sizeof other, "%s.%s", one ? "merged" : "one", e->d_name + (one ? 4 : 7));
		if ((na = slurp(at(e->d_name), a)) < 0)
			abort();
		if ((nb = slurp(at(other), b)) < 0)
			disagree(one ? "one run wrote a profile the merge did not" :
			    "the merge wrote a profile one run did not", e->d_name);
		if (na != nb || memcmp(a, b, (size_t)na) != 0)
			disagree("the merged shards differ from one run", e->d_name);
		if (show)
			printf("--- %s\n%s", e->d_name, a);
	}
	closedir(dp);
}

/*
 * Whether each thread's edges chain, every one leaving the block the one
 * before entered: a trace counts instructions by the edges' sources and a
 * profile by the blocks entered, which agree only then. A stream whose
 * edges jump (the one-run profile takes it, while a part's pieces and its
 * chunks' counts disagree, and --merge refuses the part) is read by every
 * step but judged by nothing: that is no question of LoopPoint's rule.
 */
static int
chained(const struct dcfg *d, const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	const struct dcfg_edge *last = NULL, *edge;
	const struct dcfg_process *proc = NULL;
	uint64_t seen[64][2], pid = UINT64_MAX;   /* threads so far: one again is not walked */
	size_t n_seen = 0, i;

	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *e = nl ? nl : end;
		uint64_t id = 0;
		if (p < e && *p == '#') {
			const uint8_t *q = p + (e - p > 10 && memcmp(p, "# process ", 10) == 0 ? 10 :
			    e - p > 9 && memcmp(p, "# thread ", 9) == 0 ? 9 : 0);
			uint64_t v = 0;
			if (q == p) {   /* another comment: one like a thread's or a copy's is not walked */
				if (e - p >= 5 && (memcmp(p, "# thr", 5) == 0 || memcmp(p, "# pro", 5) == 0 ||
				    memcmp(p, "# run", 5) == 0 || memcmp(p, "# end", 5) == 0))
					return 0;
				p = e + 1;
				continue;
			}
			for (; q < e && *q >= '0' && *q <= '9' && v < UINT32_MAX; q++)
				v = v * 10 + (uint64_t)(*q - '0');
			if (q != e)
				return 0;
			if (p[2] == 'p') {
				proc = dcfg_find_process(d, v);
				pid = v;
			} else {
				for (i = 0; i < n_seen && (seen[i][0] != pid || seen[i][1] != v); i++)
					;
				if (i < n_seen || n_seen == 64)
					return 0;
				seen[n_seen][0] = pid;
				seen[n_seen++][1] = v;
			}
			last = NULL;
		} else {
			for (; p < e && *p >= '0' && *p <= '9' && id < UINT32_MAX; p++)
				id = id * 10 + (uint64_t)(*p - '0');
			if (p != e || id > UINT32_MAX || proc == NULL ||
			    (edge = dcfg_edge_by_id(d, proc, (uint32_t)id)) == NULL)
				return 0;
			if (last != NULL && last->target != edge->source)
				return 0;
			last = edge;
		}
		p = e + 1;
	}
	return 1;
}

struct header { uint64_t n, k, c, a, gp, shards; };

/* The line "# looppoint N K C A D"; the bytes it took, or 0. */
static size_t
header(const uint8_t *data, size_t size, struct header *h)
{
	char line[128];
	const uint8_t *nl = memchr(data, '\n', size < sizeof line ? size : sizeof line);
	unsigned long long v[5];

	if (nl == NULL)
		return 0;
	memcpy(line, data, (size_t)(nl - data));
	line[nl - data] = '\0';
	if (sscanf(line, "# looppoint %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4]) != 5)
		return 0;
	h->n = v[0] % (1u << 20) ? v[0] % (1u << 20) : 1;
	h->k = 1 + v[1] % SHARDS_MAX;
	h->c = v[2] % 64 ? v[2] % 64 : 1;
	h->a = v[3] % 2000;
	h->gp = v[4] % 2;
	return (size_t)(nl - data) + 1;
}

/* The stream's bytes, and after a line "%%" (if any) the starts file's. */
static void
split(const uint8_t *data, size_t size, size_t *stream_len, const uint8_t **starts, size_t *starts_len)
{
	size_t i;

	*stream_len = size;
	*starts = NULL;
	*starts_len = 0;
	for (i = 0; i + 3 <= size; i++)
		if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, "%%\n", 3) == 0) {
			*stream_len = i;
			*starts = data + i + 3;
			*starts_len = size - i - 3;
			return;
		}
}

/* With FUZZ_LOOPPOINT_SHOW, the file NAME (a summary, the starts) under a line "--- NAME". */
static void
show_file(const char *name)
{
	static char buf[FILE_MAX + 1];

	if (show && slurp(at(name), buf) >= 0)
		printf("--- %s\n%s", name, buf);
}

enum { NOTHING = -2 };

/* The shards' route: 0 when it made the parts, -1 when a step refused, NOTHING for a plan of no lines. */
static int
shards(const struct dcfg *d, struct header *h, const char *given_starts)
{
	struct planref_line l[SHARDS_MAX];
	struct dcfg_expand_options xo;
	char name[32];
	int n, i;

	if ((n = plan(d, h->k, h->a, l)) < 0)
		return -1;
	if (n == 0)
		return NOTHING;   /* a trace that selects nothing: no files to merge, as --merge needs some */
	h->shards = (uint64_t)n;
	for (i = 0; !given_starts && i < n; i++) {
		shard_options(&l[i], d, &xo);
		snprintf(name, sizeof name, "sum.%d", i + 1);
		if (expand(&xo, at("shard")) < 0 ||
		    profile(d, h->n, at("shard"), 1, 1, NULL, name, "summary", NULL) < 0)
			return -1;
		show_file(name);
	}
	if (!given_starts && merge(d, "sum", (size_t)n, at("starts"), NULL) < 0)
		return -1;
	show_file("starts");
	for (i = 0; i < n; i++) {
		shard_options(&l[i], d, &xo);
		snprintf(name, sizeof name, "part.%d", i + 1);
		if (expand(&xo, at("shard")) < 0 ||
		    profile(d, h->n, at("shard"), 1, 0, given_starts ? given_starts : at("starts"),
		    name, "part", NULL) < 0)
			return -1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct header h;
	struct dcfg_expand_options whole = { 0 };
	const struct dcfg *d;
	const uint8_t *starts;
	size_t skip = header(data, size, &h), stream_len, starts_len, i;
	int one_rc[PROCESSES_MAX], any_one = 0, rc;

	if (show < 0)
		if ((show = getenv("FUZZ_LOOPPOINT_SHOW") != NULL))
			setvbuf(stdout, NULL, _IOLBF, 0);   /* all of it before a disagreement aborts */
	if (skip == 0)
		return 0;
	if (dir[0] == '\0') {
		snprintf(dir, sizeof dir, "%s/fuzz-looppoint.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		    "/tmp");
		if (mkdtemp(dir) == NULL)
			abort();
		atexit(clean_at_exit);
	}
	clean();
	d = dcfg_of((int)h.gp);
	if (d->n_processes > PROCESSES_MAX)
		abort();
	split(data + skip, size - skip, &stream_len, &starts, &starts_len);
	if (encode(fuzz_put(0, data + skip, stream_len), d, h.c) < 0)
		return 0;
	if (starts) {   /* a starts file edited: read by each shard's --part --starts, judged by nothing */
		shards(d, &h, fuzz_put(1, starts, starts_len));
		return 0;
	}
	if (!chained(d, data + skip, stream_len) || expand(&whole, at("whole")) < 0)
		return 0;
	/* per process of the DCFG (one run takes one): one run, then the merge of the parts with its -p */
	for (i = 0; i < d->n_processes; i++) {
		char one[64];
		snprintf(one, sizeof one, "one.%llu", (unsigned long long)d->processes[i].pid);
		one_rc[i] = profile(d, h.n, at("whole"), 0, 0, NULL, at(one), "one run",
		    &d->processes[i].pid);
		any_one |= one_rc[i] == 0;
	}
	if ((rc = shards(d, &h, NULL)) == NOTHING)
		return 0;
	if (rc < 0) {
		if (any_one)
			disagree("a step of the shards refuses what one run accepts", NULL);
		return 0;
	}
	for (i = 0; i < d->n_processes; i++) {
		char merged[64];
		snprintf(merged, sizeof merged, "merged.%llu", (unsigned long long)d->processes[i].pid);
		if (merge(d, "part", (size_t)h.shards, at(merged), &d->processes[i].pid) != one_rc[i])
			disagree(one_rc[i] == 0 ? "the merge of the parts refuses what one run accepts" :
			    "one run refuses what the merge of the parts accepts", merged);
	}
	compare();
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

/*
 * One move in three draws the header's numbers afresh (the stream's DCFG
 * kept): slice sizes around the loops' iterations, where a threshold
 * falls exactly on an entry, any number of shards, chunk sizes and
 * --align; the others are the line moves of the regions target.
 */
size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	struct header h;
	size_t skip = header(data, size, &h), n;
	uint64_t r = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	char line[128];

	if (skip == 0 || r % 3 != 0)
		return fuzz_mutate_lines(data, size, max, seed);
	r >>= 8;
	n = (size_t)snprintf(line, sizeof line, "# looppoint %llu %llu %llu %llu %llu\n",
	    (unsigned long long)(r % 4 ? 1 + r % 40 : 1 + r % 3000), (unsigned long long)(r >> 12) % 6,
	    (unsigned long long)(1 + (r >> 16) % 20), (unsigned long long)((r >> 24) % 4 ? 0 : 1 + (r >> 28) % 30),
	    (unsigned long long)h.gp);
	if (size - skip + n > max)
		return fuzz_mutate_lines(data, size, max, seed);
	memmove(data + n, data + skip, size - skip);
	memcpy(data, line, n);
	return size - skip + n;
}
#endif
