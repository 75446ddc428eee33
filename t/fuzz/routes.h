/*
 * What the routes target (fuzz-routes.c) reads back: files in memory, and
 * a digest of an edge stream that does not depend on how it is written
 * (runs or every edge, chunk markers or not); and how a route runs: into
 * a capped pipe, with its verdict. Kept apart from the checks so that
 * each side stays short (routes-window.h holds the pullwin route).
 */
#ifndef FUZZ_ROUTES_H
#define FUZZ_ROUTES_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <dcfg/trace.h>

#include "fuzz.h"
#include "common/output.h"
#include "expand/expand.h"

enum { REFUSED = -1, DONE = 0, CAPPED = 1 };   /* what became of a route */

/* An anonymous memory file, named /proc/self/fd/N, and its text once read. */
struct mem {
	int fd;
	char path[40];
	char *buf;      /* the text, NUL-terminated */
	size_t len, cap;
};

static void
mem_reset(struct mem *m)
{
	if (m->path[0] == '\0')
		m->fd = fuzz_memfd(m->path, sizeof m->path);
	/* and rewound: a route may write through this very descriptor (-o /proc/self/fd/N) */
	if (ftruncate(m->fd, 0) < 0 || lseek(m->fd, 0, SEEK_SET) < 0)
		abort();
	m->len = 0;
}

/* Appends N bytes to the file (and not to BUF: mem_load reads it back). */
static void
mem_write(struct mem *m, const char *p, size_t n)
{
	off_t at = lseek(m->fd, 0, SEEK_END);
	size_t done = 0;
	ssize_t w;

	while (done < n) {
		if ((w = pwrite(m->fd, p + done, n - done, at + (off_t)done)) <= 0)
			abort();
		done += (size_t)w;
	}
}

/* Reads the whole file into BUF. */
static void
mem_load(struct mem *m)
{
	ssize_t n;

	m->len = 0;
	for (;;) {
		if (m->cap - m->len < 65536 + 1) {
			m->cap = m->cap ? 2 * m->cap : 1 << 17;
			if ((m->buf = realloc(m->buf, m->cap)) == NULL)
				abort();
		}
		if ((n = pread(m->fd, m->buf + m->len, m->cap - m->len - 1, (off_t)m->len)) < 0)
			abort();
		if (n == 0)
			break;
		m->len += (size_t)n;
	}
	m->buf[m->len] = '\0';
}

/* A decimal number at *P (advanced past it); 0 when there is none. */
static uint64_t
parse_u64(const char **p)
{
	uint64_t v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + (uint64_t)(*(*p)++ - '0');
	return v;
}

#define ROWS_MAX 64

/* A thread of a stream or of --count: its edges (weighted) and instructions. */
struct row {
	uint64_t pid, tid, edges, instrs;
	int instrs_wrap;     /* the chunks' INSTR_COUNT add up past 2^64 - 1 */
};

/*
 * A stream as a set of edges: per thread, the edges (each weighted by the
 * runs around it) and the INSTR_COUNT of its chunk markers; over all, the
 * sum of a hash of each (process, thread, edge), which no order of the
 * lines and no way of writing repeats changes, and a hash of the lines in
 * order (meaningful only for streams without runs).
 */
struct digest {
	struct row rows[ROWS_MAX];
	size_t n_rows;
	int many;            /* more threads than ROWS_MAX: rows not compared */
	int wrap;            /* a weight past 2^64 - 1: nothing compared */
	int chunk_wrap;      /* a chunk's PRECEDING + INSTRS past 2^64 - 1 */
	uint64_t edges, sum, ordered;
};

static uint64_t
mix(uint64_t pid, uint64_t tid, uint64_t id)
{
	uint64_t h = pid * UINT64_C(0x9e3779b97f4a7c15) ^ tid * UINT64_C(0xc2b2ae3d27d4eb4f) ^ id;

	h ^= h >> 31;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	return h ^ (h >> 29);
}

static void
digest_stream(const char *s, struct digest *d)
{
	uint64_t w[DCFG_RUN_DEPTH_MAX + 2] = { 1 }, pid = 0, tid = 0, v;
	unsigned depth = 0;
	struct row *r = NULL;

	memset(d, 0, sizeof *d);
	for (; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s)) {
		if (strncmp(s, "# process ", 10) == 0) {
			s += 10;
			pid = parse_u64(&s);
			r = NULL;
		} else if (strncmp(s, "# thread ", 9) == 0) {
			s += 9;
			tid = parse_u64(&s);
			if (d->n_rows == ROWS_MAX)
				d->many = 1;
			r = d->many ? NULL : &d->rows[d->n_rows++];
			if (r)
				*r = (struct row){ .pid = pid, .tid = tid };
		} else if (strncmp(s, "# chunk ", 8) == 0) {
			uint64_t end;
			s += 8;
			v = parse_u64(&s);
			s++;
			d->chunk_wrap |= __builtin_add_overflow(v, parse_u64(&s), &end);
			v = end - v;   /* the chunk's INSTRS */
			if (r && __builtin_add_overflow(r->instrs, v, &r->instrs))
				r->instrs_wrap = 1;
		} else if (strncmp(s, "# run ", 6) == 0) {
			s += 6;
			v = parse_u64(&s);
			if (depth == DCFG_RUN_DEPTH_MAX || __builtin_mul_overflow(w[depth], v, &w[depth + 1]))
				d->wrap = 1;
			else
				depth++;
		} else if (strncmp(s, "# end run", 9) == 0) {
			depth -= depth > 0;
		} else if (*s >= '0' && *s <= '9') {
			uint64_t h = mix(pid, tid, parse_u64(&s));
			if (__builtin_add_overflow(d->edges, w[depth], &d->edges) ||
			    (r && __builtin_add_overflow(r->edges, w[depth], &r->edges)))
				d->wrap = 1;
			d->sum += w[depth] * h;
			d->ordered = (d->ordered ^ h) * UINT64_C(0x100000001b3);
		}
	}
}

/* The rows of dcfg-expand --count ("# pid tid edges instructions" and a line a thread). */
static void
digest_totals(const char *s, struct digest *d)
{
	memset(d, 0, sizeof *d);
	for (; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s)) {
		struct row *r;
		if (*s == '#')
			continue;
		if (d->n_rows == ROWS_MAX) {
			d->many = 1;
			return;
		}
		r = &d->rows[d->n_rows++];
		r->pid = parse_u64(&s);
		s++;
		r->tid = parse_u64(&s);
		s++;
		r->edges = parse_u64(&s);
		s++;
		r->instrs = parse_u64(&s);
	}
}

/* The next line of a table at *P that says what it counts, not where it came from. */
static const char *
table_line(const char **p, size_t *len)
{
	const char *s = *p;

	while (*s && (strncmp(s, "# selection ", 12) == 0 || strncmp(s, "# trace ", 8) == 0))
		s += strcspn(s, "\n") + (s[strcspn(s, "\n")] == '\n');
	*len = strcspn(s, "\n");
	*p = s + *len + (s[*len] == '\n');
	return s;
}

/*
 * Two count tables alike, but for their first line (which may name its
 * source: count_merge.h) and the lines that record a shard's selection
 * and trace (dcfg-stream(5), Provenance): a merge of shards records the
 * whole plan, a plain run nothing.
 */
static int
same_table(const struct mem *a, const struct mem *b)
{
	const char *x = a->buf, *y = b->buf, *lx, *ly;
	size_t nx, ny;

	if (strncmp(x, "# dcfg-count", 12) == 0 && strncmp(y, "# dcfg-count", 12) == 0) {
		x = strchr(x, '\n') ? strchr(x, '\n') + 1 : x + strlen(x);
		y = strchr(y, '\n') ? strchr(y, '\n') + 1 : y + strlen(y);
	}
	do {
		lx = table_line(&x, &nx);
		ly = table_line(&y, &ny);
		if (nx != ny || memcmp(lx, ly, nx) != 0)
			return 0;
	} while (*lx && *ly);
	return *lx == *ly;
}

/*
 * Instructions per source line ("FILE:LINE") or file, "-" for code on no
 * line (dcfg-count names it after its image, Callgrind cannot): what the
 * line routes are compared by. Too many keys, or one too long: not compared.
 */
#define LINE_KEYS_MAX 2048
#define LINE_KEY_BYTES 512

struct line_sums {
	struct line_sum {
		char key[LINE_KEY_BYTES];
		uint64_t instrs;
	} k[LINE_KEYS_MAX];
	size_t n;
	int overflow;
};

static void
line_add(struct line_sums *s, const char *key, size_t len, uint64_t instrs)
{
	size_t i;

	if (len >= LINE_KEY_BYTES) {
		s->overflow = 1;
		return;
	}
	for (i = 0; i < s->n; i++)
		if (strlen(s->k[i].key) == len && memcmp(s->k[i].key, key, len) == 0)
			break;
	if (i == s->n) {
		if (s->n == LINE_KEYS_MAX) {
			s->overflow = 1;
			return;
		}
		memcpy(s->k[i].key, key, len);
		s->k[i].key[len] = '\0';
		s->k[s->n++].instrs = 0;
	}
	s->k[i].instrs += instrs;   /* both routes wrap alike past 2^64 - 1 */
}

/* A dcfg-count table by line or file: KEY, executions, instructions per row. */
static void
line_sums_of_table(const char *t, struct line_sums *s)
{
	size_t len;

	for (s->n = 0, s->overflow = 0; *t; t += *t == '\n') {
		len = strcspn(t, "\t\n");
		if (*t != '#' && t[len] == '\t') {
			const char *v = t + len + 1;
			parse_u64(&v);
			v += *v == '\t';
			if (len >= 2 && t[len - 2] == ':' && t[len - 1] == '-')
				line_add(s, "-", 1, parse_u64(&v));
			else
				line_add(s, t, len, parse_u64(&v));
		}
		t += strcspn(t, "\n");
	}
}

/* "(N) NAME", "(N)" or "NAME" after a Callgrind "fl=": the name, from NAMES. */
static const char *
callgrind_name(const char *v, char names[][LINE_KEY_BYTES], size_t n_names)
{
	const char *p = v + 1;
	uint64_t id;
	size_t len;

	if (*v != '(')
		return NULL;
	id = parse_u64(&p);
	if (*p++ != ')' || id >= n_names)
		return NULL;
	if (*p == ' ') {
		len = strcspn(++p, "\n");
		if (len >= LINE_KEY_BYTES)
			return NULL;
		memcpy(names[id], p, len);
		names[id][len] = '\0';
	}
	return names[id];
}

/*
 * A Callgrind profile read as callgrind_annotate reads it: "fl=", "fi=",
 * "fe=" set the file of the cost lines after them ("fn=" goes back to
 * "fl="'s), "cfi=" and "cfl=" only name files, the cost line after
 * "calls=" is a call's inclusive cost; positions "instr line", 0 no line.
 */
static void
line_sums_of_callgrind(const char *t, int by_line, struct line_sums *s)
{
	static char names[256][LINE_KEY_BYTES];
	const char *fl = "", *file = "", *p;
	char key[LINE_KEY_BYTES + 24];
	uint64_t line, cost;
	int call = 0, n;

	memset(names, 0, sizeof names);
	for (s->n = 0, s->overflow = 0; *t; t += *t == '\n') {
		if (strncmp(t, "fl=", 3) == 0 || strncmp(t, "fi=", 3) == 0 ||
		    strncmp(t, "fe=", 3) == 0 || strncmp(t, "cfi=", 4) == 0 ||
		    strncmp(t, "cfl=", 4) == 0) {
			int cfile = *t == 'c';
			const char *name = callgrind_name(t + 3 + cfile, names, 256);
			if (name == NULL)
				s->overflow = 1;
			else if (!cfile && t[1] == 'l')
				fl = file = name;
			else if (!cfile)
				file = name;
		} else if (strncmp(t, "fn=", 3) == 0) {
			file = fl;
		} else if (strncmp(t, "calls=", 6) == 0) {
			call = 2;
		} else if (strncmp(t, "0x", 2) == 0 && !call) {
			p = t + 2 + strspn(t + 2, "0123456789abcdef");
			if (*p++ == ' ' && (line = parse_u64(&p), *p++ == ' ') &&
			    (cost = parse_u64(&p), *p == '\n' || *p == '\0')) {
				n = line == 0 ? snprintf(key, sizeof key, "-") : by_line ?
				    snprintf(key, sizeof key, "%s:%" PRIu64, file, line) :
				    snprintf(key, sizeof key, "%s", file);
				line_add(s, key, (size_t)n, cost);
			}
		}
		call -= call > 0;
		t += strcspn(t, "\n");
	}
}

static int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct line_sum *)a)->key, ((const struct line_sum *)b)->key);
}

/* The same instructions on every key (keys of none left out); 1 when not compared. */
static int
same_line_sums(struct line_sums *a, struct line_sums *b)
{
	size_t i, j;

	if (a->overflow || b->overflow)
		return 1;
	qsort(a->k, a->n, sizeof *a->k, by_key);
	qsort(b->k, b->n, sizeof *b->k, by_key);
	for (i = j = 0; i < a->n || j < b->n;) {
		if (i < a->n && a->k[i].instrs == 0) {
			i++;
		} else if (j < b->n && b->k[j].instrs == 0) {
			j++;
		} else if (i == a->n || j == b->n || strcmp(a->k[i].key, b->k[j].key) != 0 ||
		    a->k[i].instrs != b->k[j].instrs) {
			return 0;
		} else {
			i++;
			j++;
		}
	}
	return 1;
}

/* ---- running a route: its stream into a capped pipe, its verdict ---- */

#define CAP_BYTES (256 * 1024)   /* a route's stream: some 40,000 edges */

static void
disagree(const char *what, const char *kind)
{
	fprintf(stderr, "fuzz-routes: routes disagree: %s%s%s\n", what, kind ? ", by " : "",
	    kind ? kind : "");
	abort();
}

/* With FUZZ_ROUTES_SHOW set, what each check saw, a line each (for t/fuzz.bats). */
static void
note(const char *what, int rc)
{
	static int show = -1;

	if (show < 0)
		show = getenv("FUZZ_ROUTES_SHOW") != NULL;
	if (show)
		printf("%s %s\n", what, rc == DONE ? "done" : rc == CAPPED ? "capped" : "refused");
}

/* The pipe a route's stream goes to: nonblocking, so a full one is a failed write. */
static void
capped_pipe(int *rd, int *wr)
{
	static int fds[2] = { -1, -1 };

	if (fds[0] < 0) {
		if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) < 0 || fcntl(fds[1], F_SETPIPE_SZ, CAP_BYTES) < 0)
			abort();
	}
	*rd = fds[0];
	*wr = fds[1];
}

/* dcfg-expand TRACE with O, into M; CAPPED when the stream outgrew the pipe. ERROR: its error, or NULL. */
static int
expand_to(struct mem *m, const char *trace, const struct dcfg_expand_options *o,
    struct dcfg_error *error)
{
	static struct dcfg_output out;
	static char buf[65536];
	struct dcfg_error err = { 0 }, closing;
	int rd, wr, rc, full;
	ssize_t n;

	capped_pipe(&rd, &wr);
	/* opened as a command opens its output, then pointed at the pipe */
	if (dcfg_output_open(&out, "/dev/null", &err) < 0 || dup2(wr, out.fd) < 0)
		abort();
	rc = dcfg_expand(trace, o, &out, &err);
	dcfg_output_close(&out, &closing);
	full = out.error != 0;
	if (out.error != 0 && out.error != EAGAIN)
		abort();
	mem_reset(m);
	while ((n = read(rd, buf, sizeof buf)) > 0)
		mem_write(m, buf, (size_t)n);
	mem_load(m);
	if (error != NULL)
		*error = err;
	return full ? CAPPED : rc < 0 ? REFUSED : DONE;
}

#endif
