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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/textlines.h"
#include "common/vec.h"

struct part {
	const char *path;
	char *head, *c_line;
	struct dcfg_recorded_selection sel;
	int has_sel, traced;
	unsigned long sel_line;
	uint32_t crc;
	uint64_t bytes;
};

static char *
copy(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);

	return c ? memcpy(c, s, n) : NULL;
}

/* Pass 1: the part's first two lines, selection and trace. */
static int
scan(struct part *pt, struct dcfg_error *err)
{
	static const char magic[] = "# dcfg-profile-part 1 ";
	struct dcfg_textlines *tl = dcfg_textlines_open(pt->path, err);
	const char *why;
	char *line;
	size_t len;
	int rc;

	if (tl == NULL)
		return -1;
	while ((rc = dcfg_textlines_next(tl, &line, &len, err)) == 1) {
		unsigned long no = dcfg_textlines_lineno(tl);
		if (no == 1 && strncmp(line, magic, sizeof magic - 1) != 0)
			rc = dcfg_error_at(err, pt->path, 1, 1, "not a part of dcfg-profile --part: its "
			    "first line is not \"# dcfg-profile-part 1 ...\"");
		else if (no == 1)
			rc = (pt->head = copy(line)) ? 0 : dcfg_error_set(err, pt->path, "out of memory");
		else if (no == 2 && strncmp(line, "C: ", 3) != 0)
			rc = dcfg_error_at(err, pt->path, 2, 1, "not a part of dcfg-profile --part: no \"C:\" line");
		else if (no == 2)
			rc = (pt->c_line = copy(line)) ? 0 : dcfg_error_set(err, pt->path, "out of memory");
		else if (pt->traced)
			rc = dcfg_error_at(err, pt->path, no, 1, "a line after the \"# trace\" line");
		else if (dcfg_is_selection_line(line, len)) {
			if (pt->has_sel)
				rc = dcfg_error_at(err, pt->path, no, 1, "a second \"# selection\" line");
			else if (dcfg_recorded_selection_parse(line, len, &pt->sel, &why) < 0)
				rc = dcfg_error_at(err, pt->path, no, 1, "%s", why);
			pt->has_sel = 1;
			pt->sel_line = no;
		} else if (dcfg_is_trace_line(line, len)) {
			if (dcfg_trace_id_parse(line, len, &pt->crc, &pt->bytes) < 0)
				rc = dcfg_error_at(err, pt->path, no, 1, "a \"# trace\" line that is not "
				    "\"# trace CRC:BYTES\"");
			pt->traced = 1;
		}
		if (rc < 0)
			break;
	}
	dcfg_textlines_close(tl);
	if (rc == 0 && pt->head == NULL)
		rc = dcfg_error_at(err, pt->path, 1, 1, "not a part of dcfg-profile --part: it is empty");
	else if (rc == 0 && (!pt->has_sel || pt->sel.shards == 0))
		rc = dcfg_error_set(err, pt->path, "a part that records no shard of a plan: --merge "
		    "takes the parts of the shards of dcfg-expand --plan");
	else if (rc == 0 && !pt->traced)
		rc = dcfg_error_set(err, pt->path, "a part without its \"# trace\" line: it, or the "
		    "stream it read, was cut short");
	return rc < 0 ? -1 : 0;
}

/* The shards, all there and disjoint, cut each thread without a gap. */
static int
tiles(const struct part *pts, size_t n, struct dcfg_error *err)
{
	const struct dcfg_recorded_selection **s = malloc(n * sizeof *s);
	char why[512];
	size_t i, at;
	int rc;

	if (s == NULL)
		return dcfg_error_set(err, pts[0].path, "out of memory");
	for (i = 0; i < n; i++)
		s[i] = &pts[i].sel;
	rc = dcfg_recorded_selections_tile(s, n, &at, why, sizeof why);
	free(s);
	return rc < 0 ? dcfg_error_at(err, pts[at].path, pts[at].sel_line, 1, "%s", why) : 0;
}

/* One profile, one DCFG, one trace, one plan; each shard once, none missing, none overlapping. */
static int
check(const struct dcfg *d, struct part *pts, size_t n, struct part **by_shard,
    struct dcfg_error *err)
{
	const struct part *a = &pts[0];
	char dcfg_id[64], this[384], that[384];
	size_t i, j;
	uint64_t k;

	snprintf(dcfg_id, sizeof dcfg_id, " dcfg=%08x:%llu ", (unsigned)d->crc32,
	    (unsigned long long)d->bytes);
	if (strstr(a->head, dcfg_id) == NULL)
		return dcfg_error_at(err, a->path, 1, 1, "a part of another DCFG than the one given");
	for (i = 0; i < n; i++) {
		const struct part *b = &pts[i];
		if (strcmp(b->head, a->head) != 0 || strcmp(b->c_line, a->c_line) != 0)
			return dcfg_error_at(err, b->path, 1, 1, "a part of another profile than %s "
			    "(their first two lines differ)", a->path);
		if (b->crc != a->crc || b->bytes != a->bytes)
			return dcfg_error_set(err, b->path, "a part of another trace (%08x:%llu) than %s "
			    "(%08x:%llu)", (unsigned)b->crc, (unsigned long long)b->bytes, a->path,
			    (unsigned)a->crc, (unsigned long long)a->bytes);
		if (!dcfg_recorded_selection_same_plan(&b->sel, &a->sel)) {
			dcfg_recorded_selection_plan_name(&b->sel, this, sizeof this);
			dcfg_recorded_selection_plan_name(&a->sel, that, sizeof that);
			return dcfg_error_at(err, b->path, b->sel_line, 1, "%s, but %s is %s: shards of "
			    "two plans (one left from an earlier plan?)", this, a->path, that);
		}
		k = b->sel.shard;
		if (k == 0 || k > a->sel.shards || k > n)
			continue;   /* missing ones are named below */
		if (by_shard[k - 1])
			return dcfg_error_at(err, b->path, b->sel_line, 1, "shard %llu of %llu again: %s "
			    "is that shard too", (unsigned long long)k, (unsigned long long)b->sel.shards,
			    by_shard[k - 1]->path);
		by_shard[k - 1] = &pts[i];
		for (j = 0; j < i; j++)
			if (dcfg_recorded_selection_overlap(&pts[j].sel, &b->sel))
				return dcfg_error_at(err, b->path, b->sel_line, 1, "its selection overlaps "
				    "that of %s: its entries would count twice", pts[j].path);
	}
	for (k = 0; k < a->sel.shards; k++)
		if (k >= n || by_shard[k] == NULL)
			return dcfg_error_set(err, a->path, "shard %llu of %llu missing",
			    (unsigned long long)k + 1, (unsigned long long)a->sel.shards);
	return tiles(pts, n, err);
}

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

/* "f TID NODE": the thread's first entry, if no shard before had one */
static int
first(struct reader *r, struct dcfg_pinpoints_thread *t)
{
	uint32_t b;

	if (block(r, &b, 0) < 0)
		return -1;
	if (!t->started) {
		t->started = 1;
		t->first_block = b;
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
	char *line;
	size_t len;
	int rc;

	if (tl == NULL)
		return -1;
	while ((rc = dcfg_textlines_next(tl, &line, &len, pr->err)) == 1) {
		struct dcfg_pinpoints_thread *t;
		uint64_t tid;
		char *kind;
		r.line = dcfg_textlines_lineno(tl);
		r.p = line;
		if (line[0] == '#' || r.line <= 2)
			continue;
		kind = word(&r);
		if (kind == NULL || strlen(kind) != 1 || strchr("fptc", kind[0]) == NULL) {
			rc = bad(&r, "not a line of a part (\"f\", \"p\", \"t\" or \"c\")");
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
		    kind[0] == 'f' ? first(&r, t) : pairs(&r, t, add_count) < 0 ? -1 : said_counted(&r, t);
		if (rc < 0)
			break;
	}
	dcfg_textlines_close(tl);
	return rc < 0 ? -1 : 0;
}

/* The slice size, rule and process of a part's first line. */
static int
parse_head(const struct part *pt, struct dcfg_pinpoints_options *mo, uint64_t *pid,
    struct dcfg_error *err)
{
	const char *s = strstr(pt->head, " slice-size="), *r = strstr(pt->head, " rule="),
	    *p = strstr(pt->head, " process=");
	char *end;

	if (s == NULL || r == NULL || p == NULL)
		return dcfg_error_at(err, pt->path, 1, 1, "a first line without slice-size=, rule= or process=");
	mo->slice_size = strtoull(s + 12, &end, 10);
	mo->loop_aligned = strncmp(r + 6, "loop ", 5) == 0;
	*pid = strtoull(p + 9, NULL, 10);
	if (mo->slice_size == 0)
		return dcfg_error_at(err, pt->path, 1, 1, "a slice size of 0");
	return 0;
}

int
dcfg_pinpoints_merge(const struct dcfg *d, const char *const *paths, size_t n,
    const struct dcfg_pinpoints_options *o, struct dcfg_error *err)
{
	struct dcfg_pinpoints_options mo = *o;
	struct dcfg_pinpoints pr = { .d = d, .o = &mo, .name = paths[0], .err = err };
	struct part *pts = calloc(n, sizeof *pts);
	struct part **by_shard = calloc(n, sizeof *by_shard);
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
		if (scan(&pts[i], err) < 0)
			goto done;
	}
	if (check(d, pts, n, by_shard, err) < 0 || parse_head(&pts[0], &mo, &pid, err) < 0)
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
	for (i = 0; pts && i < n; i++) {
		free(pts[i].head);
		free(pts[i].c_line);
		dcfg_recorded_selection_free(&pts[i].sel);
	}
	free(pts);
	free(by_shard);
	for (i = 0; i < said.cap; i++)
		free(said.v[i].marked);
	free(said.v);
	dcfg_pinpoints_free(&pr);
	return rc;
}
