/* Reading the spool's tables and its thread files (spool_read.h). */
#include "spool_read.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spool.h"
#include "common/vec.h"

/* The text files are a few lines an image; more than this is not a spool's. */
#define REC_MAX_TEXT_FILE (64u << 20)
#define REC_MAX_TBS_FILE (1u << 30)

static void
spool_path(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* The whole of PATH, NUL-ended, at most LIMIT bytes. NULL with ERR set. */
static char *
read_whole(const char *path, size_t limit, size_t *len, struct dcfg_error *err)
{
	struct stat st;
	char *data;
	size_t got = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		dcfg_error_set(err, path, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > limit) {
		dcfg_error_set(err, path, "not a regular file of at most %zu bytes", limit);
		close(fd);
		return NULL;
	}
	if ((data = malloc((size_t)st.st_size + 1)) == NULL) {
		dcfg_error_set(err, path, "out of memory");
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			dcfg_error_set(err, path, "%s", n < 0 ? strerror(errno) : "shorter than its size");
			free(data);
			close(fd);
			return NULL;
		}
		got += (size_t)n;
	}
	close(fd);
	data[got] = '\0';
	*len = got;
	return data;
}

/* A number of BASE (10, or 16 with its 0x) that ends at white space or the end. */
static int
parse_u64(const char **p, int base, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int digits = 0;

	if (base == 16) {
		if (s[0] != '0' || s[1] != 'x')
			return -1;
		s += 2;
	}
	for (;; s++, digits++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / (unsigned)base)
			return -1;
		x = x * (unsigned)base + d;
	}
	if (digits == 0 || (*s != '\0' && *s != ' ' && *s != '\n'))
		return -1;
	*v = x;
	*p = s;
	return 0;
}

static int
word_is(const char *line, const char *word, const char **rest)
{
	size_t n = strlen(word);

	if (strncmp(line, word, n) != 0 || line[n] != ' ')
		return 0;
	*rest = line + n + 1;
	return 1;
}

static int
process_line(struct rec_spool *s, const char *path, unsigned long lineno, const char *line,
    int *seen_threads, struct dcfg_error *err)
{
	const char *rest;
	uint64_t v;

	if (word_is(line, "pid", &rest) || word_is(line, "status", &rest)) {
		if (parse_u64(&rest, 10, &v) < 0 || *rest != '\n')
			return dcfg_error_at(err, path, lineno, 1, "a decimal number is needed");
		if (line[0] == 'p')
			s->pid = v;
		return 0;
	}
	if (word_is(line, "threads", &rest)) {
		/* a program has a thread, and a walk of none would find no edges to index */
		if (parse_u64(&rest, 10, &v) < 0 || *rest != '\n' || v == 0 || v > REC_MAX_THREADS)
			return dcfg_error_at(err, path, lineno, 1,
			    "the thread count must be a number from 1 to %d", REC_MAX_THREADS);
		s->n_threads = (uint32_t)v;
		*seen_threads = 1;
		return 0;
	}
	if (strncmp(line, "arch x86_64\n", 12) == 0) {
		s->arch = DCFG_REC_X86_64;
		return 0;
	}
	if (strncmp(line, "arch aarch64\n", 13) == 0) {
		s->arch = DCFG_REC_AARCH64;
		return 0;
	}
	return dcfg_error_at(err, path, lineno, 1, "not a line of a spool's process file");
}

/*
 * Calls LINE_FN for each line of the spool's text file NAME, until one
 * fails; a last line without its newline was cut short.
 */
static int
each_line(struct rec_spool *s, const char *name,
    int (*line_fn)(void *ctx, const char *path, unsigned long lineno, const char *line,
    const char *nl, struct dcfg_error *err), void *ctx, struct dcfg_error *err)
{
	char path[4096], *text, *line, *nl;
	unsigned long lineno = 0;
	size_t len;
	int rc = 0;

	spool_path(path, sizeof path, s->dir, name);
	if ((text = read_whole(path, REC_MAX_TEXT_FILE, &len, err)) == NULL)
		return -1;
	for (line = text; rc == 0 && *line != '\0'; line = nl + 1) {
		lineno++;
		if ((nl = strchr(line, '\n')) == NULL) {
			rc = dcfg_error_at(err, path, lineno, 1, "the last line has no newline: cut short");
			break;
		}
		rc = line_fn(ctx, path, lineno, line, nl, err);
	}
	free(text);
	return rc;
}

struct process_read {
	struct rec_spool *s;
	int complete, seen_threads;
};

static int
process_file_line(void *ctx, const char *path, unsigned long lineno, const char *line,
    const char *nl, struct dcfg_error *err)
{
	struct process_read *r = ctx;

	(void)nl;
	if (r->complete)
		return dcfg_error_at(err, path, lineno, 1, "a line after \"complete\"");
	if (strncmp(line, "complete\n", 9) == 0) {
		r->complete = 1;
		return 0;
	}
	return process_line(r->s, path, lineno, line, &r->seen_threads, err);
}

static int
load_process(struct rec_spool *s, struct dcfg_error *err)
{
	struct process_read r = { s, 0, 0 };
	char path[4096];

	if (each_line(s, "process", process_file_line, &r, err) < 0)
		return -1;
	spool_path(path, sizeof path, s->dir, "process");
	if (!r.complete)
		return dcfg_error_set(err, path, "no \"complete\" line: the recording did not finish");
	if (!r.seen_threads)
		return dcfg_error_set(err, path, "no \"threads\" line");
	return 0;
}

struct images_read {
	struct rec_spool *s;
	size_t cap;
};

static int
image_line(void *ctx, const char *path, unsigned long lineno, const char *line,
    const char *nl, struct dcfg_error *err)
{
	struct images_read *r = ctx;
	struct rec_spool *s = r->s;
	struct rec_spool_image *im;
	const char *rest;

	if (dcfg_reserve((void **)&s->images, &r->cap, s->n_images + 1, sizeof *s->images) < 0)
		return dcfg_error_set(err, path, "out of memory");
	im = &s->images[s->n_images];
	if (!word_is(line, "image", &rest) || parse_u64(&rest, 16, &im->load) < 0 ||
	    *rest++ != ' ' || parse_u64(&rest, 16, &im->size) < 0 || *rest != ' ' ||
	    im->size == 0 || im->load > UINT64_MAX - im->size)
		return dcfg_error_at(err, path, lineno, 1,
		    "an image line is \"image 0xLOAD 0xSIZE PATH\", with a size above 0");
	rest++;
	im->path = NULL;
	if (rest < nl && (im->path = strndup(rest, (size_t)(nl - rest))) == NULL)
		return dcfg_error_set(err, path, "out of memory");
	s->n_images++;
	return 0;
}

static int
load_images(struct rec_spool *s, struct dcfg_error *err)
{
	struct images_read r = { s, 0 };

	return each_line(s, "images", image_line, &r, err);
}

static int
tb_error(const char *path, size_t at, const char *what, struct dcfg_error *err)
{
	return dcfg_error_set(err, path, "the record at byte %zu: %s", at, what);
}

/* One record at DATA + *AT, checked, appended to S. */
static int
tb_record(struct rec_spool *s, const char *path, const uint8_t *data, size_t len, size_t *at,
    struct dcfg_error *err)
{
	struct dcfg_spool_tb h;
	struct rec_tb *tb = &s->tbs[s->n_tbs];
	size_t start = *at, i;
	unsigned max_len = s->arch == DCFG_REC_AARCH64 ? 4 : REC_MAX_INSN_LEN;

	if (len - start < sizeof h)
		return tb_error(path, start, "cut short", err);
	memcpy(&h, data + start, sizeof h);
	if (h.id != s->n_tbs)
		return tb_error(path, start, "its id is not the record's number", err);
	if (h.n_insns == 0 || h.n_insns > REC_MAX_TB_INSNS)
		return tb_error(path, start, "its instruction count is 0 or absurd", err);
	if (len - start - sizeof h < (size_t)h.n_insns + h.last_len)
		return tb_error(path, start, "cut short", err);
	tb->pc = h.pc;
	tb->n_insns = h.n_insns;
	tb->first_len = (uint32_t)s->n_lengths;
	tb->size = 0;
	for (i = 0; i < h.n_insns; i++) {
		uint8_t l = data[start + sizeof h + i];
		if (l == 0 || l > max_len || (s->arch == DCFG_REC_AARCH64 && l != 4))
			return tb_error(path, start, "an instruction length is impossible", err);
		s->lengths[s->n_lengths + i] = l;
		tb->size += l;
	}
	if (h.last_len == 0 || h.last_len > data[start + sizeof h + h.n_insns - 1])
		return tb_error(path, start, "the last instruction's bytes are not its length", err);
	if (h.pc > UINT64_MAX - tb->size)
		return tb_error(path, start, "it ends past the address space", err);
	tb->last_len = h.last_len;
	memcpy(tb->last, data + start + sizeof h + h.n_insns, h.last_len);
	s->n_lengths += h.n_insns;
	s->n_tbs++;
	*at = start + sizeof h + h.n_insns + h.last_len;
	return 0;
}

static int
load_tbs(struct rec_spool *s, struct dcfg_error *err)
{
	char path[4096];
	uint8_t *data;
	size_t len, at = 0, most;
	int rc = 0;

	spool_path(path, sizeof path, s->dir, "tbs");
	if ((data = (uint8_t *)read_whole(path, REC_MAX_TBS_FILE, &len, err)) == NULL)
		return -1;
	/* every record holds its header and one length at least */
	most = len / (sizeof(struct dcfg_spool_tb) + 1) + 1;
	s->tbs = malloc(most * sizeof *s->tbs);
	s->lengths = malloc(len + 1);
	if (s->tbs == NULL || s->lengths == NULL)
		rc = dcfg_error_set(err, path, "out of memory");
	while (rc == 0 && at < len)
		rc = tb_record(s, path, data, len, &at, err);
	free(data);
	return rc;
}

struct tb_start {
	uint64_t pc;
	uint8_t first_len;
};

static int
cmp_start(const void *a, const void *b)
{
	const struct tb_start *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return (x->first_len > y->first_len) - (x->first_len < y->first_len);
}

/*
 * QEMU 7.2 lists an instruction that crosses a page as the last of a
 * translation block that it then ends before that instruction, which
 * runs as the first of the next block, its bytes read whole: the
 * listed one, cut short, never ran. It is told by a block that starts
 * where it does with a first instruction of another length, and dropped.
 */
static int
drop_unrun_last(struct rec_spool *s)
{
	struct tb_start *starts = malloc((s->n_tbs + 1) * sizeof *starts);
	size_t i;

	if (starts == NULL)
		return -1;
	for (i = 0; i < s->n_tbs; i++)
		starts[i] = (struct tb_start){ s->tbs[i].pc, s->lengths[s->tbs[i].first_len] };
	qsort(starts, s->n_tbs, sizeof *starts, cmp_start);
	for (i = 0; i < s->n_tbs; i++) {
		struct rec_tb *tb = &s->tbs[i];
		uint8_t len = s->lengths[tb->first_len + tb->n_insns - 1];
		struct tb_start key = { tb->pc + tb->size - len, 0 };
		size_t lo = 0, hi = s->n_tbs;
		if (tb->n_insns < 2)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (starts[mid].pc < key.pc)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < s->n_tbs && starts[lo].pc == key.pc; lo++)
			if (starts[lo].first_len != len) {
				tb->n_insns--;
				tb->size -= len;
				tb->last_len = 0;    /* it ends without a transfer */
				break;
			}
	}
	free(starts);
	return 0;
}

int
rec_spool_load(struct rec_spool *s, const char *dir, struct dcfg_error *err)
{
	memset(s, 0, sizeof *s);
	s->dir = dir;
	if (load_process(s, err) < 0 || load_images(s, err) < 0 || load_tbs(s, err) < 0) {
		rec_spool_free(s);
		return -1;
	}
	if (drop_unrun_last(s) < 0) {
		rec_spool_free(s);
		return dcfg_error_set(err, dir, "out of memory");
	}
	return 0;
}

void
rec_spool_free(struct rec_spool *s)
{
	size_t i;

	for (i = 0; i < s->n_images; i++)
		free(s->images[i].path);
	free(s->images);
	free(s->tbs);
	free(s->lengths);
	s->images = NULL;
	s->tbs = NULL;
	s->lengths = NULL;
	s->n_images = s->n_tbs = s->n_lengths = 0;
}

int
rec_thread_size(const struct rec_spool *s, uint32_t thread, uint64_t *size, struct dcfg_error *err)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof path, "%s/thread.%" PRIu32, s->dir, thread);
	if (stat(path, &st) < 0)
		return dcfg_error_set(err, path, "%s", strerror(errno));
	*size = (uint64_t)st.st_size;
	return 0;
}

/* ---- thread files ---- */

static int
refill(struct rec_thread_reader *r, struct dcfg_error *err)
{
	ssize_t n;

	if (r->pos < r->len)
		return 1;
	r->offset += r->len;
	r->pos = r->len = 0;
	do
		n = read(r->fd, r->buf, sizeof r->buf);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return dcfg_error_set(err, r->path, "%s", strerror(errno));
	r->len = (size_t)n;
	return n > 0;
}

static int
thread_error(struct rec_thread_reader *r, const char *what, struct dcfg_error *err)
{
	return dcfg_error_set(err, r->path, "the record at byte %llu: %s",
	    (unsigned long long)r->record_at, what);
}

/* One LEB128 number: 1, 0 at a clean end of the file before it, -1 with ERR set. */
static int
read_leb(struct rec_thread_reader *r, uint64_t *v, struct dcfg_error *err)
{
	uint64_t x = 0;
	unsigned shift = 0;
	int rc;

	for (;;) {
		uint8_t byte;
		if ((rc = refill(r, err)) <= 0) {
			if (rc == 0 && shift > 0)
				return thread_error(r, "cut short", err);
			return rc;
		}
		byte = r->buf[r->pos++];
		if (shift == 63 && (byte & 0x7e) != 0)
			return thread_error(r, "a number past 2^64", err);
		x |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			break;
		if ((shift += 7) > 63)
			return thread_error(r, "a number past 2^64", err);
	}
	*v = x;
	return 1;
}

int
rec_thread_open(struct rec_thread_reader *r, const struct rec_spool *s, uint32_t thread,
    struct dcfg_error *err)
{
	struct dcfg_spool_thread h;
	size_t got = 0;

	r->s = s;
	r->fd = -1;
	r->follows = NULL;
	snprintf(r->path, sizeof r->path, "%s/thread.%" PRIu32, s->dir, thread);
	if ((r->fd = open(r->path, O_RDONLY | O_CLOEXEC)) < 0)
		return dcfg_error_set(err, r->path, "%s", strerror(errno));
	if ((r->follows = calloc(s->n_tbs + 1, sizeof *r->follows)) == NULL) {
		rec_thread_close(r);
		return dcfg_error_set(err, r->path, "out of memory");
	}
	r->prev = UINT32_MAX;
	r->hits = 0;
	r->pending = 0;
	r->ended = 0;
	r->offset = 0;
	r->pos = r->len = 0;
	while (got < sizeof h) {
		int rc = refill(r, err);
		size_t take;
		if (rc <= 0) {
			if (rc == 0)
				dcfg_error_set(err, r->path, "the header is cut short");
			rec_thread_close(r);
			return -1;
		}
		take = r->len - r->pos < sizeof h - got ? r->len - r->pos : sizeof h - got;
		memcpy((char *)&h + got, r->buf + r->pos, take);
		r->pos += take;
		got += take;
	}
	if (memcmp(h.magic, DCFG_SPOOL_THREAD_MAGIC, sizeof h.magic) != 0) {
		rec_thread_close(r);
		return dcfg_error_set(err, r->path, "not a spool's thread file (no %s at byte 0)",
		    DCFG_SPOOL_THREAD_MAGIC);
	}
	r->preceding_instrs = h.preceding_instrs;
	return 0;
}

/* Reads the next (HITS, NEXT) record into r->hits and r->pending. */
static int
read_record(struct rec_thread_reader *r, struct dcfg_error *err)
{
	uint64_t hits, next;
	int rc;

	r->record_at = rec_thread_bytes_read(r);
	if ((rc = read_leb(r, &hits, err)) <= 0)
		return rc < 0 ? -1 : thread_error(r, "the file ends without its end record: cut short",
		    err);
	if ((rc = read_leb(r, &next, err)) <= 0)
		return rc < 0 ? -1 : thread_error(r, "cut short", err);
	if (next > r->s->n_tbs)
		return thread_error(r, "a block id past the tbs table", err);
#ifdef FUZZ_PLANT_SPOOL
	/* an off-by-one planted for the spool fuzz target to find (README, Fuzzing) */
	if (hits > 1 && r->prev == UINT32_MAX)
#else
	if (hits > 0 && r->prev == UINT32_MAX)
#endif
		return thread_error(r, "predicted blocks before the first block", err);
	r->hits = hits;
	r->pending = (uint32_t)next;
	if (next == 0)
		r->ended = 1;
	return 1;
}

int
rec_thread_next_slow(struct rec_thread_reader *r, uint32_t *tb, struct dcfg_error *err)
{
	for (;;) {
		if (r->hits > 0) {
			uint32_t f = r->follows[r->prev];
			if (f == 0)
				return thread_error(r, "a predicted block follows a block nothing has followed",
				    err);
			r->hits--;
			r->prev = f - 1;
			*tb = f - 1;
			return 1;
		}
		if (r->pending != 0) {
			uint32_t next = r->pending - 1;
			if (r->prev != UINT32_MAX)
				r->follows[r->prev] = next + 1;
			r->pending = 0;
			r->prev = next;
			*tb = next;
			return 1;
		}
		if (r->ended) {
			int rc = refill(r, err);
			if (rc > 0) {
				r->record_at = rec_thread_bytes_read(r);
				return thread_error(r, "bytes after the end record", err);
			}
			return rc;
		}
		if (read_record(r, err) < 0)
			return -1;
	}
}

void
rec_thread_close(struct rec_thread_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->follows);
	r->follows = NULL;
}
