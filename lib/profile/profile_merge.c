/*
 * dcfg-profile --merge: the parts of a plan's shards (profile_part.c) made
 * into the files one run over the whole trace writes. The parts must be
 * of one profile (the same first two lines), one trace and one plan, each
 * shard once and none missing, as dcfg-count --merge requires of tables;
 * then they are replayed in shard order on the slicing of one run: each
 * piece adds its vector, and a piece that starts at a boundary (or at a
 * candidate whose grid interval passes that of the last eligible entry of
 * the shards before it) first ends the open slice.
 */
#include "profile_internal.h"
#include "profile_merge_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/textlines.h"
#include "common/vec.h"

/* ---- pass 2: the lines of the parts, replayed ---- */

/*
 * What the "t" lines so far say each thread (as PR->threads) holds, the
 * sums of its pieces kept in its TOTAL and TOTAL_UNFILTERED: a "p" line
 * deleted or edited shows as a difference, never as a profile silently
 * short of it.
 */
struct said {
	struct said_sums {
		uint64_t filtered, unfiltered;
		uint64_t *marked;   /* per PC: the largest count of a marker since the last "c" line */
	} *v;
	size_t cap;
};

struct reader {
	struct dcfg_pinpoints *pr;
	const char *path;
	unsigned long line;
	char *p;     /* the rest of the line */
	struct said *said;
};

static int
bad(struct reader *r, const char *what)
{
	return dcfg_error_at(r->pr->err, r->path, r->line, 1, "%s", what);
}

/* What the lines so far say of thread T; NULL when out of memory. */
static struct said_sums *
said_of(struct said *said, const struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t)
{
	size_t i, had = said->cap;

	for (i = 0; pr->threads[i] != t; i++)
		;
	if (dcfg_reserve((void **)&said->v, &said->cap, pr->n_threads, sizeof *said->v) < 0)
		return NULL;
	memset(said->v + had, 0, (said->cap - had) * sizeof *said->v);
	if (said->v[i].marked == NULL && (said->v[i].marked = calloc(pr->n_pcs + 1, sizeof (uint64_t))) == NULL)
		return NULL;
	return &said->v[i];
}

/*
 * A marker of B, the COUNT-th execution of its PC: no more than the
 * entries of the PC's blocks that the thread's next "c" line counts.
 */
static int
said_marks(struct reader *r, struct dcfg_pinpoints_thread *t, uint32_t b, uint64_t count)
{
	struct said_sums *s = said_of(r->said, r->pr, t);

	if (s == NULL)
		return dcfg_error_set(r->pr->err, r->path, "out of memory");
	if (!t->started)
		return bad(r, "an entry before the thread's first (its \"f\" line)");
	/* a PC's entries only grow: a marker at or below the one before was moved or edited */
	if (count <= s->marked[r->pr->pc_of[b]])
		return bad(r, "a marker's count at or below an earlier marker's of its PC: a \"p\" line "
		    "was moved or edited");
	s->marked[r->pr->pc_of[b]] = count;
	return 0;
}

/*
 * After a "c" line (which follows the thread's "t" line): the entries
 * counted so far make the instructions the "t" lines say, and the markers
 * since the "c" line before are within them.
 */
static int
said_counted(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	struct said_sums *s = said_of(r->said, r->pr, t);
	uint64_t counted = 0, x;
	size_t b;

	if (s == NULL)
		return dcfg_error_set(r->pr->err, r->path, "out of memory");
	for (b = 0; b < r->pr->n_blocks; b++) {
		uint32_t pc = r->pr->pc_of[b];
#ifdef FUZZ_PLANT_PARTS
		/* an off-by-one planted for the parts fuzz target to find (README, Fuzzing) */
		if (s->marked[pc] > t->pc_counts[pc] + 1)
#else
		if (s->marked[pc] > t->pc_counts[pc])
#endif
			return bad(r, "a marker's count is past the entries of its PC counted here");
		if (__builtin_mul_overflow(t->counts[b], r->pr->blocks[b].ni, &x) ||
		    __builtin_add_overflow(counted, x, &counted))
			return dcfg_pinpoints_overflow(r->pr);
	}
	memset(s->marked, 0, (r->pr->n_pcs + 1) * sizeof *s->marked);
	if (counted != s->unfiltered)
		return bad(r, "the entries counted are not the instructions of the \"t\" lines: "
		    "a line of the part was deleted, edited or moved");
	return 0;
}

/* The next word, or NULL at the end of the line. */
static char *
word(struct reader *r)
{
	char *w = r->p;

	if (*w == '\0')
		return NULL;
	while (*r->p && *r->p != ' ')
		r->p++;
	if (*r->p == ' ')
		*r->p++ = '\0';
	return w;
}

static int
number(struct reader *r, uint64_t *v)
{
	char *w = word(r);

	return w && dcfg_textlines_number(w, strlen(w), v) == 0 ? 0 : bad(r, "a number is missing");
}

/* The next word: "-" (*V NONE), or a node id of a block of the process, as its index. */
static int
block(struct reader *r, uint32_t *b, int none_ok)
{
	char *w = word(r);
	uint64_t node;

	if (w && none_ok && strcmp(w, "-") == 0) {
		*b = DCFG_PINPOINTS_NONE;
		return 0;
	}
	if (w == NULL || dcfg_textlines_number(w, strlen(w), &node) < 0 || node > UINT32_MAX ||
	    (*b = dcfg_idmap_get(&dcfg_process_index(r->pr->d, r->pr->p)->block_by_node,
	    (uint32_t)node)) == DCFG_NONE)
		return bad(r, "not a block of the process");
	return 0;
}

/* ":NODE:N" words to the end of the line, each given to F. */
static int
pairs(struct reader *r, struct dcfg_pinpoints_thread *t,
    int (*f)(struct dcfg_pinpoints *, struct dcfg_pinpoints_thread *, uint32_t, uint64_t))
{
	char *w;

	while ((w = word(r)) != NULL) {
		char *colon = w[0] == ':' ? strchr(w + 1, ':') : NULL;
		uint64_t node, v;
		uint32_t b;
		if (colon == NULL || dcfg_textlines_number(w + 1, (size_t)(colon - w - 1), &node) < 0 ||
		    dcfg_textlines_number(colon + 1, strlen(colon + 1), &v) < 0 || node > UINT32_MAX ||
		    (b = dcfg_idmap_get(&dcfg_process_index(r->pr->d, r->pr->p)->block_by_node,
		    (uint32_t)node)) == DCFG_NONE)
			return bad(r, "not a \":NODE:NUMBER\" of a block of the process");
		if (f(r->pr, t, b, v) < 0)
			return -1;
	}
	return 0;
}

/* A piece's X instructions of B: a nonzero multiple of its NUM_INSTRS, counted in the thread's totals. */
static int
add_piece_instrs(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b, uint64_t x)
{
	if (!t->started)
		return dcfg_error_set(pr->err, pr->name, "thread %llu: instructions before its first entry "
		    "(its \"f\" line)", (unsigned long long)t->tid);
	if (t->dim[b] == 0)
		return dcfg_error_set(pr->err, pr->name, "thread %llu: instructions of block %lu before "
		    "an \"n\" line lists it", (unsigned long long)t->tid, (unsigned long)pr->blocks[b].node);
	if (x == 0 || pr->blocks[b].ni == 0 || x % pr->blocks[b].ni != 0)
		return dcfg_error_set(pr->err, pr->name, "thread %llu: %llu instructions of block %lu, "
		    "not a nonzero multiple of its %llu", (unsigned long long)t->tid, (unsigned long long)x,
		    (unsigned long)pr->blocks[b].node, (unsigned long long)pr->blocks[b].ni);
	if (__builtin_add_overflow(t->total, x, &t->total))
		return dcfg_pinpoints_overflow(pr);
	return dcfg_pinpoints_add_instrs(pr, t, b, x);
}

static int
add_count(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b, uint64_t v)
{
	uint32_t pc = pr->pc_of[b];

	return __builtin_add_overflow(t->counts[b], v, &t->counts[b]) ||
	    __builtin_add_overflow(t->pc_counts[pc], v, &t->pc_counts[pc]) ?
	    dcfg_pinpoints_overflow(pr) : 0;
}

/* "p TID KIND [NODE START COUNT] UNFILTERED :NODE:INSTRS ..." */
static int
piece(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_pinpoints *pr = r->pr;
	char *kind = word(r);
	uint64_t start, count, unf;
	uint32_t b;

	if (kind == NULL || strlen(kind) != 1 || strchr("hcb", kind[0]) == NULL)
		return bad(r, "a piece that is not \"h\", \"c\" or \"b\"");
	if (kind[0] != 'h') {
		uint64_t q;
		if (block(r, &b, 0) < 0 || number(r, &start) < 0 || number(r, &count) < 0)
			return -1;
		if (count == 0)
			return bad(r, "an entry's count of 0");
		if (start < t->pos)
			return bad(r, "an entry before the end of the thread in the shard before: "
			    "shards out of order");
		if (start != t->replay_at)
			return bad(r, "an entry that does not start where the piece before it ends: a "
			    "\"p\" line was moved, deleted or edited");
		if (dcfg_pinpoints_chained(pr->o) && (kind[0] != 'b' || start < t->threshold))
			return bad(r, "under LoopPoint's rule, a piece that is not a boundary at or past "
			    "its threshold: the part was edited, or made from other starts");
		if (dcfg_pinpoints_chained(pr->o) &&
		    __builtin_add_overflow(start, pr->o->slice_size, &t->threshold))
			return dcfg_pinpoints_overflow(pr);
		q = start / pr->o->slice_size;
		if (kind[0] == 'b' || q > t->last_q) {
			if (q > t->last_q)
				t->last_q = q;
			if (__builtin_add_overflow(count, t->pc_counts[pr->pc_of[b]], &count))
				return dcfg_pinpoints_overflow(pr);
			if (said_marks(r, t, b, count) < 0 || dcfg_pinpoints_boundary(pr, t, b, start, count) < 0)
				return -1;
		}
	}
	if (number(r, &unf) < 0)
		return -1;
	if (__builtin_add_overflow(t->unfiltered, unf, &t->unfiltered) ||
	    __builtin_add_overflow(t->total_unfiltered, unf, &t->total_unfiltered) ||
	    __builtin_add_overflow(t->replay_at, unf, &t->replay_at))
		return dcfg_pinpoints_overflow(pr);
	return pairs(r, t, add_piece_instrs);
}

/*
 * "s TID THRESHOLD": under LoopPoint's rule, the threshold the part's
 * thread came in with (--starts) must be the one the shards before leave.
 */
static int
threshold_in(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	uint64_t in;

	if (number(r, &in) < 0)
		return -1;
	if (!dcfg_pinpoints_chained(r->pr->o))
		return bad(r, "an incoming threshold in a part of a grid rule");
	if (in != t->threshold)
		return dcfg_error_at(r->pr->err, r->path, r->line, 1, "thread %llu comes in with the "
		    "threshold %llu, but the shards before leave %llu: parts made from the starts of "
		    "another merge of summaries", (unsigned long long)t->tid, (unsigned long long)in,
		    (unsigned long long)t->threshold);
	return 0;
}

/* "n TID NODE ...": blocks first entered in the shard, numbered unless a shard before listed them */
static int
new_blocks(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	uint32_t b;

	while (*r->p != '\0') {
		if (block(r, &b, 0) < 0)
			return -1;
		dcfg_pinpoints_dim(t, b);
	}
	return 0;
}

/*
 * "f TID NODE START": the thread's first entry, if no shard before had
 * one. A thread whose first edge leaves a block it never entered (the
 * trace of a region) has its first entry past 0: its pieces start there.
 */
static int
first(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	uint64_t start;
	uint32_t b;

	if (block(r, &b, 0) < 0 || number(r, &start) < 0)
		return -1;
	if (!t->started) {
		if (t->replay_at != 0 || t->total_unfiltered != 0)
			return bad(r, "instructions before the thread's first entry: a line of the part was "
			    "moved or edited");
		t->started = 1;
		t->first_block = b;
		t->replay_at = start;
	}
	return 0;
}

/* A "t" line's FILTERED and UNFILTERED: with the earlier parts', the sums of the thread's pieces. */
static int
said_adds(struct reader *r, struct dcfg_pinpoints_thread *t, uint64_t filt, uint64_t unf)
{
	struct said_sums *s = said_of(r->said, r->pr, t);

	if (s == NULL)
		return dcfg_error_set(r->pr->err, r->path, "out of memory");
	if (__builtin_add_overflow(s->filtered, filt, &s->filtered) ||
	    __builtin_add_overflow(s->unfiltered, unf, &s->unfiltered))
		return dcfg_pinpoints_overflow(r->pr);
	if (s->filtered != t->total || s->unfiltered != t->total_unfiltered)
		return bad(r, "the thread's instructions are not those of its \"p\" lines: "
		    "a line of the part was deleted, edited or moved");
	return 0;
}

/* "t TID FIRST LAST POSITION LAST_Q FILTERED UNFILTERED" */
static int
summary(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	uint32_t first, last;
	uint64_t pos, q = 0, filt, unf;
	char *w;

	if (block(r, &first, 1) < 0 || block(r, &last, 1) < 0 || number(r, &pos) < 0)
		return -1;
	if ((w = word(r)) == NULL || (strcmp(w, "-") != 0 && dcfg_textlines_number(w, strlen(w), &q) < 0))
		return bad(r, "a grid interval is missing");
	if (number(r, &filt) < 0 || number(r, &unf) < 0)
		return -1;
	if (dcfg_pinpoints_chained(r->pr->o) && (strcmp(w, "-") == 0 || q != t->threshold))
		return bad(r, "the threshold the thread leaves is not where its last boundary puts it");
	if (first != DCFG_PINPOINTS_NONE && !t->started) {
		t->started = 1;
		t->first_block = first;
	}
	if (last != DCFG_PINPOINTS_NONE)
		t->last_block = last;
	if (pos < t->pos)
		return bad(r, "the thread ends before the end of the shard before: shards out of order");
	/*
	 * A piece counts a block's instructions at its entry, the position
	 * once it is left: the part ends where its pieces do, or inside the
	 * last block entered when no edge of the part leaves it.
	 */
	if (pos != t->replay_at && (last == DCFG_PINPOINTS_NONE ||
	    pos != t->replay_at - r->pr->blocks[last].ni || t->replay_at < r->pr->blocks[last].ni))
		return bad(r, "the thread's final position is not where its last piece ends: the "
		    "\"t\" line or a \"p\" line was edited");
	t->pos = pos;
	if (q > t->last_q)
		t->last_q = q;
	return said_adds(r, t, filt, unf);
}

/* After the last part: each thread's pieces all summed up by "t" lines, and all counted by "c" lines. */
static int
check_said(struct dcfg_pinpoints *pr, const struct said *said, const char *last)
{
	size_t i, b;

	for (i = 0; i < pr->n_threads; i++) {
		const struct dcfg_pinpoints_thread *t = pr->threads[i];
		uint64_t counted = 0, x;
		int uncounted = 0;
		if (i >= said->cap || said->v[i].filtered != t->total ||
		    said->v[i].unfiltered != t->total_unfiltered)
			return dcfg_error_set(pr->err, last, "thread %llu: \"p\" lines without the \"t\" "
			    "line that ends them: a part was cut short or edited", (unsigned long long)t->tid);
		for (b = 0; b < pr->n_blocks; b++) {
			if (__builtin_mul_overflow(t->counts[b], pr->blocks[b].ni, &x) ||
			    __builtin_add_overflow(counted, x, &counted))
				return dcfg_pinpoints_overflow(pr);
			if (said->v[i].marked && said->v[i].marked[b] > 0)
				uncounted = 1;   /* markers after the last "c" line */
			if ((t->counts[b] > 0) != (t->dim[b] > 0))
				uncounted = 1;   /* entered, by the "c" lines, or not, by the "n" lines */
		}
		if (counted != t->total_unfiltered || uncounted || (t->started && t->counts[t->first_block] == 0) ||
		    (t->last_block != DCFG_PINPOINTS_NONE && t->counts[t->last_block] == 0))
			return dcfg_error_set(pr->err, last, "thread %llu: the entries of its \"c\" lines are "
			    "not the instructions of its \"p\" lines: a part was cut short or edited",
			    (unsigned long long)t->tid);
	}
	return 0;
}

static int
replay(struct dcfg_pinpoints *pr, const char *path, struct said *said)
{
	struct reader r = { .pr = pr, .path = path, .said = said };
	struct dcfg_textlines *tl = dcfg_textlines_open(path, pr->err);
	int section = -1;   /* the lines are of the process merged (1), of another (0), of none yet */
	char *line;
	size_t len;
	int rc;

	if (tl == NULL)
		return -1;
	while ((rc = dcfg_textlines_next(tl, &line, &len, pr->err)) == 1) {
		struct dcfg_pinpoints_thread *t;
		uint64_t tid, pid;
		char *kind;
		r.line = dcfg_textlines_lineno(tl);
		r.p = line;
		if (r.line > 2 && dcfg_merge_process_line(line, len, &pid) == 0)   /* read in pass 1 */
			section = pid == pr->p->pid;
		if (line[0] == '#' || r.line <= 2 || section == 0)
			continue;
		if (section < 0) {
			rc = bad(&r, "a line before the part's first \"# process\" line");
			break;
		}
		kind = word(&r);
		if (kind == NULL || strlen(kind) != 1 || strchr("fnptcs", kind[0]) == NULL) {
			rc = bad(&r, "not a line of a part (\"f\", \"n\", \"p\", \"t\", \"c\" or \"s\")");
			break;
		}
		if ((rc = number(&r, &tid)) < 0)
			break;
		if (pr->o->has_tid && tid != pr->o->tid)
			continue;
		if ((t = dcfg_pinpoints_thread_for(pr, tid)) == NULL) {
			rc = dcfg_error_set(pr->err, path, "out of memory");
			break;
		}
		rc = kind[0] == 'p' ? piece(&r, t) : kind[0] == 't' ? summary(&r, t) :
		    kind[0] == 's' ? threshold_in(&r, t) : kind[0] == 'n' ? new_blocks(&r, t) :
		    kind[0] == 'f' ? first(&r, t) : pairs(&r, t, add_count) < 0 ? -1 : said_counted(&r, t);
		if (rc < 0)
			break;
	}
	dcfg_textlines_close(tl);
	return rc < 0 ? -1 : 0;
}

/* Summaries (--summary) merge into starts, parts into profiles: never the two together. */
static int
merge_kinds(const struct dcfg_merge_part *pts, size_t n, const struct dcfg_pinpoints_options *o,
    struct dcfg_error *err)
{
	int summary = dcfg_pinpoints_is_summary(pts[0].head);
	size_t i;

	for (i = 1; i < n; i++)
		if (dcfg_pinpoints_is_summary(pts[i].head) != summary)
			return dcfg_error_at(err, pts[i].path, 1, 1, "a %s, but %s is a %s: merge the "
			    "summaries into starts, then the parts made with them", summary ? "part" :
			    "summary (--summary)", pts[0].path, summary ? "summary (--summary)" : "part");
	if (summary && o->has_tid)
		return dcfg_error_set(err, pts[0].path, "a merge of summaries writes the starts of "
		    "every thread to -o FILE: no --thread");
	if (summary && o->has_pid)
		return dcfg_error_set(err, pts[0].path, "a merge of summaries writes the starts of "
		    "every process the summaries keep: no -p");
	/* a summary that kept another process alone would leave its threads' thresholds unmoved */
	for (i = 1; summary && i < n; i++)
		if (pts[i].keeps_all != pts[0].keeps_all || pts[i].kept != pts[0].kept)
			return dcfg_error_at(err, pts[i].path, 1, 1, "a summary made with another -p than "
			    "%s: make them all with the same -p, or none", pts[0].path);
	return 0;
}

int
dcfg_pinpoints_merge(const struct dcfg *d, const char *const *paths, size_t n,
    const struct dcfg_pinpoints_options *o, struct dcfg_error *err)
{
	struct dcfg_pinpoints_options mo = *o;
	struct dcfg_pinpoints pr = { .d = d, .o = &mo, .name = paths[0], .err = err };
	struct dcfg_merge_part *pts = calloc(n, sizeof *pts);
	struct dcfg_merge_part **by_shard = calloc(n, sizeof *by_shard);
	struct said said = { NULL, 0 };
	const struct dcfg_process *p;
	uint64_t pid = 0;
	size_t i;
	int rc = -1;

	if (pts == NULL || by_shard == NULL) {
		dcfg_error_set(err, paths[0], "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {
		pts[i].path = paths[i];
		if (dcfg_merge_part_scan(&pts[i], err) < 0)
			goto done;
	}
	if (merge_kinds(pts, n, o, err) < 0 || dcfg_merge_parts_check(d, pts, n, by_shard, err) < 0 ||
	    dcfg_merge_part_head(&pts[0], &mo, err) < 0)
		goto done;
	if (dcfg_pinpoints_is_summary(pts[0].head)) {
		rc = dcfg_pinpoints_merge_summaries(&pr, by_shard, n, o->base) < 0 ? -1 : 0;
		goto done;
	}
	if (dcfg_merge_parts_process(pts, n, o->has_pid, o->pid, &pid, err) < 0)
		goto done;
	mo.part = 0;
	mo.n_exclude = mo.n_loop_images = 0;
	if ((p = dcfg_find_process(d, pid)) == NULL) {
		dcfg_error_at(err, paths[0], 1, 1, "process %llu is not in the DCFG", (unsigned long long)pid);
		goto done;
	}
	pr.c_line = pts[0].c_line;
	if (dcfg_pinpoints_setup_process(&pr, p) < 0)
		goto done;
	for (i = 0; i < n; i++) {
		pr.name = by_shard[i]->path;
		if (replay(&pr, by_shard[i]->path, &said) < 0)
			goto done;
	}
	if (check_said(&pr, &said, by_shard[n - 1]->path) < 0)
		goto done;
	if (o->has_tid && pr.n_threads == 0) {
		dcfg_error_set(err, paths[0], "thread %llu of process %llu is not in the parts",
		    (unsigned long long)o->tid, (unsigned long long)pid);
		goto done;
	}
	rc = dcfg_pinpoints_finish_threads(&pr, err);
done:
	dcfg_merge_parts_free(pts, n);
	free(by_shard);
	for (i = 0; i < said.cap; i++)
		free(said.v[i].marked);
	free(said.v);
	dcfg_pinpoints_free(&pr);
	return rc;
}
