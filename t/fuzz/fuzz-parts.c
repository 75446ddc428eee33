/*
 * dcfg-profile --merge: the input is up to eight parts (dcfg-profile
 * --part, one a shard of a plan), one after another, each ended by a line
 * "%%"; each goes into a file of its own and the merge reads them all,
 * against t/data/profile-nest.dcfg.json or, when the first part names it,
 * the gen-pair DCFG the other seeds were made with (both loaded once).
 * --thread comes from the input's size, and its thread from the first
 * "f" line, so that a seed of any plan names one of its threads. Parts are text that may be cut
 * short or edited by hand, so every way one can break must be an error,
 * never a crash, a hang, an unbounded allocation or a merged profile that
 * is silently wrong. The oracle reads every profile the merge wrote: the
 * layout of dcfg-profile(1) (the head, then comment lines, T and a marker
 * per slice, the trailer, "End of bb"); no empty T line, its ids
 * ascending and each value a nonzero multiple of its block's static
 * instructions; every marker at a block's start, with a count from 1 to
 * that block's block count; Block id lines ascending; "Dynamic
 * instruction count" the sum of the T lines and "Dynamic unfiltered
 * instruction count" the sum of the slices' unfiltered counts, no less.
 * A merge that fails leaves no file (with --thread, one whose thread has
 * no instructions left writes an empty one). Summaries (--summary) merge
 * into a starts file, whose oracle is check_starts. FUZZ_PARTS_SHOW=1 prints each
 * profile it checks, and each refusal.
 */
#include "fuzz.h"

#include <dirent.h>
#include <string.h>

#include "profile/profile.h"

#define FILES 8
#define MAX_BLOCKS 65536

static char dir[64];

static const struct dcfg *
load(const char *name)
{
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL & ~DCFG_KEEP_EDGE_COUNTS };
	struct dcfg_error err;
	struct dcfg *d = dcfg_load(name, &lo, &err);

	if (d == NULL) {
		fprintf(stderr, "fuzz-parts: %s: %s\n", err.file, err.message);
		abort();
	}
	return d;
}

/* The DCFG the first part names (" dcfg=CRC:BYTES "), else the hand-written one. */
static const struct dcfg *
dcfg_for(const uint8_t *data, size_t size)
{
	static const struct dcfg *d[2];
	static char id[2][64];
	size_t k, n;

	if (d[0] == NULL) {
		d[0] = load(FUZZ_DATA "/profile-nest.dcfg.json");
		d[1] = load(FUZZ_DATA "/../fuzz/parts-prog.dcfg.json");
		for (k = 0; k < 2; k++)
			snprintf(id[k], sizeof id[k], " dcfg=%08x:%llu ", (unsigned)d[k]->crc32,
			    (unsigned long long)d[k]->bytes);
	}
	n = strlen(id[1]);
	for (k = 0; k + n <= size && k < 200 && data[k] != '\n'; k++)
		if (memcmp(data + k, id[1], n) == 0)
			return d[1];
	return d[0];
}

static void
fail(const char *name, unsigned long line, const char *what)
{
	fprintf(stderr, "fuzz-parts: %s:%lu: %s\n", name, line, what);
	abort();
}

struct block_line { unsigned long long id, start, ni, count; };
static struct block_line blocks[MAX_BLOCKS];

/* The count of the entries of the blocks that start at PC (-1: none does). */
static long double
entries_at(size_t n, unsigned long long pc)
{
	long double sum = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (blocks[i].start == pc)
			sum = (sum < 0 ? 0 : sum) + blocks[i].count;
	return sum;
}

static const struct block_line *
block_of(size_t n, unsigned long long id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (blocks[mid].id == id)
			return &blocks[mid];
		if (blocks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A T line: ":ID:VALUE" words, ids ascending, each value a nonzero multiple of its block's. */
static void
check_t_line(const char *name, unsigned long no, char *line, size_t n_blocks,
    unsigned long long *sum, long double *sum_wide)
{
	unsigned long long last = 0, id, v;
	char *p;
	int n = 0;

	if (line[1] != ':' || line[2] == '\0')
		fail(name, no, "an empty T line");
	for (p = line + 1; *p; n++) {
		const struct block_line *b;
		char *e;
		if (*p != ':' || (id = strtoull(p + 1, &e, 10), *e != ':') ||
		    (v = strtoull(e + 1, &p, 10), *p != ' ' && *p != '\0'))
			fail(name, no, "a T line of another form");
		if (*p == ' ')
			p++;
		if ((n > 0 && id <= last) || (b = block_of(n_blocks, id)) == NULL)
			fail(name, no, "T ids not ascending, or not a block of the Block id lines");
		if (v == 0 || v % b->ni != 0)
			fail(name, no, "a T value that is not a nonzero multiple of the block's instructions");
		last = id;
		*sum += v;   /* wraps: SUM_WIDE shows it */
		*sum_wide += v;
	}
}

/* The oracle: one profile, NUL-terminated in BUF (modified). */
static void
check_profile(const char *name, char *buf)
{
	enum { HEAD, SLICE_COMMENT, UNFILTERED, T, MARKER, TRAILER, BLOCKS, END } want = HEAD;
	unsigned long long pc, id, start, end, ni, count, sum_t = 0, sum_unf = 0, dyn = 0, dyn_unf = 0;
	long double sum_t_wide = 0;
	unsigned long no = 0;
	size_t n_blocks = 0, markers = 0, slices = 0;
	char *line, *next;
	int seen_trailer = 0;

	if (getenv("FUZZ_PARTS_SHOW"))
		printf("--- %s\n%s", name, buf);
	if (strncmp(buf, "# dcfg-profile 1 slice-size=", 28) != 0)
		fail(name, 1, "not a profile's first line");
	/* first pass: the Block id lines, ascending */
	for (line = strstr(buf, "\nBlock id: "); line; line = strstr(line + 1, "\nBlock id: ")) {
		if (sscanf(line + 11, "%llu 0x%llx:0x%llx static instructions: %llu block count: %llu",
		    &id, &start, &end, &ni, &count) != 5 || ni == 0)
			fail(name, 0, "a Block id line of another form");
		if (n_blocks > 0 && id <= blocks[n_blocks - 1].id)
			fail(name, 0, "Block id lines not ascending");
		if (n_blocks == MAX_BLOCKS)
			abort();
		blocks[n_blocks++] = (struct block_line){ id, start, ni, count };
	}
	for (line = buf; *line; line = next) {
		no++;
		if ((next = strchr(line, '\n')) == NULL)
			fail(name, no, "a last line without its newline");
		*next++ = '\0';
		if (want == HEAD && (line[0] == '#' || !strncmp(line, "P: ", 3) || !strncmp(line, "C: ", 3) ||
		    !strncmp(line, "G: ", 3)))
			continue;
		if (!strncmp(line, "S: ", 3) || !strncmp(line, "M: ", 3)) {
			long double at;
			if (want != HEAD && want != MARKER)
				fail(name, no, "a marker out of place");
			if (sscanf(line + 3, "0x%llx %llu", &pc, &count) != 2 || count == 0)
				fail(name, no, "a marker's count is not 1 or more");
			at = entries_at(n_blocks, pc);
			if (at < 0 || (long double)count > at)
				fail(name, no, "a marker past its block's entries, or at no block's start");
			markers++;
			want = SLICE_COMMENT;
		} else if (!strncmp(line, "# Slice ending at ", 18) && want == SLICE_COMMENT) {
			want = UNFILTERED;
		} else if (!strncmp(line, "# Unfiltered count ", 19) && want == UNFILTERED) {
			if (__builtin_add_overflow(sum_unf, strtoull(line + 19, NULL, 10), &sum_unf))
				fail(name, no, "unfiltered counts past 2^64 - 1");
			want = T;
		} else if (line[0] == 'T' && want == T) {
			check_t_line(name, no, line, n_blocks, &sum_t, &sum_t_wide);
			slices++;
			want = MARKER;
		} else if (!strncmp(line, "Dynamic instruction count ", 26) && want == SLICE_COMMENT && !seen_trailer) {
			dyn = strtoull(line + 26, NULL, 10);
			seen_trailer = 1;
			want = TRAILER;
		} else if (!strncmp(line, "Dynamic unfiltered instruction count ", 37) && want == TRAILER) {
			dyn_unf = strtoull(line + 37, NULL, 10);
		} else if (!strncmp(line, "SliceSize: ", 11) && want == TRAILER) {
			want = BLOCKS;
		} else if (!strncmp(line, "Block id: ", 10) && want == BLOCKS) {
			continue;
		} else if (!strcmp(line, "End of bb") && want == BLOCKS) {
			want = END;
		} else {
			fail(name, no, "a line out of place");
		}
	}
	if (want != END || slices == 0 || markers != slices + 1)
		fail(name, no, "a profile cut short, or without a slice");
	if (sum_t_wide != (long double)sum_t || dyn != sum_t)
		fail(name, no, "Dynamic instruction count is not the sum of the T lines");
	if (dyn_unf != sum_unf || dyn_unf < dyn)
		fail(name, no, "Dynamic unfiltered instruction count is not the sum of the slices' unfiltered counts");
}

/*
 * The oracle of a merge of summaries: a starts file (profile_starts.c's
 * layout): its head, then per shard a "# selection" line and, per process,
 * "# process PID" and "s TID THRESHOLD" lines, the first threshold of
 * each thread the slice size, and "# trace CRC:BYTES" last.
 */
static void
check_starts(const char *name, char *buf)
{
	static struct { unsigned long long pid, tid; } seen[4096];
	unsigned long long n, pid = 0, tid, threshold;
	size_t n_seen = 0, i;
	unsigned long no = 0;
	char *line, *next, *p;
	int in_shard = 0, in_process = 0, traced = 0;

	if (getenv("FUZZ_PARTS_SHOW"))
		printf("--- %s\n%s", name, buf);
	if ((p = strstr(buf, " slice-size=")) == NULL || sscanf(p, " slice-size=%llu", &n) != 1)
		fail(name, 1, "a starts file without its slice size");
	for (line = buf; *line; line = next) {
		no++;
		if ((next = strchr(line, '\n')) == NULL)
			fail(name, no, "a last line without its newline");
		*next++ = '\0';
		if (traced)
			fail(name, no, "a line after the \"# trace\" line");
		if (no == 1) {
			if (strncmp(line, "# dcfg-profile-starts 2 ", 24) != 0 || (strstr(line, " process=") == NULL))
				fail(name, no, "not a starts file's first line");
		} else if (no == 2) {
			if (strncmp(line, "C: ", 3) != 0)
				fail(name, no, "not the \"C:\" line");
		} else if (!strncmp(line, "# selection ", 12)) {
			in_shard = 1, in_process = 0;
		} else if (!strncmp(line, "# process ", 10) && in_shard) {
			pid = strtoull(line + 10, NULL, 10);
			in_process = 1;
		} else if (line[0] == 's' && in_process && sscanf(line, "s %llu %llu", &tid, &threshold) == 2) {
			for (i = 0; i < n_seen && (seen[i].pid != pid || seen[i].tid != tid); i++)
				;
			if (i == n_seen && n_seen < sizeof seen / sizeof seen[0]) {
				if (threshold != n)
					fail(name, no, "a thread's first shard not coming in with the slice size");
				seen[n_seen].pid = pid;
				seen[n_seen++].tid = tid;
			}
		} else if (!strncmp(line, "# trace ", 8) && in_shard) {
			traced = 1;
		} else {
			fail(name, no, "a line out of place");
		}
	}
	if (!traced)
		fail(name, no, "a starts file without its \"# trace\" line");
}

/* Every file in DIR: checked when the merge succeeded (none may be there when it failed), then removed. */
/* At exit: the directory, empty after each input's check. */
static void
remove_dir(void)
{
	rmdir(dir);
}

static void
check_dir(int merged)
{
	static char buf[1 << 22];
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (dp == NULL)
		abort();
	while ((e = readdir(dp)) != NULL) {
		char name[512];
		FILE *f;
		size_t n;
		if (e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
		if (!merged)
			fail(name, 0, "a file left by a merge that failed");
		if ((f = fopen(name, "r")) == NULL)
			abort();
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* --thread of a thread with no instructions left writes nothing */
		if (n > 0 && n < sizeof buf - 1 && strncmp(buf, "# dcfg-profile-starts ", 22) == 0)
			check_starts(name, buf);
		else if (n > 0 && n < sizeof buf - 1)
			check_profile(name, buf);
		unlink(name);
	}
	closedir(dp);
}

/* The thread of the input's first "f TID" line; 0 without one. */
static unsigned long long
first_thread(const uint8_t *data, size_t size)
{
	unsigned long long tid = 0;
	size_t k;

	for (k = 0; k + 2 < size; k++)
		if ((k == 0 || data[k - 1] == '\n') && data[k] == 'f' && data[k + 1] == ' ') {
			for (k += 2; k < size && data[k] >= '0' && data[k] <= '9' && tid < 1000000; k++)
				tid = tid * 10 + (unsigned)(data[k] - '0');
			break;
		}
	return tid;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcfg_output out;
	static char base[80];
	const struct dcfg *d = dcfg_for(data, size);
	const char *names[FILES];
	struct dcfg_pinpoints_options o = { .has_tid = size % 5 == 4, .tid = first_thread(data, size) };
	struct dcfg_error err;
	size_t at = 0, n = 0;
	int rc;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof dir, "%s/fuzz-parts.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (mkdtemp(dir) == NULL)
			abort();
		snprintf(base, sizeof base, "%s/m", dir);
		atexit(remove_dir);
	}
	while (n < FILES && (at < size || n == 0)) {
		const uint8_t *end = NULL, *p;
		size_t len;
		for (p = data + at; p + 3 <= data + size; p++)
			if (p[0] == '%' && p[1] == '%' && p[2] == '\n' && (p == data + at || p[-1] == '\n')) {
				end = p;
				break;
			}
		len = (size_t)((end ? end : data + size) - (data + at));
		names[n] = fuzz_put((int)n, data + at, len);
		n++;
		at += len + (end ? 3 : 0);
		if (end == NULL)
			break;
	}
	o.inputs = names;
	o.n_inputs = n;
	if (o.has_tid) {
		snprintf(base, sizeof base, "%s/m.T.%llu.bb", dir, (unsigned long long)o.tid);
		if (dcfg_output_open(&out, base, &err) < 0)
			abort();
		o.out = &out;
	} else {
		o.base = base;
	}
	rc = dcfg_pinpoints_merge(d, names, n, &o, &err);
	if (getenv("FUZZ_PARTS_SHOW") && rc < 0)
		printf("refused: %s:%lu:%lu: %s\n", err.file, err.line, err.column, err.message);
	if (o.has_tid) {
		if (rc == 0 && dcfg_output_close(&out, &err) < 0)
			abort();
		if (rc != 0)
			dcfg_output_discard(&out);
		snprintf(base, sizeof base, "%s/m", dir);
	}
	if (rc > 0)
		abort();   /* a write failed: not the input's doing */
	check_dir(rc == 0);
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	return fuzz_mutate_lines(data, size, max, seed);
}
#endif
