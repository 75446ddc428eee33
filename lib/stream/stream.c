#include <dcfg/stream.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/input.h"
#include "common/kind.h"
#include "common/vec.h"
#include "reader.h"

#define BUF_SIZE (256 * 1024)
#define MAX_LINE (1024 * 1024)

struct dcfg_stream {
	struct dcfg_input *in;
	char *buf;
	size_t cap, start, end;   /* unread bytes are buf[start .. end) */
	size_t whole;             /* just past the last '\n' in buf[0 .. end), 0 if none */
	int eof;
	unsigned long lineno;
	const char *name;
	int version;
	/* the runs open at this line: their COUNTs, the weight inside each, and where each opened */
	unsigned depth;
	uint64_t weight[DCFG_RUN_DEPTH_MAX + 1];
	unsigned long opened[DCFG_RUN_DEPTH_MAX];
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
};

/* The next line (without '\n') in *LINE, *LEN; 0 at the end; -1 on error. */
static int
next_line(struct dcfg_stream *s, const char **line, size_t *len,
    struct dcfg_error *err)
{
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(s->buf + s->start, '\n', s->end - s->start);
		if (nl != NULL || (s->eof && s->end > s->start)) {
			size_t l = nl ? (size_t)(nl - (s->buf + s->start)) : s->end - s->start;
			*line = s->buf + s->start;
			*len = l;
			s->start += nl ? l + 1 : l;
			s->lineno++;
			return 1;
		}
		if (s->eof)
			return 0;
		if (s->start > 0) {
			memmove(s->buf, s->buf + s->start, s->end - s->start);
			s->end -= s->start;
			s->whole = s->whole > s->start ? s->whole - s->start : 0;
			s->start = 0;
		}
		if (s->end == s->cap) {
			if (s->cap >= MAX_LINE)
				return dcfg_error_at(err, s->name, s->lineno + 1, 1,
				    "a line longer than %d bytes", MAX_LINE);
			if (dcfg_reserve((void **)&s->buf, &s->cap, s->cap * 2, 1) < 0)
				return dcfg_error_set(err, s->name, "out of memory");
		}
		n = dcfg_input_read(s->in, s->buf + s->end, s->cap - s->end, err);
		if (n < 0)
			return -1;
		if (s->progress)
			s->progress(s->progress_ctx, dcfg_input_raw_bytes(s->in));
		if (n == 0)
			s->eof = 1;
		/* only the bytes just read are looked at: dcfg_stream_peek_lines is then O(1) */
		for (size_t k = s->end + (size_t)n; k > s->end; k--)
			if (s->buf[k - 1] == '\n') {
				s->whole = k;
				break;
			}
		s->end += (size_t)n;
	}
}

/* The first line is wrong: a DCFG or a trace given by mistake is named. */
static void
not_a_stream(struct dcfg_stream *s, struct dcfg_error *err)
{
	enum dcfg_kind kind;
	ssize_t n;

	/* The first line of a pretty-printed file is "{": look further. */
	while ((kind = dcfg_kind_sniff(s->buf, s->end, s->eof)) == DCFG_KIND_UNKNOWN &&
	    !s->eof && s->end < s->cap) {
		if ((n = dcfg_input_read(s->in, s->buf + s->end, s->cap - s->end, err)) < 0)
			return;
		s->eof = n == 0;
		s->end += (size_t)n;
	}
	if (kind == DCFG_KIND_DCFG || kind == DCFG_KIND_TRACE)
		dcfg_kind_error(err, s->name, 1, 1, kind, DCFG_KIND_STREAM);
	else
		dcfg_error_at(err, s->name, 1, 1,
		    "not an edge stream: the first line must be \"# dcfg-stream 1\" or \"# dcfg-stream 2\"");
}

/* PATH, or FD when not -1 (then closed by dcfg_stream_close, or here on an error). */
static struct dcfg_stream *
open_stream(const char *path, int fd, const char *name, struct dcfg_error *err)
{
	struct dcfg_stream *s = calloc(1, sizeof *s);
	const char *line;
	size_t len;
	int rc;

	if (s == NULL || (s->buf = malloc(BUF_SIZE)) == NULL) {
		free(s);
		if (fd >= 0)
			close(fd);
		dcfg_error_set(err, path, "out of memory");
		return NULL;
	}
	s->cap = BUF_SIZE;
	s->in = fd >= 0 ? dcfg_input_open_fd(fd, name, err) : dcfg_input_open(path, err);
	if (s->in == NULL) {
		dcfg_stream_close(s);
		return NULL;
	}
	s->name = name ? name : dcfg_input_name(s->in);
	if (s->name == NULL)   /* a descriptor given no name: errors call it standard input */
		s->name = "-";
	rc = next_line(s, &line, &len, err);
	/* A one-line JSON file is a line too long: say what it is instead. */
	if (rc < 0 && !(s->end == s->cap && s->cap >= MAX_LINE))
		goto fail;
	if (rc <= 0 || len != 15 || memcmp(line, "# dcfg-stream ", 14) != 0 ||
	    (line[14] != '1' && line[14] != '2')) {
		not_a_stream(s, err);
		goto fail;
	}
	s->version = line[14] - '0';
	s->weight[0] = 1;
	return s;
fail:
	dcfg_stream_close(s);
	return NULL;
}

struct dcfg_stream *
dcfg_stream_open(const char *path, const char *name, struct dcfg_error *err)
{
	return open_stream(path, -1, name, err);
}

struct dcfg_stream *
dcfg_stream_open_fd(int fd, const char *name, struct dcfg_error *err)
{
	return open_stream(name, fd, name, err);
}

/* Parses a decimal number at *P (advanced); -1 when there is none or it overflows. */
static int
decimal(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;

	if (q == end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*p = q;
	*v = x;
	return 0;
}

static int
is_word(const char *line, size_t len, const char *word, const char **rest)
{
	size_t n = strlen(word);

	if (len < n || memcmp(line, word, n) != 0 || (len > n && line[n] != ' '))
		return 0;
	*rest = line + n;
	return 1;
}

/* "# run COUNT" and "# end run" of a version 2 stream; 0 when the line is neither. */
static int
run_line(struct dcfg_stream *s, struct dcfg_stream_record *r, struct dcfg_error *err)
{
	const char *end = r->line + r->len, *p;

	if (r->len == 9 && memcmp(r->line, "# end run", 9) == 0) {
		if (s->depth == 0)
			return dcfg_error_at(err, s->name, r->lineno, 1,
			    "\"# end run\" without a \"# run\"");
		r->kind = DCFG_STREAM_RUN_END;
		r->value = s->weight[s->depth] / s->weight[s->depth - 1];
		s->depth--;
		r->depth = s->depth;
		r->weight = s->weight[s->depth];
		return 1;
	}
	if (!is_word(r->line, r->len, "# run", &p))
		return 0;
	if (p < end)
		p++;
	if (decimal(&p, end, &r->value) < 0 || p != end || r->value == 0)
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "a \"# run\" line needs a COUNT from 1 to 18446744073709551615");
	if (s->depth == DCFG_RUN_DEPTH_MAX)
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "runs nest more than %d deep", DCFG_RUN_DEPTH_MAX);
	if (s->weight[s->depth] > UINT64_MAX / r->value)
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "this run and the runs around it repeat its lines more than 2^64 times");
	r->kind = DCFG_STREAM_RUN;
	r->depth = s->depth;
	r->weight = s->weight[s->depth];
	s->opened[s->depth] = r->lineno;
	s->weight[s->depth + 1] = s->weight[s->depth] * r->value;
	s->depth++;
	return 1;
}

static int
meta(struct dcfg_stream *s, struct dcfg_stream_record *r, struct dcfg_error *err)
{
	const char *end = r->line + r->len, *p;
	const char *name = s->name;
	int rc;

	r->kind = DCFG_STREAM_META;
	r->depth = s->depth;
	r->weight = s->weight[s->depth];
	if (s->version >= 2 && (rc = run_line(s, r, err)) != 0)
		return rc;
	if (s->depth > 0)
		return dcfg_error_at(err, name, r->lineno, 1,
		    "a run holds only data lines and runs: the run opened at line %lu must end first",
		    s->opened[s->depth - 1]);
	if (is_word(r->line, r->len, "# process", &p) ||
	    is_word(r->line, r->len, "# thread", &p)) {
		int process = r->line[2] == 'p';
		r->kind = process ? DCFG_STREAM_PROCESS : DCFG_STREAM_THREAD;
		if (p < end)
			p++;
		if (decimal(&p, end, &r->value) < 0 || p != end)
			return dcfg_error_at(err, name, r->lineno, 1, "a \"# %s\" line needs a %s",
			    process ? "process" : "thread", process ? "PID" : "TID");
	} else if (is_word(r->line, r->len, "# chunk", &p)) {
		r->kind = DCFG_STREAM_CHUNK;
		uint64_t *v[3] = { &r->preceding, &r->instrs, &r->edges };
		for (int i = 0; i < 3; i++) {
			if (p == end || *p != ' ' || (p++, decimal(&p, end, v[i]) < 0))
				return dcfg_error_at(err, name, r->lineno, 1,
				    "a \"# chunk\" line needs three numbers: preceding instructions, instructions, edges");
		}
		if (p != end)
			return dcfg_error_at(err, name, r->lineno, 1,
			    "a \"# chunk\" line needs three numbers: preceding instructions, instructions, edges");
	} else if (is_word(r->line, r->len, "# fields", &p)) {
		r->kind = DCFG_STREAM_FIELDS;
	}
	return 1;
}

int
dcfg_stream_next(struct dcfg_stream *s, struct dcfg_stream_record *r,
    struct dcfg_error *err)
{
	const char *p, *end;
	uint64_t v = 0;
	int rc;

	if ((rc = next_line(s, &r->line, &r->len, err)) <= 0) {
		if (rc == 0 && s->depth > 0)
			return dcfg_error_at(err, s->name, s->lineno + 1, 1,
			    "the stream ends inside the run opened at line %lu",
			    s->opened[s->depth - 1]);
		return rc;
	}
	r->lineno = s->lineno;
	/*
	 * A period holds only data and run lines, so its lines are the line
	 * numbers since its "# run". The outermost open run's period holds
	 * every inner one: refused at its 65537th line, not at its end, so that
	 * a stage keeping the period never holds more.
	 */
	if (s->depth > 0 && r->lineno - s->opened[0] > DCFG_RUN_PERIOD_MAX &&
	    !(s->depth == 1 && r->len == 9 && memcmp(r->line, "# end run", 9) == 0))
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "the run opened at line %lu holds more than %d lines",
		    s->opened[0], DCFG_RUN_PERIOD_MAX);
	if (r->len > 0 && r->line[0] == '#')
		return meta(s, r, err);
	p = r->line;
	end = p + r->len;
	/* the hot path: digits up to a tab or the end of the line */
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return dcfg_error_at(err, s->name, r->lineno, 1,
			    "edge id does not fit in 32 bits");
	}
	if (p == r->line || (p < end && *p != '\t'))
		return dcfg_error_at(err, s->name, r->lineno,
		    (unsigned long)(p - r->line) + 1, "not an edge id");
	/* DCFG spec 1.2.3: the reserved ids name no edge, in a trace or here */
	if (v == 0 || v > 0x7fffffff)
		return dcfg_error_at(err, s->name, r->lineno, 1,
		    "edge id %llu is reserved: ids are 1 to 2147483647 (0x7fffffff)",
		    (unsigned long long)v);
	r->kind = DCFG_STREAM_EDGE;
	r->edge = (uint32_t)v;
	r->depth = s->depth;
	r->weight = s->weight[s->depth];
	return 1;
}

int
dcfg_stream_peek_lines(struct dcfg_stream *s, const char **p, const char **end)
{
	if (s->depth > 0 || s->whole <= s->start)
		return 0;
	*p = s->buf + s->start;
	*end = s->buf + s->whole;
	return 1;
}

void
dcfg_stream_skip_lines(struct dcfg_stream *s, const char *upto, unsigned long lines)
{
	s->start = (size_t)(upto - s->buf);
	s->lineno += lines;
}

unsigned long
dcfg_stream_lineno(const struct dcfg_stream *s)
{
	return s->lineno;
}

const char *
dcfg_stream_name(const struct dcfg_stream *s)
{
	return s->name;
}

int
dcfg_stream_version(const struct dcfg_stream *s)
{
	return s->version;
}

void
dcfg_stream_set_progress(struct dcfg_stream *s,
    void (*progress)(void *ctx, uint64_t bytes), void *ctx)
{
	s->progress = progress;
	s->progress_ctx = ctx;
	/* a short stream was read whole by dcfg_stream_open */
	if (progress)
		progress(ctx, dcfg_input_raw_bytes(s->in));
}

void
dcfg_stream_close(struct dcfg_stream *s)
{
	if (s == NULL)
		return;
	dcfg_input_close(s->in);
	free(s->buf);
	free(s);
}
