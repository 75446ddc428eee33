#include "provenance.h"

#include "common/textlines.h"

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
	static const char *const keys[] = { "shard=", "process=", "thread=", "from-icount=",
		"to-icount=" };
	const char *p = line + sizeof sel_lead - 1, *end = line + len, *w, *slash;
	int next = 0, k;
	int has_to = 0;

	memset(s, 0, sizeof *s);
	s->to = UINT64_MAX;
	*why = "a \"# selection\" line that is not as dcfg-expand writes it "
	    "(shard=K/N process=P,... thread=T,... from-icount=F to-icount=T, in that order)";
	while (p < end) {
		if (*p++ != ' ')
			goto bad;
		for (w = p; p < end && *p != ' '; p++)
			;
		for (k = next; k < 5 && ((size_t)(p - w) <= strlen(keys[k]) ||
		    memcmp(w, keys[k], strlen(keys[k])) != 0); k++)
			;
		if (k == 5)
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
		case 1:
		case 2:
			if (id_list(w, (size_t)(p - w), k == 1 ? &s->pids : &s->tids,
			    k == 1 ? &s->n_pids : &s->n_tids) < 0) {
				*why = "a \"# selection\" line whose ids are not decimal, ascending and distinct";
				goto bad;
			}
			break;
		case 3:
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
