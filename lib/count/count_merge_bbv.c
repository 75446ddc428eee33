/* dcfg-count --merge of basic-block vectors: each thread's pieces placed by their instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_merge_internal.h"
#include "common/textlines.h"
#include "count_table.h"
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

static int
by_from(const void *a, const void *b, void *ctx)
{
	const struct merge_piece *pcs = ctx, *x = &pcs[*(const size_t *)a], *y = &pcs[*(const size_t *)b];

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (x->file > y->file) - (x->file < y->file);
}

/* An insertion sort: a thread has a piece per shard, few, and qsort takes no context. */
static void
sort_pieces(size_t *idx, size_t n, struct merge_piece *pcs)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && by_from(&idx[j - 1], &idx[j], pcs) > 0; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
}

int
dcfg_merge_write_thread(struct merge *m, const struct merge_process *p, struct merge_thread *t, struct dcfg_output *out)
{
	const struct merge_vector **v = NULL;
	size_t n = 0, blank = 0, i, j;
	uint64_t expected = 0;
	int anchored, rc = 0;
	char why[600];

	/*
	 * A section with no vector and no "# instructions" line is what
	 * dcfg-count --bbv writes for a shard whose window held no edge and no
	 * chunk marker of the thread (dcfg-expand --plan --align makes one
	 * where a chunk's INSTR_COUNT is more than its edges' instructions): it
	 * adds nothing to any interval, so it is dropped here, and the thread
	 * is what its other pieces say. It is not given an "# instructions"
	 * line by dcfg-count instead: there is no position it could name
	 * without moving the merged line's TO past where one run's last edge
	 * leaves it, so merged would differ from one run. Dropping it is safe
	 * beside placed pieces only: expanded without --chunks, a blank piece
	 * may hold edges that start no block but move the position, which a
	 * placed piece does not depend on and an unplaced one does. So a piece
	 * with vectors and no "# instructions" line is still refused beside
	 * any other piece, blank or not.
	 */
	if (t->n_pieces > 1) {
		for (i = 0, n = 0; i < t->n_pieces; i++) {
			const struct merge_piece *pc = &m->pieces[t->pieces[i]];
			if (pc->anchored || pc->n > 0)
				t->pieces[n++] = t->pieces[i];
		}
		blank = t->n_pieces - n;
		t->n_pieces = n;
	}
	for (i = 0; i < t->n_pieces; i++)
		if ((t->n_pieces > 1 || blank > 0) && !m->pieces[t->pieces[i]].anchored) {
			const struct merge_piece *pc = &m->pieces[t->pieces[i]];
			m->file = pc->file;
			m->line = pc->line;
			snprintf(why, sizeof why, "thread %llu of process %llu is in several files, and "
			    "here its vectors are not placed on the trace's instruction counts "
			    "(no \"# instructions\" line): expand the shards with dcfg-expand --chunks",
			    (unsigned long long)t->tid, (unsigned long long)p->pid);
			return dcfg_merge_fail(m, why);
		}
	sort_pieces(t->pieces, t->n_pieces, m->pieces);
	for (i = 1; i < t->n_pieces; i++) {
		const struct merge_piece *a = &m->pieces[t->pieces[i - 1]], *b = &m->pieces[t->pieces[i]];
		if (a->to > b->from) {
			m->file = b->file;
			m->line = b->line;
			snprintf(why, sizeof why, "thread %llu of process %llu: instructions %llu to %llu "
			    "here overlap %llu to %llu in %s: shards that overlap would count twice",
			    (unsigned long long)t->tid, (unsigned long long)p->pid,
			    (unsigned long long)b->from, (unsigned long long)b->to,
			    (unsigned long long)a->from, (unsigned long long)a->to, m->paths[a->file]);
			return dcfg_merge_fail(m, why);
		}
	}
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
