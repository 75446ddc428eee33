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

/* "A,B,...": ascending and distinct; at most LEN / 2 + 1 of them, so the list is bounded by the line. */
static int
id_list(const char *s, size_t len, uint64_t **v, size_t *n)
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

int
dcfg_recorded_selection_parse(const char *line, size_t len, struct dcfg_recorded_selection *s,
    const char **why)
{
	static const char *const keys[] = { "shard=", "align=", "process=", "thread=",
		"from-icount=", "to-icount=" };
	enum { N_KEYS = sizeof keys / sizeof *keys };
	const char *p = line + sizeof sel_lead - 1, *end = line + len, *w, *slash;
	int next = 0, k;
	int has_to = 0;

	memset(s, 0, sizeof *s);
	s->to = UINT64_MAX;
	*why = "a \"# selection\" line that is not as dcfg-expand writes it "
	    "(shard=K/N align=A process=P,... thread=T,... from-icount=F to-icount=T, in that order)";
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
			if ((slash = memchr(w, '/', (size_t)(p - w))) == NULL ||
			    dcfg_textlines_number(w, (size_t)(slash - w), &s->shard) < 0 ||
			    dcfg_textlines_number(slash + 1, (size_t)(p - slash - 1), &s->shards) < 0 ||
			    s->shard == 0 || s->shard > s->shards) {
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
		case 3:
			if (id_list(w, (size_t)(p - w), k == 2 ? &s->pids : &s->tids,
			    k == 2 ? &s->n_pids : &s->n_tids) < 0) {
				*why = "a \"# selection\" line whose ids are not decimal, ascending and distinct";
				goto bad;
			}
			break;
		case 4:
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

int
dcfg_recorded_selection_same_plan(const struct dcfg_recorded_selection *a,
    const struct dcfg_recorded_selection *b)
{
	return a->shards == b->shards && a->align == b->align;
}

void
dcfg_recorded_selection_plan_name(const struct dcfg_recorded_selection *s, char *buf, size_t size)
{
	int n = snprintf(buf, size, "shard %llu of %llu", (unsigned long long)s->shard,
	    (unsigned long long)s->shards);

	if (s->align && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " cut at multiples of %llu",
		    (unsigned long long)s->align);
}

static int
same_ids(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
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
 * each then starts where the one before it ends.
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
			if (j == i || !windowed(y) || !same_ids(x->pids, x->n_pids, y->pids, y->n_pids) ||
			    !same_ids(x->tids, x->n_tids, y->tids, y->n_tids))
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
