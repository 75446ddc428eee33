#include "provenance.h"

#include "common/textlines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char sel_lead[] = "# selection";
static const char trace_lead[] = "# trace ";

int
dcfg_is_selection_line(const char *line, size_t len)
{
	size_t n = sizeof sel_lead - 1;

	return len >= n && memcmp(line, sel_lead, n) == 0 && (len == n || line[n] == ' ');
}

int
dcfg_is_trace_line(const char *line, size_t len)
{
	return len >= sizeof trace_lead - 1 && memcmp(line, trace_lead, sizeof trace_lead - 1) == 0;
}

/* At most LEN / 2 + 1 ids: the list is bounded by the line. */
int
dcfg_ids_parse(const char *s, size_t len, uint64_t **v, size_t *n)
{
	size_t i = 0, k;

	if ((*v = malloc((len / 2 + 1) * sizeof **v)) == NULL)
		return -1;
	*n = 0;
	while (i <= len) {
		k = i;
		while (k < len && s[k] != ',')
			k++;
		if (dcfg_textlines_number(s + i, k - i, &(*v)[*n]) < 0 || (*n > 0 && (*v)[*n] <= (*v)[*n - 1]))
			return -1;
		(*n)++;
		i = k + 1;
	}
	return 0;
}

/* Whether every id of the ascending list A is in the ascending list B. */
static int
inside(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t i, j = 0;

	for (i = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j == nb || b[j] != a[i])
			return 0;
	}
	return 1;
}

/* A shard selects within its plan's selection: what the plan named, it names part of. */
static int
inside_plan(const struct dcfg_recorded_selection *s)
{
	return (s->n_of_pids == 0 || (s->n_pids > 0 && inside(s->pids, s->n_pids, s->of_pids,
	    s->n_of_pids))) && (s->n_of_tids == 0 || (s->n_tids > 0 && inside(s->tids, s->n_tids,
	    s->of_tids, s->n_of_tids)));
}

/* "K/N" (LEN bytes at W), 1 <= K <= N, into S. 0, or -1. */
static int
shard_word(const char *w, size_t len, struct dcfg_recorded_selection *s)
{
	const char *slash = memchr(w, '/', len);

	return slash == NULL || dcfg_textlines_number(w, (size_t)(slash - w), &s->shard) < 0 ||
	    dcfg_textlines_number(slash + 1, len - (size_t)(slash - w) - 1, &s->shards) < 0 ||
	    s->shard == 0 || s->shard > s->shards ? -1 : 0;
}

int
dcfg_recorded_selection_parse(const char *line, size_t len, struct dcfg_recorded_selection *s,
    const char **why)
{
	static const char *const keys[] = { "shard=", "align=", "of-process=", "of-thread=",
		"process=", "thread=", "from-icount=", "to-icount=" };
	enum { N_KEYS = sizeof keys / sizeof *keys };
	uint64_t **const ids[] = { &s->of_pids, &s->of_tids, &s->pids, &s->tids };
	size_t *const n_ids[] = { &s->n_of_pids, &s->n_of_tids, &s->n_pids, &s->n_tids };
	const char *p = line + sizeof sel_lead - 1, *end = line + len, *w;
	int next = 0, k;
	int has_to = 0;

	memset(s, 0, sizeof *s);
	s->to = UINT64_MAX;
	*why = "a \"# selection\" line that is not as dcfg-expand writes it (shard=K/N align=A "
	    "of-process=P,... of-thread=T,... process=P,... thread=T,... from-icount=F "
	    "to-icount=T, in that order)";
	while (p < end) {
		if (*p++ != ' ')
			goto bad;
		for (w = p; p < end && *p != ' '; p++)
			;
		for (k = next; k < N_KEYS && ((size_t)(p - w) <= strlen(keys[k]) ||
		    memcmp(w, keys[k], strlen(keys[k])) != 0); k++)
			;
		if (k == N_KEYS)
			goto bad;
		next = k + 1;
		w += strlen(keys[k]);
		switch (k) {
		case 0:
			if (shard_word(w, (size_t)(p - w), s) < 0) {
				*why = "a \"# selection\" line whose shard is not K/N, 1 <= K <= N";
				goto bad;
			}
			break;
		case 1:   /* a plan's shape: only of a shard */
			if (s->shards == 0 || dcfg_textlines_number(w, (size_t)(p - w), &s->align) < 0 ||
			    s->align == 0) {
				*why = "a \"# selection\" line whose align=A is not a number above 0 after shard=K/N";
				goto bad;
			}
			break;
		case 2:
		case 3:   /* the plan's selection, a part of its shape: only of a shard */
			if (s->shards == 0) {
				*why = "a \"# selection\" line whose plan's selection (of-process=, "
				    "of-thread=) is not after shard=K/N";
				goto bad;
			}
			/* fall through */
		case 4:
		case 5:
			if (dcfg_ids_parse(w, (size_t)(p - w), ids[k - 2], n_ids[k - 2]) < 0) {
				*why = "a \"# selection\" line whose ids are not decimal, ascending and distinct";
				goto bad;
			}
			break;
		case 6:
			if (dcfg_textlines_number(w, (size_t)(p - w), &s->from) < 0 || s->from == 0)
				goto bad;
			break;
		default:
			if (dcfg_textlines_number(w, (size_t)(p - w), &s->to) < 0 || s->to == UINT64_MAX)
				goto bad;
			has_to = 1;
			break;
		}
	}
	if (has_to && s->from >= s->to) {
		*why = "a \"# selection\" line whose window is empty (from-icount >= to-icount)";
		goto bad;
	}
	if (!inside_plan(s)) {
		*why = "a \"# selection\" line whose process= or thread= is not inside its plan's "
		    "of-process= or of-thread=";
		goto bad;
	}
	return 0;
bad:
	dcfg_recorded_selection_free(s);
	return -1;
}

void
dcfg_recorded_selection_free(struct dcfg_recorded_selection *s)
{
	free(s->pids);
	free(s->tids);
	free(s->of_pids);
	free(s->of_tids);
	memset(s, 0, sizeof *s);
	s->to = UINT64_MAX;
}

/* Two ascending lists share an id; an empty list is every id. */
static int
meet(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t i = 0, j = 0;

	if (na == 0 || nb == 0)
		return 1;
	while (i < na && j < nb) {
		if (a[i] == b[j])
			return 1;
		if (a[i] < b[j])
			i++;
		else
			j++;
	}
	return 0;
}

int
dcfg_recorded_selection_overlap(const struct dcfg_recorded_selection *a,
    const struct dcfg_recorded_selection *b)
{
	uint64_t from = a->from > b->from ? a->from : b->from;
	uint64_t to = a->to < b->to ? a->to : b->to;

	return meet(a->pids, a->n_pids, b->pids, b->n_pids) &&
	    meet(a->tids, a->n_tids, b->tids, b->n_tids) && from < to;
}

/* Whether the ascending list V (empty: every id) holds X. */
static int
has_id(const uint64_t *v, size_t n, uint64_t x)
{
	return meet(v, n, &x, 1);
}

int
dcfg_recorded_selection_has_process(const struct dcfg_recorded_selection *s, uint64_t pid)
{
	return has_id(s->pids, s->n_pids, pid);
}

int
dcfg_recorded_selection_has_thread(const struct dcfg_recorded_selection *s, uint64_t tid)
{
	return has_id(s->tids, s->n_tids, tid);
}

/*
 * An exact window may take an edge at the very end of the chunk before it
 * (after blocks of no instructions), and that chunk's marker: a chunk that
 * ends where the window starts still meets it.
 */
int
dcfg_recorded_selection_meets_chunk(const struct dcfg_recorded_selection *s, uint64_t preceding,
    uint64_t instrs)
{
	return preceding < s->to && (instrs >= UINT64_MAX - preceding || preceding + instrs >= s->from);
}

static int
same_ids(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

int
dcfg_recorded_selection_same_plan(const struct dcfg_recorded_selection *a,
    const struct dcfg_recorded_selection *b)
{
	return a->shards == b->shards && a->align == b->align &&
	    same_ids(a->of_pids, a->n_of_pids, b->of_pids, b->n_of_pids) &&
	    same_ids(a->of_tids, a->n_of_tids, b->of_tids, b->n_of_tids);
}

/* A bounded text: what does not fit is cut, with "..." at its end. */
struct text {
	char *buf;
	size_t size, len;
};

static void
put_text(void *ctx, const char *p, size_t n)
{
	struct text *t = ctx;

	if (t->len + n + 1 > t->size) {
		n = t->len + 4 < t->size ? t->size - t->len - 4 : 0;
		memcpy(t->buf + t->len, p, n);
		t->len += n;
		if (t->len + 4 <= t->size)
			memcpy(t->buf + t->len, "...", 4);
		t->len = t->size;   /* full: nothing more */
		return;
	}
	memcpy(t->buf + t->len, p, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* " -O ID" for each of the N ids V: the plan's options, as the user gave them. */
static void
put_options(const char *opt, const uint64_t *v, size_t n, dcfg_put_fn *put, void *ctx)
{
	size_t i;

	for (i = 0; i < n; i++) {
		put(ctx, opt, strlen(opt));
		dcfg_put_ids(v + i, 1, put, ctx);
	}
}

void
dcfg_recorded_selection_plan_name(const struct dcfg_recorded_selection *s, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };
	char num[96];

	if (size == 0)
		return;
	buf[0] = '\0';
	put_text(&t, num, (size_t)snprintf(num, sizeof num, "shard %llu of %llu",
	    (unsigned long long)s->shard, (unsigned long long)s->shards));
	if (s->align)
		put_text(&t, num, (size_t)snprintf(num, sizeof num, " cut at multiples of %llu",
		    (unsigned long long)s->align));
	if (s->n_of_pids == 0 && s->n_of_tids == 0)
		return;
	put_text(&t, " (a plan of", 11);
	put_options(" -p ", s->of_pids, s->n_of_pids, put_text, &t);
	put_options(" -t ", s->of_tids, s->n_of_tids, put_text, &t);
	put_text(&t, ")", 1);
}

void
dcfg_recorded_selection_whole(const struct dcfg_recorded_selection *shard,
    struct dcfg_recorded_selection *whole)
{
	memset(whole, 0, sizeof *whole);
	whole->shard = whole->shards = 1;
	whole->to = UINT64_MAX;
	whole->of_pids = whole->pids = shard->of_pids;
	whole->n_of_pids = whole->n_pids = shard->n_of_pids;
	whole->of_tids = whole->tids = shard->of_tids;
	whole->n_of_tids = whole->n_tids = shard->n_of_tids;
}

/* V in decimal into NUM (at least 20 bytes), no NUL: its length. No printf: writer.h's promise. */
static size_t
decimal(char *num, uint64_t v)
{
	char rev[20];
	size_t n = 0, i;

	do
		rev[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	for (i = 0; i < n; i++)
		num[i] = rev[n - 1 - i];
	return n;
}

void
dcfg_put_output(void *out, const char *p, size_t n)
{
	dcfg_out_bytes(out, p, n);
}

void
dcfg_put_ids(const uint64_t *v, size_t n, dcfg_put_fn *put, void *ctx)
{
	char num[24];
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			put(ctx, ",", 1);
		put(ctx, num, decimal(num, v[i]));
	}
}

/* " KEY" and the ids V[0..N) after it, if there are any. */
static void
put_ids_word(const char *key, const uint64_t *v, size_t n, dcfg_put_fn *put, void *ctx)
{
	if (n == 0)
		return;
	put(ctx, key, strlen(key));
	dcfg_put_ids(v, n, put, ctx);
}

/* " KEY" and X after it, unless X is NONE. */
static void
put_number_word(const char *key, uint64_t x, uint64_t none, dcfg_put_fn *put, void *ctx)
{
	if (x != none)
		put_ids_word(key, &x, 1, put, ctx);
}

void
dcfg_recorded_selection_put(const struct dcfg_recorded_selection *s, dcfg_put_fn *put, void *ctx)
{
	char num[24];

	if (s->shards) {
		put(ctx, " shard=", 7);
		put(ctx, num, decimal(num, s->shard));
		put(ctx, "/", 1);
		put(ctx, num, decimal(num, s->shards));
		put_number_word(" align=", s->align, 0, put, ctx);
	}
	put_ids_word(" of-process=", s->of_pids, s->n_of_pids, put, ctx);
	put_ids_word(" of-thread=", s->of_tids, s->n_of_tids, put, ctx);
	put_ids_word(" process=", s->pids, s->n_pids, put, ctx);
	put_ids_word(" thread=", s->tids, s->n_tids, put, ctx);
	put_number_word(" from-icount=", s->from, 0, put, ctx);
	put_number_word(" to-icount=", s->to, UINT64_MAX, put, ctx);
}

static int
by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int
dcfg_ids_ascending(const uint64_t *v, size_t n, uint64_t **out, size_t *n_out)
{
	size_t i, k = 0;

	*out = NULL;
	*n_out = 0;
	if (n == 0)
		return 0;
	if ((*out = malloc(n * sizeof **out)) == NULL)
		return -1;
	memcpy(*out, v, n * sizeof **out);
	qsort(*out, n, sizeof **out, by_value);
	for (i = 0; i < n; i++)
		if (k == 0 || (*out)[i] != (*out)[k - 1])
			(*out)[k++] = (*out)[i];
	*n_out = k;
	return 0;
}

static int
windowed(const struct dcfg_recorded_selection *s)
{
	return s->from > 0 || s->to != UINT64_MAX;
}

/* What window X cuts, for an error: "thread T of process P" as a plan's lines have it. */
static void
cut_name(const struct dcfg_recorded_selection *x, char *buf, size_t size)
{
	if (x->n_pids == 1 && x->n_tids == 1)
		snprintf(buf, size, "thread %llu of process %llu", (unsigned long long)x->tids[0],
		    (unsigned long long)x->pids[0]);
	else
		snprintf(buf, size, "the threads of shard %llu", (unsigned long long)x->shard);
}

/*
 * Disjoint windows of one thread tile it when each starts at 0 or where
 * another ends, and the last ends at the thread's end: taken in order,
 * each then starts where the one before it ends. Windows are of one
 * thread when their processes and threads meet, not when they are the
 * same: a plan puts a thread without edges, or a process without
 * threads, on the line of a window as one more -t or -p (dcfg-expand(1),
 * Lines), and the cut thread is the only one the lines of its windows
 * share.
 */
int
dcfg_recorded_selections_tile(const struct dcfg_recorded_selection *const *s, size_t n,
    size_t *at, char *why, size_t size)
{
	char name[96];
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct dcfg_recorded_selection *x = s[i];
		uint64_t before = 0;
		int joined = x->from == 0, last = 1;
		if (!windowed(x))
			continue;
		for (j = 0; j < n; j++) {
			const struct dcfg_recorded_selection *y = s[j];
			if (j == i || !windowed(y) || !meet(x->pids, x->n_pids, y->pids, y->n_pids) ||
			    !meet(x->tids, x->n_tids, y->tids, y->n_tids))
				continue;
			joined |= y->to == x->from;
			last &= y->to < x->to;
			if (y->to <= x->from && y->to > before)
				before = y->to;
		}
		if (joined && (!last || x->to == UINT64_MAX))
			continue;
		*at = i;
		cut_name(x, name, sizeof name);
		if (!joined)
			snprintf(why, size, "instructions %llu to %llu of %s are in no shard: the "
			    "windows of the shards leave a gap (shards of two plans?)",
			    (unsigned long long)before, (unsigned long long)x->from, name);
		else
			snprintf(why, size, "instructions from %llu on of %s are in no shard: the "
			    "windows of the shards leave a gap (shards of two plans?)",
			    (unsigned long long)x->to, name);
		return -1;
	}
	return 0;
}

int
dcfg_trace_id_parse(const char *line, size_t len, uint32_t *crc, uint64_t *bytes)
{
	const char *p = line + sizeof trace_lead - 1;
	size_t n = len - (sizeof trace_lead - 1), i;

	if (!dcfg_is_trace_line(line, len) || n < 10 || p[8] != ':' ||
	    dcfg_textlines_number(p + 9, n - 9, bytes) < 0)
		return -1;
	for (*crc = 0, i = 0; i < 8; i++) {
		char c = p[i];
		if (c >= '0' && c <= '9')
			*crc = *crc << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*crc = *crc << 4 | (uint32_t)(c - 'a' + 10);
		else
			return -1;
	}
	return 0;
}

void
dcfg_out_crc_bytes(struct dcfg_output *out, uint32_t crc, uint64_t bytes)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 28; i >= 0; i -= 4)
		dcfg_out_char(out, hex[(crc >> i) & 0xf]);
	dcfg_out_char(out, ':');
	dcfg_out_u64(out, bytes);
}
