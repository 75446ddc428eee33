/* dcfg-count --merge of basic-block vectors: each thread's pieces placed by their instructions. */
#include "count_merge_bbv.h"

#include <stdlib.h>
#include <string.h>

#include "count_merge_check.h"
#include "common/textlines.h"
#include "common/vec.h"
#include "stream/writer.h"

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
		if (dcfg_textlines_number(s + i, n, &node) < 0 || (!first && node <= last))
			return 0;
		i += n + 1;
		if (i > len)
			return 0;
		n = strcspn(s + i, " ");
		if (dcfg_textlines_number(s + i, n, &count) < 0)
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
	struct merge_process *p = &m->procs[m->proc];
	struct merge_thread *t;
	size_t i;

	for (i = 0; i < p->n_threads && p->threads[i].tid != tid; i++)
		;
	if (i == p->n_threads) {
		if (dcfg_reserve((void **)&p->threads, &p->cap_threads, i + 1, sizeof *p->threads) < 0)
			return dcfg_merge_oom(m);
		p->threads[p->n_threads++] = (struct merge_thread){ tid, NULL, 0, 0 };
	}
	t = &p->threads[i];
	if (dcfg_reserve((void **)&m->pieces, &m->cap_pieces, m->n_pieces + 1, sizeof *m->pieces) < 0 ||
	    dcfg_reserve((void **)&t->pieces, &t->cap_pieces, t->n_pieces + 1, sizeof *t->pieces) < 0)
		return dcfg_merge_oom(m);
	m->pieces[m->n_pieces] = (struct merge_piece){ m->file, m->line, 0, 0, 0, m->n_vectors, 0 };
	t->pieces[t->n_pieces++] = m->n_pieces;
	m->piece = m->n_pieces++;
	m->next_k = 0;
	m->closed = 0;
	return 0;
}

int
dcfg_merge_bbv_line(struct merge *m, char *line, size_t len)
{
	struct merge_piece *pc = m->piece == MERGE_NONE ? NULL : &m->pieces[m->piece];
	uint64_t a, b;
	size_t i;
	char *sp;

	if (strncmp(line, "# thread ", 9) == 0) {
		if (dcfg_textlines_number(line + 9, len - 9, &a) < 0)
			return dcfg_merge_fail(m, "a \"# thread\" line without a thread id");
		if (dcfg_merge_check_selected(m, m->procs[m->proc].pid, 1, a) < 0)
			return -1;
		return open_piece(m, a);
	}
	if (pc == NULL || m->closed)
		return dcfg_merge_fail(m, pc ? "a line after the thread's \"# instructions\" line" :
		    "a line of vectors before any \"# thread\" line");
	if (strncmp(line, "# interval ", 11) == 0) {
		if (pc->n > 0 || dcfg_textlines_number(line + 11, len - 11, &m->next_k) < 0)
			return dcfg_merge_fail(m, "a \"# interval\" line that is not a number before the first vector");
		return 0;
	}
	if (strncmp(line, "# skip ", 7) == 0) {
		if (dcfg_textlines_number(line + 7, len - 7, &a) < 0 || a == 0 ||
		    __builtin_add_overflow(m->next_k, a, &m->next_k))
			return dcfg_merge_fail(m, "a \"# skip\" line that is not a number of intervals");
		return 0;
	}
	if (strncmp(line, "# instructions ", 15) == 0) {
		line += 15;
		if ((sp = strchr(line, ' ')) == NULL || dcfg_textlines_number(line, (size_t)(sp - line), &a) < 0 ||
		    dcfg_textlines_number(sp + 1, strlen(sp + 1), &b) < 0 || b < a)
			return dcfg_merge_fail(m, "an \"# instructions\" line that is not FROM TO");
		pc->anchored = 1;
		pc->from = a;
		pc->to = b;
		m->closed = 1;
		/* every block of the section starts in [FROM, TO]: so does every interval */
		for (i = pc->first; i < pc->first + pc->n; i++)
			if (m->vectors[i].k < a / m->h.interval || m->vectors[i].k > b / m->h.interval)
				return dcfg_merge_fail(m, "the section's vectors lie outside the instructions its "
				    "\"# instructions\" line says it covers");
		return 0;
	}
	if (!vector_ok(line, len))
		return dcfg_merge_fail(m, "not a vector (T:NODE:COUNT :NODE:COUNT ...) nor a line of dcfg-count --bbv");
	if (dcfg_reserve((void **)&m->vectors, &m->cap_vectors, m->n_vectors + 1,
	    sizeof *m->vectors) < 0 || (a = dcfg_merge_keep(m, line + 1, len - 1)) == MERGE_NONE)
		return dcfg_merge_oom(m);
	m->vectors[m->n_vectors++] = (struct merge_vector){ m->next_k, a, len - 1 };
	pc->n++;
	if (m->next_k == UINT64_MAX)
		return dcfg_merge_fail(m, "more intervals than fit in 64 bits");
	m->next_k++;
	return 0;
}

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
write_sum(struct merge *m, const struct merge_vector *const *v, size_t n, struct dcfg_output *out)
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
				return dcfg_merge_oom(m);
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

int
dcfg_merge_write_thread(struct merge *m, const struct merge_process *p, struct merge_thread *t,
    struct dcfg_output *out)
{
	const struct merge_vector **v = NULL;
	size_t n = 0, i, j;
	uint64_t expected = 0;
	int anchored, rc = 0;

	if (dcfg_merge_check_pieces(m, p, t) < 0)
		return -1;
	anchored = t->n_pieces > 0 && m->pieces[t->pieces[0]].anchored;
	dcfg_stream_write_thread(out, t->tid);
	/* the thread's vectors in order; only pieces side by side can share an interval */
	for (i = 0, n = 0; i < t->n_pieces; i++)
		n += m->pieces[t->pieces[i]].n;
	if (n > 0 && (v = malloc(n * sizeof *v)) == NULL)
		return dcfg_merge_oom(m);
	for (i = 0, n = 0; i < t->n_pieces; i++) {
		const struct merge_piece *pc = &m->pieces[t->pieces[i]];
		for (j = 0; j < pc->n; j++)
			v[n++] = &m->vectors[pc->first + j];
	}
	for (i = 0; i < n && rc == 0; i = j) {
		for (j = i + 1; j < n && v[j]->k == v[i]->k; j++)
			;
		if (i == 0 && anchored) {
			dcfg_out_str(out, "# interval ");
			dcfg_out_u64(out, v[i]->k);
			dcfg_out_char(out, '\n');
		} else if (v[i]->k > expected) {
			dcfg_out_str(out, "# skip ");
			dcfg_out_u64(out, v[i]->k - expected);
			dcfg_out_char(out, '\n');
		}
		if (j - i == 1) {
			dcfg_out_char(out, 'T');
			dcfg_out_bytes(out, m->pool + v[i]->text, v[i]->len);
			dcfg_out_char(out, '\n');
		} else {
			rc = write_sum(m, v + i, j - i, out);
		}
		expected = v[i]->k + 1;
	}
	free(v);
	if (rc == 0 && anchored) {
		dcfg_out_str(out, "# instructions ");
		dcfg_out_u64(out, m->pieces[t->pieces[0]].from);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, m->pieces[t->pieces[t->n_pieces - 1]].to);
		dcfg_out_char(out, '\n');
	}
	return rc;
}
