/*
 * What the routes target (fuzz-routes.c) reads back: files in memory, and
 * a digest of an edge stream that does not depend on how it is written
 * (runs or every edge, chunk markers or not). Kept apart from the checks
 * so that each side stays short.
 */
#ifndef FUZZ_ROUTES_H
#define FUZZ_ROUTES_H

#include <inttypes.h>
#include <string.h>

#include <dcfg/trace.h>

#include "fuzz.h"

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


/*
 * The pull route of an instruction window (fuzz-routes.c, pullwin): the
 * trace through dcfg_trace_pull_* with -p and -t as PIDS and TIDS, each
 * chunk through dcfg_chunk_window_* exact with the DCFG D, BATCH edges at
 * a time, digested as digest_stream digests the stream dcfg-expand writes
 * (edges, sum and order; rows are not kept). Work is bounded before it is
 * done: a chunk the window reads may decode all its EDGE_COUNT edges, or
 * of a huge one it cuts, those edges_to finds; once they pass BUDGET the
 * reading stops, CAPPED. REFUSED with ERR set as dcfg-expand sets it.
 */
struct pull_window {
	const struct dcfg *d;
	const uint64_t *pids, *tids;
	size_t n_pids, n_tids;
	uint64_t from, to, budget;
	size_t batch;
};

/*
 * The edges a window to PW->to reads of a huge chunk C it cuts: those up to
 * the first at or past the end (or one not in the DCFG, where the window
 * fails), found by decoding no more than BUDGET; -1 past it. C is then
 * rewound, for the window to read it from its start.
 */
static ssize_t
edges_to(struct dcfg_chunk *c, const struct pull_window *pw, uint64_t budget)
{
	static uint32_t ids[4096];
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	const struct dcfg_process *p = dcfg_find_process(pw->d, ci->pid);
	uint64_t icount = ci->preceding_instr_count, instrs, read = 0;
	ssize_t n, i;

	while ((n = dcfg_chunk_next(c, ids, sizeof ids / sizeof ids[0])) > 0) {
		for (i = 0; i < n; i++) {
			if (++read > budget)
				break;
			if (icount >= pw->to || dcfg_edge_instrs(pw->d, p, &ids[i], 1, &instrs) == 0 ||
			    __builtin_add_overflow(icount, instrs, &icount)) {
				dcfg_chunk_rewind(c);
				return (ssize_t)read;
			}
		}
		if (read > budget)
			break;
	}
	dcfg_chunk_rewind(c);
	return read > budget ? -1 : (ssize_t)read;
}

static int
pull_chunk(struct dcfg_chunk_window *w, struct dcfg_chunk *c, const struct pull_window *pw,
    uint64_t *budget, struct digest *got)
{
	static uint32_t ids[4096];
	size_t batch = pw->batch;
	const struct dcfg_chunk_info *ci = dcfg_chunk_info(c);
	int place = dcfg_chunk_window_start(w, c);
	ssize_t n = 0, i;

	if (place < 0)
		return DCFG_TRACE_ERROR;
	if (place == DCFG_WINDOW_SKIP)
		return DCFG_TRACE_OK;
	if (ci->edge_count > *budget && (place == DCFG_WINDOW_WHOLE ||
	    (n = edges_to(c, pw, *budget)) < 0)) {
		*budget = UINT64_MAX;   /* capped */
		return DCFG_TRACE_STOP;
	}
	*budget -= ci->edge_count > *budget ? (uint64_t)n : ci->edge_count;
	if (batch > sizeof ids / sizeof ids[0])
		batch = sizeof ids / sizeof ids[0];
	while ((n = dcfg_chunk_window_next(w, ids, batch)) > 0)
		for (i = 0; i < n; i++) {
			uint64_t h = mix(ci->pid, ci->tid, ids[i]);
			got->edges++;
			got->sum += h;
			got->ordered = (got->ordered ^ h) * UINT64_C(0x100000001b3);
		}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

static int
pull_window_digest(const char *trace, const struct pull_window *pw, struct digest *got,
    struct dcfg_error *err)
{
	/* (an empty list given selects nothing; NULL, as dcfg-expand's none, every id) */
	struct dcfg_trace_pull *r = dcfg_trace_pull_open(trace, pw->n_pids ? pw->pids : NULL,
	    pw->n_pids, pw->n_tids ? pw->tids : NULL, pw->n_tids);
	struct dcfg_chunk_window *w = NULL;
	struct dcfg_trace_event ev;
	const struct dcfg_process *p;
	uint64_t budget = pw->budget;
	int rc, answer;

	memset(got, 0, sizeof *got);
	if (r == NULL)
		abort();
	while ((rc = dcfg_trace_pull_next(r, &ev, -1, err)) == DCFG_TRACE_PULL_EVENT) {
		answer = DCFG_TRACE_OK;
		if (ev.kind == DCFG_EVENT_PROCESS) {
			dcfg_chunk_window_free(w);
			w = NULL;
			if ((p = dcfg_find_process(pw->d, ev.pid)) == NULL)
				answer = dcfg_trace_fail(ev.trace, "process %llu is not in the DCFG",
				    (unsigned long long)ev.pid);
			else if ((w = dcfg_chunk_window_new(pw->d, p, pw->from, pw->to)) == NULL)
				abort();
		} else if (ev.kind == DCFG_EVENT_CHUNK) {
			answer = pull_chunk(w, ev.chunk, pw, &budget, got);
		}
		dcfg_trace_pull_answer(r, answer);
	}
	dcfg_trace_pull_close(r, -1);
	dcfg_chunk_window_free(w);
	return budget == UINT64_MAX ? CAPPED : rc < 0 ? REFUSED : DONE;
}

#endif
