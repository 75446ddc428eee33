#include "count_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_table.h"
#include "textlines.h"
#include "vec.h"

#define NONE SIZE_MAX

/* What the first line of a table says (count_table.h). */
struct header {
	int bbv;
	enum dcfg_count_by by;
	uint64_t interval, top;
	uint32_t crc32;
	uint64_t bytes;
	int from_dcfg;
};

/* A row as read: its key, the columns that are not counts, and the counts. */
struct row {
	size_t name;               /* in the pool, or NONE: the key is a number */
	uint64_t key;
	size_t extra;              /* the columns between the key and the counts, or NONE */
	const char *name_p, *extra_p;   /* the same, once the pool has stopped moving */
	uint32_t file;
	unsigned long line;
	uint64_t exec, iter, instr;
};

/* A vector as read: interval K, and its text after the "T". */
struct vector {
	uint64_t k;
	size_t text, len;
};

/* The vectors of one "# thread" section of one file. */
struct piece {
	uint32_t file;
	unsigned long line;
	int anchored;              /* "# instructions FROM TO" seen: placed on the trace's counts */
	uint64_t from, to;
	size_t first, n;           /* its vectors */
};

struct thread {
	uint64_t tid;
	size_t *pieces; size_t n_pieces, cap_pieces;
};

struct process {
	uint64_t pid;
	struct row *rows; size_t n_rows, cap_rows;
	struct thread *threads; size_t n_threads, cap_threads;
};

struct merge {
	const struct dcfg_count_merge_options *o;
	char *const *paths;
	struct dcfg_error *err;
	struct header h;
	char *pool; size_t n_pool, cap_pool;
	struct process *procs; size_t n_procs, cap_procs;
	struct piece *pieces; size_t n_pieces, cap_pieces;
	struct vector *vectors; size_t n_vectors, cap_vectors;
	/* reading: the file and line, and where its lines go */
	uint32_t file;
	unsigned long line;
	size_t proc;               /* NONE before the first "# process" */
	int columns;               /* a table's column line comes next */
	size_t piece;              /* the open thread section, or NONE */
	uint64_t next_k;           /* the interval of its next vector */
	int closed;                /* its "# instructions" line is read */
};

static int
fail(struct merge *m, const char *why)
{
	return dcfg_error_at(m->err, m->paths[m->file], m->line, 1, "%s", why);
}

static int
oom(struct merge *m)
{
	return dcfg_error_set(m->err, m->paths[m->file], "out of memory");
}

/* A decimal number as dcfg-count writes it: digits, no leading zero, below 2^64. */
static int
number(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	if (len == 0 || len > 20 || (s[0] == '0' && len > 1))
		return -1;
	for (*v = 0, i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9' || __builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, (uint64_t)(s[i] - '0'), v))
			return -1;
	return 0;
}

static size_t
keep_string(struct merge *m, const char *s, size_t len)
{
	size_t at = m->n_pool;

	if (dcfg_reserve((void **)&m->pool, &m->cap_pool, m->n_pool + len + 1, 1) < 0)
		return NONE;
	memcpy(m->pool + at, s, len);
	m->pool[at + len] = '\0';
	m->n_pool += len + 1;
	return at;
}

/* ---- the header ---- */

static int
read_header(struct merge *m, char *line, struct header *h)
{
	static const char lead[] = "# dcfg-count ";
	char *tok, *save = NULL;
	uint64_t crc;
	int kind = 0;

	memset(h, 0, sizeof *h);
	if (strncmp(line, lead, sizeof lead - 1) != 0)
		return fail(m, "not a table of dcfg-count: its first line is not \"# dcfg-count 1 ...\"");
	tok = strtok_r(line + sizeof lead - 1, " ", &save);
	if (tok == NULL || strcmp(tok, "1") != 0)
		return fail(m, "a table of another version of dcfg-count: this one reads version 1");
	while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
		char *eq = strchr(tok, '='), *colon;
		if (eq == NULL)
			return fail(m, "the \"# dcfg-count\" line has a word that is not NAME=VALUE");
		*eq++ = '\0';
		if (strcmp(tok, "by") == 0 && !kind) {
			if (dcfg_count_by_parse(eq, &h->by) < 0)
				return fail(m, "the \"# dcfg-count\" line names an unknown kind");
			kind = 1;
		} else if (strcmp(tok, "bbv") == 0 && !kind) {
			if (number(eq, strlen(eq), &h->interval) < 0 || h->interval == 0)
				return fail(m, "the \"# dcfg-count\" line has a bad interval");
			h->bbv = kind = 1;
		} else if (strcmp(tok, "dcfg") == 0 && (colon = strchr(eq, ':')) != NULL &&
		    colon - eq == 8 && strspn(eq, "0123456789abcdef") == 8 &&
		    number(colon + 1, strlen(colon + 1), &h->bytes) == 0) {
			crc = strtoull(eq, NULL, 16);
			h->crc32 = (uint32_t)crc;
		} else if (strcmp(tok, "top") == 0 && number(eq, strlen(eq), &h->top) == 0) {
			;
		} else if (strcmp(tok, "from") == 0 && strcmp(eq, "dcfg") == 0) {
			h->from_dcfg = 1;
		} else {
			return fail(m, "the \"# dcfg-count\" line has a word this dcfg-count does not know");
		}
	}
	if (!kind)
		return fail(m, "the \"# dcfg-count\" line says neither by= nor bbv=");
	return 0;
}

static int
check_header(struct merge *m, const struct header *h)
{
	char why[512];
	const char *first = m->paths[0];

	if (h->top)
		return fail(m, "a table cut by --top: rows are missing, so it cannot be merged "
		    "(give --top to --merge instead)");
	if (h->from_dcfg)
		return fail(m, "a table of the DCFG's own counts (--from-dcfg), not of a shard of a trace");
	if (m->o->check_dcfg && (h->crc32 != m->o->crc32 || h->bytes != m->o->bytes))
		return fail(m, "made with another DCFG than --dcfg's");
	if (m->file == 0) {
		m->h = *h;
		return 0;
	}
	if (h->bbv != m->h.bbv) {
		snprintf(why, sizeof why, "%s, not %s as in %s", h->bbv ? "vectors" : "a table",
		    m->h.bbv ? "vectors" : "a table", first);
		return fail(m, why);
	}
	if (h->bbv && h->interval != m->h.interval) {
		snprintf(why, sizeof why, "vectors of interval %llu, not %llu as in %s",
		    (unsigned long long)h->interval, (unsigned long long)m->h.interval, first);
		return fail(m, why);
	}
	if (!h->bbv && h->by != m->h.by) {
		snprintf(why, sizeof why, "a table by %s, not by %s as in %s",
		    dcfg_count_by_name(h->by), dcfg_count_by_name(m->h.by), first);
		return fail(m, why);
	}
	if (h->crc32 != m->h.crc32 || h->bytes != m->h.bytes) {
		snprintf(why, sizeof why, "made with another DCFG than %s", first);
		return fail(m, why);
	}
	return 0;
}

/* ---- tables ---- */

static int
columns_of(enum dcfg_count_by by)
{
	return by == DCFG_BY_LOOP ? 11 : by == DCFG_BY_ROUTINE ? 5 : 4;
}

static int
share_ok(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && s[n] == '.' && strspn(s + n + 1, "0123456789") == 2 && s[n + 3] == '\0';
}

static int
read_row(struct merge *m, char *line)
{
	enum dcfg_count_by by = m->h.by;
	char *col[11];
	int n = columns_of(by), i;
	struct process *p = &m->procs[m->proc];
	struct row r = { NONE, 0, NONE, NULL, NULL, m->file, m->line, 0, 0, 0 };
	size_t klen;

	for (i = 0; i < n; i++) {
		col[i] = line;
		line = strchr(line, '\t');
		if ((line == NULL) != (i == n - 1))
			return fail(m, "a row with another number of columns than the table's");
		if (line)
			*line++ = '\0';
	}
	klen = strlen(col[0]);
	switch (by) {
	case DCFG_BY_EDGE: case DCFG_BY_BLOCK: case DCFG_BY_ROUTINE: case DCFG_BY_LOOP:
	case DCFG_BY_THREAD:
		if (number(col[0], klen, &r.key) < 0)
			return fail(m, "a row whose key is not a number");
		break;
	case DCFG_BY_LINE: {
		char *c = strrchr(col[0], ':');
		if (c == NULL)
			return fail(m, "a row whose line is not FILE:LINE or IMAGE:-");
		if (strcmp(c + 1, "-") == 0)
			r.key = DCFG_COUNT_NO_LINE;
		else if (number(c + 1, strlen(c + 1), &r.key) < 0)
			return fail(m, "a row whose line number is not a number");
		klen = (size_t)(c - col[0]);
		break;
	}
	case DCFG_BY_FILE:
		if (klen >= 2 && strcmp(col[0] + klen - 2, ":-") == 0) {
			r.key = DCFG_COUNT_NO_LINE;
			klen -= 2;
		}
		break;
	default:
		break;
	}
	if (by == DCFG_BY_IMAGE || by == DCFG_BY_TYPE || by == DCFG_BY_LINE || by == DCFG_BY_FILE) {
		if ((r.name = keep_string(m, col[0], klen)) == NONE)
			return oom(m);
	}
	/* the counts are the last columns; a routine's name, a loop's routine .. static before them */
	int exec = n - 3 - (by == DCFG_BY_LOOP);
	if (exec > 1) {
		for (i = 1; i < exec - 1; i++)
			col[i][strlen(col[i])] = '\t';
		if ((r.extra = keep_string(m, col[1], strlen(col[1]))) == NONE)
			return oom(m);
	}
	if (number(col[exec], strlen(col[exec]), &r.exec) < 0 ||
	    (by == DCFG_BY_LOOP && number(col[n - 3], strlen(col[n - 3]), &r.iter) < 0) ||
	    number(col[n - 2], strlen(col[n - 2]), &r.instr) < 0 || !share_ok(col[n - 1]))
		return fail(m, "a row whose counts are not numbers as dcfg-count writes them");
	if (dcfg_reserve((void **)&p->rows, &p->cap_rows, p->n_rows + 1, sizeof *p->rows) < 0)
		return oom(m);
	p->rows[p->n_rows++] = r;
	return 0;
}

/* ---- vectors ---- */

/* "T:NODE:COUNT :NODE:COUNT ...", nodes ascending: the syntax count_bbv.c writes. */
static int
vector_ok(const char *s, size_t len)
{
	uint64_t node, count, last = 0;
	size_t i = 1, n;
	int first = 1;

	if (len < 2 || s[0] != 'T')
		return 0;
	while (i < len) {
		if (!first && s[i++] != ' ')
			return 0;
		if (i >= len || s[i++] != ':')
			return 0;
		n = strcspn(s + i, ":");
		if (number(s + i, n, &node) < 0 || (!first && node <= last))
			return 0;
		i += n + 1;
		if (i > len)
			return 0;
		n = strcspn(s + i, " ");
		if (number(s + i, n, &count) < 0)
			return 0;
		i += n;
		last = node;
		first = 0;
	}
	return 1;
}

static int
open_piece(struct merge *m, uint64_t tid)
{
	struct process *p = &m->procs[m->proc];
	struct thread *t;
	size_t i;

	for (i = 0; i < p->n_threads && p->threads[i].tid != tid; i++)
		;
	if (i == p->n_threads) {
		if (dcfg_reserve((void **)&p->threads, &p->cap_threads, i + 1, sizeof *p->threads) < 0)
			return oom(m);
		p->threads[p->n_threads++] = (struct thread){ tid, NULL, 0, 0 };
	}
	t = &p->threads[i];
	if (dcfg_reserve((void **)&m->pieces, &m->cap_pieces, m->n_pieces + 1, sizeof *m->pieces) < 0 ||
	    dcfg_reserve((void **)&t->pieces, &t->cap_pieces, t->n_pieces + 1, sizeof *t->pieces) < 0)
		return oom(m);
	m->pieces[m->n_pieces] = (struct piece){ m->file, m->line, 0, 0, 0, m->n_vectors, 0 };
	t->pieces[t->n_pieces++] = m->n_pieces;
	m->piece = m->n_pieces++;
	m->next_k = 0;
	m->closed = 0;
	return 0;
}

static int
read_bbv_line(struct merge *m, char *line, size_t len)
{
	struct piece *pc = m->piece == NONE ? NULL : &m->pieces[m->piece];
	uint64_t a, b;
	size_t i;
	char *sp;

	if (strncmp(line, "# thread ", 9) == 0) {
		if (number(line + 9, len - 9, &a) < 0)
			return fail(m, "a \"# thread\" line without a thread id");
		return open_piece(m, a);
	}
	if (pc == NULL || m->closed)
		return fail(m, pc ? "a line after the thread's \"# instructions\" line" :
		    "a line of vectors before any \"# thread\" line");
	if (strncmp(line, "# interval ", 11) == 0) {
		if (pc->n > 0 || number(line + 11, len - 11, &m->next_k) < 0)
			return fail(m, "a \"# interval\" line that is not a number before the first vector");
		return 0;
	}
	if (strncmp(line, "# skip ", 7) == 0) {
		if (number(line + 7, len - 7, &a) < 0 || a == 0 ||
		    __builtin_add_overflow(m->next_k, a, &m->next_k))
			return fail(m, "a \"# skip\" line that is not a number of intervals");
		return 0;
	}
	if (strncmp(line, "# instructions ", 15) == 0) {
		line += 15;
		if ((sp = strchr(line, ' ')) == NULL || number(line, (size_t)(sp - line), &a) < 0 ||
		    number(sp + 1, strlen(sp + 1), &b) < 0 || b < a)
			return fail(m, "an \"# instructions\" line that is not FROM TO");
		pc->anchored = 1;
		pc->from = a;
		pc->to = b;
		m->closed = 1;
		/* every block of the section starts in [FROM, TO]: so does every interval */
		for (i = pc->first; i < pc->first + pc->n; i++)
			if (m->vectors[i].k < a / m->h.interval || m->vectors[i].k > b / m->h.interval)
				return fail(m, "the section's vectors lie outside the instructions its "
				    "\"# instructions\" line says it covers");
		return 0;
	}
	if (!vector_ok(line, len))
		return fail(m, "not a vector (T:NODE:COUNT :NODE:COUNT ...) nor a line of dcfg-count --bbv");
	if (dcfg_reserve((void **)&m->vectors, &m->cap_vectors, m->n_vectors + 1,
	    sizeof *m->vectors) < 0 || (a = keep_string(m, line + 1, len - 1)) == NONE)
		return oom(m);
	m->vectors[m->n_vectors++] = (struct vector){ m->next_k, a, len - 1 };
	pc->n++;
	if (m->next_k == UINT64_MAX)
		return fail(m, "more intervals than fit in 64 bits");
	m->next_k++;
	return 0;
}

/* ---- reading ---- */

static int
read_file(struct merge *m)
{
	struct dcfg_textlines *t = dcfg_textlines_open(m->paths[m->file], m->err);
	struct header h;
	char *line;
	size_t len, i;
	uint64_t pid;
	int rc = 0;

	if (t == NULL)
		return -1;
	m->proc = m->piece = NONE;
	m->columns = 0;
	m->line = 1;
	if ((rc = dcfg_textlines_next(t, &line, &len, m->err)) <= 0) {
		if (rc == 0)
			rc = fail(m, "an empty file, not a table of dcfg-count");
	} else if ((rc = read_header(m, line, &h)) == 0) {
		rc = check_header(m, &h);
	}
	while (rc == 0 && (rc = dcfg_textlines_next(t, &line, &len, m->err)) > 0) {
		rc = 0;
		m->line = dcfg_textlines_lineno(t);
		if (strncmp(line, "# process ", 10) == 0) {
			if (m->columns || number(line + 10, len - 10, &pid) < 0) {
				rc = fail(m, m->columns ? "a \"# process\" line where the columns are named" :
				    "a \"# process\" line without a process id");
				break;
			}
			for (i = 0; i < m->n_procs && m->procs[i].pid != pid; i++)
				;
			if (i == m->n_procs) {
				if (dcfg_reserve((void **)&m->procs, &m->cap_procs, i + 1, sizeof *m->procs) < 0) {
					rc = oom(m);
					break;
				}
				m->procs[m->n_procs++] = (struct process){ .pid = pid };
			}
			m->proc = i;
			m->columns = !m->h.bbv;
			m->piece = NONE;
		} else if (m->proc == NONE) {
			rc = fail(m, "a line before the first \"# process\" line");
		} else if (m->h.bbv) {
			rc = read_bbv_line(m, line, len);
		} else if (m->columns) {
			const char *want = dcfg_count_columns(m->h.by);
			if (strncmp(line, want, len) != 0 || want[len] != '\n')
				rc = fail(m, "not the columns of the table's kind after \"# process\"");
			m->columns = 0;
		} else if (line[0] == '#') {
			rc = fail(m, "a '#' line inside a table");
		} else {
			rc = read_row(m, line);
		}
	}
	if (rc == 0 && m->columns)
		rc = fail(m, "the file ends before the table's columns are named");
	dcfg_textlines_close(t);
	return rc < 0 ? -1 : 0;
}

/* ---- writing tables ---- */

struct out_row {
	struct dcfg_count_row r;   /* first: sorted by dcfg_count_row_cmp */
	const char *extra;
};

/* Rows of one key together, and in each key the files in order. */
static int
by_key(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = x->name_p && y->name_p ? strcmp(x->name_p, y->name_p) : 0;

	if (c)
		return c;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int
same_key(const struct row *x, const struct row *y)
{
	return x->key == y->key && (x->name_p == NULL) == (y->name_p == NULL) &&
	    (x->name_p == NULL || strcmp(x->name_p, y->name_p) == 0);
}

static int
same_text(const char *x, const char *y)
{
	return x == NULL ? y == NULL : y != NULL && strcmp(x, y) == 0;
}

static int
write_table(struct merge *m, struct process *p, struct dcfg_output *out)
{
	struct out_row *rows = NULL;
	size_t i, j, n = 0;
	uint64_t total = 0;
	int of = 0;
	char why[600];

	for (i = 0; i < p->n_rows; i++) {
		p->rows[i].name_p = p->rows[i].name == NONE ? NULL : m->pool + p->rows[i].name;
		p->rows[i].extra_p = p->rows[i].extra == NONE ? NULL : m->pool + p->rows[i].extra;
	}
	if (p->n_rows > 1)
		qsort(p->rows, p->n_rows, sizeof *p->rows, by_key);
	if (p->n_rows && (rows = malloc(p->n_rows * sizeof *rows)) == NULL)
		return oom(m);
	for (i = 0; i < p->n_rows; i = j) {
		const struct row *r = &p->rows[i];
		struct out_row o = { { r->key, r->name_p, NULL, r->exec, r->iter, r->instr },
			r->extra_p };
		for (j = i + 1; j < p->n_rows && same_key(r, &p->rows[j]); j++) {
			const struct row *s = &p->rows[j];
			m->file = s->file;
			m->line = s->line;
			if (s->file == p->rows[j - 1].file) {
				snprintf(why, sizeof why, "a second row of the same key in process %llu "
				    "(the first at line %lu): rows that read alike cannot be merged",
				    (unsigned long long)p->pid, p->rows[j - 1].line);
				free(rows);
				return fail(m, why);
			}
			if (!same_text(r->extra_p, s->extra_p)) {
				snprintf(why, sizeof why, "a row whose columns other than counts differ "
				    "from those of the same key in %s line %lu", m->paths[r->file], r->line);
				free(rows);
				return fail(m, why);
			}
			o.r.exec = dcfg_count_add(&of, o.r.exec, s->exec);
			o.r.iter = dcfg_count_add(&of, o.r.iter, s->iter);
			o.r.instr = dcfg_count_add(&of, o.r.instr, s->instr);
		}
		total = dcfg_count_add(&of, total, o.r.instr);
		rows[n++] = o;
	}
	if (of) {
		free(rows);
		return dcfg_error_set(m->err, m->paths[0], "process %llu: a count does not fit in 64 bits",
		    (unsigned long long)p->pid);
	}
	if (n > 1)
		qsort(rows, n, sizeof *rows, dcfg_count_row_cmp);
	if (m->o->top && n > m->o->top)
		n = (size_t)m->o->top;
	dcfg_out_str(out, "# process ");
	dcfg_out_u64(out, p->pid);
	dcfg_out_char(out, '\n');
	dcfg_out_str(out, dcfg_count_columns(m->h.by));
	for (i = 0; i < n; i++) {
		dcfg_count_out_key(out, m->h.by, &rows[i].r);
		dcfg_out_char(out, '\t');
		if (rows[i].extra != NULL) {
			dcfg_out_str(out, rows[i].extra);
			dcfg_out_char(out, '\t');
		}
		dcfg_out_u64(out, rows[i].r.exec);
		dcfg_out_char(out, '\t');
		if (m->h.by == DCFG_BY_LOOP) {
			dcfg_out_u64(out, rows[i].r.iter);
			dcfg_out_char(out, '\t');
		}
		dcfg_out_u64(out, rows[i].r.instr);
		dcfg_out_char(out, '\t');
		dcfg_count_out_share(out, rows[i].r.instr, total);
		dcfg_out_char(out, '\n');
	}
	free(rows);
	return 0;
}

/* ---- writing vectors ---- */

struct entry {
	uint64_t node, count;
};

static int
by_node(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

/*
 * The vectors V[0..N) of one interval, from pieces that a cut split it
 * between: their counts added node by node.
 */
static int
write_sum(struct merge *m, const struct vector *const *v, size_t n, struct dcfg_output *out)
{
	struct entry *e = NULL;
	size_t ne = 0, cap = 0, i, j;
	int of = 0;

	for (i = 0; i < n; i++) {
		const char *s = m->pool + v[i]->text;
		while (*s == ':' || *s == ' ') {
			char *end;
			if (dcfg_reserve((void **)&e, &cap, ne + 1, sizeof *e) < 0) {
				free(e);
				return oom(m);
			}
			s += *s == ' ' ? 2 : 1;          /* " :" or the first ":" */
			e[ne].node = strtoull(s, &end, 10);
			e[ne].count = strtoull(end + 1, &end, 10);
			s = end;
			ne++;
		}
	}
	qsort(e, ne, sizeof *e, by_node);
	for (i = 0; i < ne; i = j) {
		uint64_t c = e[i].count;
		for (j = i + 1; j < ne && e[j].node == e[i].node; j++)
			c = dcfg_count_add(&of, c, e[j].count);
		dcfg_out_str(out, i ? " :" : "T:");
		dcfg_out_u64(out, e[i].node);
		dcfg_out_char(out, ':');
		dcfg_out_u64(out, c);
	}
	dcfg_out_char(out, '\n');
	free(e);
	return of ? dcfg_error_set(m->err, m->paths[0], "a count of a vector does not fit in 64 bits") : 0;
}

static int
by_from(const void *a, const void *b, void *ctx)
{
	const struct piece *pcs = ctx, *x = &pcs[*(const size_t *)a], *y = &pcs[*(const size_t *)b];

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (x->file > y->file) - (x->file < y->file);
}

/* An insertion sort: a thread has a piece per shard, few, and qsort takes no context. */
static void
sort_pieces(size_t *idx, size_t n, struct piece *pcs)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && by_from(&idx[j - 1], &idx[j], pcs) > 0; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
}

static int
write_thread(struct merge *m, const struct process *p, struct thread *t, struct dcfg_output *out)
{
	const struct vector **same = NULL;
	size_t n_same = 0, cap_same = 0, i, k;
	uint64_t expected = 0;
	int anchored, first = 1, rc = 0;
	char why[600];

	for (i = 0; i < t->n_pieces; i++)
		if (t->n_pieces > 1 && !m->pieces[t->pieces[i]].anchored) {
			const struct piece *pc = &m->pieces[t->pieces[i]];
			m->file = pc->file;
			m->line = pc->line;
			snprintf(why, sizeof why, "thread %llu of process %llu is in several files, and "
			    "here its vectors are not placed on the trace's instruction counts "
			    "(no \"# instructions\" line): expand the shards with dcfg-expand --chunks",
			    (unsigned long long)t->tid, (unsigned long long)p->pid);
			return fail(m, why);
		}
	sort_pieces(t->pieces, t->n_pieces, m->pieces);
	for (i = 1; i < t->n_pieces; i++) {
		const struct piece *a = &m->pieces[t->pieces[i - 1]], *b = &m->pieces[t->pieces[i]];
		if (a->to > b->from) {
			m->file = b->file;
			m->line = b->line;
			snprintf(why, sizeof why, "thread %llu of process %llu: instructions %llu to %llu "
			    "here overlap %llu to %llu in %s: shards that overlap would count twice",
			    (unsigned long long)t->tid, (unsigned long long)p->pid,
			    (unsigned long long)b->from, (unsigned long long)b->to,
			    (unsigned long long)a->from, (unsigned long long)a->to, m->paths[a->file]);
			return fail(m, why);
		}
	}
	anchored = t->n_pieces > 0 && m->pieces[t->pieces[0]].anchored;
	dcfg_out_str(out, "# thread ");
	dcfg_out_u64(out, t->tid);
	dcfg_out_char(out, '\n');
	for (i = 0; i <= t->n_pieces && rc == 0; i++) {
		const struct piece *pc = i < t->n_pieces ? &m->pieces[t->pieces[i]] : NULL;
		for (k = 0; k <= (pc ? pc->n : 0) && rc == 0; k++) {
			const struct vector *v = pc && k < pc->n ? &m->vectors[pc->first + k] : NULL;
			/* a vector waits for the pieces after it that hold the same interval */
			if (n_same > 0 && (v == NULL ? pc == NULL : v->k != same[0]->k)) {
				if (first && anchored) {
					dcfg_out_str(out, "# interval ");
					dcfg_out_u64(out, same[0]->k);
					dcfg_out_char(out, '\n');
				} else if (same[0]->k > expected) {
					dcfg_out_str(out, "# skip ");
					dcfg_out_u64(out, same[0]->k - expected);
					dcfg_out_char(out, '\n');
				}
				if (n_same == 1) {
					dcfg_out_char(out, 'T');
					dcfg_out_bytes(out, m->pool + same[0]->text, same[0]->len);
					dcfg_out_char(out, '\n');
				} else {
					rc = write_sum(m, same, n_same, out);
				}
				expected = same[0]->k + 1;
				first = 0;
				n_same = 0;
			}
			if (v != NULL) {
				if (dcfg_reserve((void **)&same, &cap_same, n_same + 1, sizeof *same) < 0)
					rc = oom(m);
				else
					same[n_same++] = v;
			}
		}
	}
	free(same);
	if (rc == 0 && anchored) {
		dcfg_out_str(out, "# instructions ");
		dcfg_out_u64(out, m->pieces[t->pieces[0]].from);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, m->pieces[t->pieces[t->n_pieces - 1]].to);
		dcfg_out_char(out, '\n');
	}
	return rc;
}

/* ---- the whole merge ---- */

static void
free_merge(struct merge *m)
{
	size_t i, j;

	for (i = 0; i < m->n_procs; i++) {
		free(m->procs[i].rows);
		for (j = 0; j < m->procs[i].n_threads; j++)
			free(m->procs[i].threads[j].pieces);
		free(m->procs[i].threads);
	}
	free(m->procs);
	free(m->pieces);
	free(m->vectors);
	free(m->pool);
}

int
dcfg_count_merge(char *const *paths, size_t n, const struct dcfg_count_merge_options *o,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct merge m = { .o = o, .paths = paths, .err = err };
	struct dcfg_count_options co = { 0 };
	size_t i, j;
	int rc = 0;

	for (m.file = 0; m.file < n && rc == 0; m.file++)
		rc = read_file(&m);
	/* Everything is checked before anything is written, but the sums and the overlaps. */
	if (rc == 0) {
		co.by = m.h.by;
		co.bbv = m.h.bbv ? m.h.interval : 0;
		co.top = o->top;
		dcfg_count_out_header(out, m.h.crc32, m.h.bytes, &co, 0);
	}
	for (i = 0; i < m.n_procs && rc == 0; i++) {
		struct process *p = &m.procs[i];
		if (!m.h.bbv) {
			rc = write_table(&m, p, out);
			continue;
		}
		dcfg_out_str(out, "# process ");
		dcfg_out_u64(out, p->pid);
		dcfg_out_char(out, '\n');
		for (j = 0; j < p->n_threads && rc == 0; j++)
			rc = write_thread(&m, p, &p->threads[j], out);
	}
	free_merge(&m);
	if (rc < 0)
		return -1;
	return dcfg_output_failed(out) ? 1 : 0;
}
