/*
 * LoopPoint's rule over shards (dcfg-profile(1), SHARDS): the merge of
 * the shards' summaries (profile_summary.c) into a starts file, which
 * gives each shard's threads the threshold they come in with, and its
 * reading by --part --starts.
 *
 *   # dcfg-profile-starts 2 slice-size=N rule=loop dcfg=CRC:SIZE process=PID|all
 *   C: sum:dummy Command: ...
 *   # selection ... shard=K/SHARDS      each shard's selection, in shard order,
 *   # process PID                       then, per process the summary kept,
 *   s TID THRESHOLD                     its threads' incoming thresholds
 *   # trace CRC:BYTES
 *
 * The process word is the summaries' (profile_part.c): all, or the one
 * --summary -p kept.
 */
#include "profile_internal.h"
#include "profile_merge_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/textlines.h"
#include "common/vec.h"
#include "stream/writer.h"

/* only its length is used: a string literal's size, so no object to leave unused */
#define PART_MAGIC_LEN (sizeof DCFG_PINPOINTS_PART_MAGIC - 1)
static const char starts_magic[] = "# dcfg-profile-starts 2 ";
static const char summary_kind[] = " kind=summary";

struct dcfg_pinpoints_starts {
	uint64_t *tid, *threshold;
	size_t n, cap, cap_threshold;
};

/* Up to MAX numbers after a line's one-letter kind ("w 0 10 20"); how many, or -1. */
static int
numbers(const char *line, uint64_t *v, int max)
{
	const char *p = line + 1;
	int n = 0;

	while (*p == ' ' && n < max) {
		const char *w = ++p;
		while (*p && *p != ' ')
			p++;
		if (dcfg_textlines_number(w, (size_t)(p - w), &v[n]) < 0)
			return -1;
		n++;
	}
	return *p ? -1 : n;
}

int
dcfg_pinpoints_is_summary(const char *head)
{
	size_t n = strlen(head), k = sizeof summary_kind - 1;

	return n >= k && strcmp(head + n - k, summary_kind) == 0;
}

/* ---- the merge of summaries ---- */

struct chain_state {
	uint64_t pid, tid, threshold, to;
};

struct walk {
	struct chain_state *v; size_t n, cap;
	struct chain_state *cur;   /* the thread of the last "w" line */
	uint64_t pid;              /* the process of the last "# process" line */
	int in_process;            /* this summary's "# process" line came */
	uint64_t upper;            /* its last "m" line's UPPER */
	int settled;               /* an "m" line has taken its threshold */
	uint64_t leaves;
};

static struct chain_state *
state_of(struct walk *w, uint64_t tid, uint64_t n0)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].pid == w->pid && w->v[i].tid == tid)
			return &w->v[i];
	if (dcfg_reserve((void **)&w->v, &w->cap, w->n + 1, sizeof *w->v) < 0)
		return NULL;
	w->v[w->n] = (struct chain_state){ w->pid, tid, n0, 0 };
	return &w->v[w->n++];
}

static void
settle(struct walk *w)
{
	if (w->cur)
		w->cur->threshold = w->leaves;
	w->cur = NULL;
}

/* One line of a summary. */
static int
summary_line(struct dcfg_pinpoints *pr, struct walk *w, struct dcfg_output *out, const char *path,
    unsigned long no, const char *line)
{
	uint64_t v[6], last;
	int n = numbers(line, v, 6);

	if (!(line[0] == 'w' && n == 3) && !(line[0] == 'm' && (n == 3 || (n == 6 && v[3] > 0 &&
	    v[5] > 0))))
		return dcfg_error_at(pr->err, path, no, 1, "not a line of a summary (\"w TID FROM TO\", "
		    "\"m TID UPPER THRESHOLD\" or \"m TID UPPER THRESHOLD STEP STEP COUNT\")");
	/* else its threads would be taken for the summary before's process */
	if (!w->in_process)
		return dcfg_error_at(pr->err, path, no, 1, "a thread's line before the summary's "
		    "\"# process PID\" line: a summary edited by hand?");
	if (line[0] == 'w') {
		settle(w);
		if ((w->cur = state_of(w, v[0], pr->o->slice_size)) == NULL)
			return dcfg_error_set(pr->err, path, "out of memory");
		if (v[1] < w->cur->to || v[2] < v[1])
			return dcfg_error_at(pr->err, path, no, 1, "thread %llu starts at %llu, before the "
			    "end of the shard before (%llu), or ends before it starts: shards out of order, "
			    "or an edited summary", (unsigned long long)v[0], (unsigned long long)v[1],
			    (unsigned long long)w->cur->to);
		w->cur->to = v[2];
		w->leaves = w->cur->threshold;
		w->settled = 0;
		w->upper = 0;
		dcfg_out_str(out, "s ");
		dcfg_out_u64(out, v[0]);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, w->cur->threshold);
		dcfg_out_char(out, '\n');
		return 0;
	}
	if (w->cur == NULL || w->cur->tid != v[0] || v[1] < w->upper)
		return dcfg_error_at(pr->err, path, no, 1, "an \"m\" line out of place: a summary edited "
		    "by hand?");
	/* COUNT classes in step: the Ith's UPPER is UPPER + I STEP, and what it leaves too */
	last = v[1];
	if (n == 6 && (__builtin_mul_overflow(v[5] - 1, v[3], &last) ||
	    __builtin_add_overflow(last, v[1], &last)))
		return dcfg_error_at(pr->err, path, no, 1, "an \"m\" line past 2^64 - 1: a summary edited "
		    "by hand?");
	w->upper = last;
	if (!w->settled && w->cur->threshold <= last) {
		uint64_t i = w->cur->threshold <= v[1] ? 0 : (w->cur->threshold - v[1] - 1) / v[3] + 1;
		w->leaves = n == 6 ? v[2] + i * v[4] : v[2];   /* modulo 2^64: a step may go down */
		w->settled = 1;
	}
	return 0;
}

static int
walk_summary(struct dcfg_pinpoints *pr, struct walk *w, struct dcfg_output *out, const char *path)
{
	struct dcfg_textlines *tl = dcfg_textlines_open(path, pr->err);
	char *line;
	size_t len;
	int rc;

	if (tl == NULL)
		return -1;
	w->in_process = 0;
	while ((rc = dcfg_textlines_next(tl, &line, &len, pr->err)) == 1) {
		unsigned long no = dcfg_textlines_lineno(tl);
		if (no > 2 && dcfg_merge_process_line(line, len, &w->pid) == 0) {
			settle(w);   /* its threads are another process's */
			if (dcfg_find_process(pr->d, w->pid) == NULL) {
				rc = dcfg_error_at(pr->err, path, no, 1, "process %llu is not in the DCFG",
				    (unsigned long long)w->pid);
				break;
			}
			w->in_process = 1;
			dcfg_out_bytes(out, line, len);
			dcfg_out_char(out, '\n');
			continue;
		}
		if (no <= 2 || line[0] == '#')
			continue;
		if ((rc = summary_line(pr, w, out, path, no, line)) < 0)
			break;
	}
	dcfg_textlines_close(tl);
	settle(w);
	return rc < 0 ? -1 : 0;
}

int
dcfg_pinpoints_merge_summaries(struct dcfg_pinpoints *pr, struct dcfg_merge_part *const *by_shard,
    size_t n, const char *path)
{
	struct walk w = { 0 };
	struct dcfg_output *out = malloc(sizeof *out);
	const char *head = by_shard[0]->head;
	size_t i;
	int rc = -1;

	if (out == NULL)
		return dcfg_error_set(pr->err, path, "out of memory");
	if (dcfg_output_check_inputs(path, pr->o->inputs, pr->o->n_inputs, pr->err) < 0 ||
	    dcfg_output_open(out, path, pr->err) < 0) {
		free(out);
		return -1;
	}
	dcfg_out_str(out, starts_magic);
	dcfg_out_bytes(out, head + PART_MAGIC_LEN,
	    strlen(head) - PART_MAGIC_LEN - (sizeof summary_kind - 1));
	dcfg_out_str(out, " process=");
	if (by_shard[0]->keeps_all)
		dcfg_out_str(out, "all");
	else
		dcfg_out_u64(out, by_shard[0]->kept);
	dcfg_out_char(out, '\n');
	dcfg_out_str(out, by_shard[0]->c_line);
	dcfg_out_char(out, '\n');
	for (i = 0; i < n; i++) {
		dcfg_stream_write_selection(out, &by_shard[i]->sel);
		if (walk_summary(pr, &w, out, by_shard[i]->path) < 0)
			goto done;
	}
	dcfg_stream_write_trace(out, by_shard[0]->crc, by_shard[0]->bytes);
	rc = dcfg_output_close(out, pr->err);
	free(out);
	out = NULL;
done:
	if (out) {
		dcfg_output_discard(out);
		free(out);
	}
	free(w.v);
	return rc;
}

/* ---- --part --starts ---- */

/* The "C:" line these options write, in a buffer that is never flushed: it is short. */
static int
same_options(struct dcfg_pinpoints *pr, const char *line)
{
	struct dcfg_output *m = calloc(1, sizeof *m);
	int same;

	if (m == NULL)
		return -1;
	m->fd = -1;
	dcfg_pinpoints_write_options(pr, m);
	same = !dcfg_output_failed(m) && m->len == strlen(line) + 1 &&
	    memcmp(m->buf, line, m->len - 1) == 0;
	free(m);
	return same;
}

/* The starts' first two lines: those of this profile. */
static int
starts_head(struct dcfg_pinpoints *pr, unsigned long no, const char *line)
{
	const char *path = pr->o->starts;
	char want[256];
	int same;

	if (no == 1) {
		/* starts of every process, or of this one alone */
		snprintf(want, sizeof want, "%sslice-size=%llu rule=loop dcfg=%08x:%llu process=%s",
		    starts_magic, (unsigned long long)pr->o->slice_size, (unsigned)pr->d->crc32,
		    (unsigned long long)pr->d->bytes, strstr(line, " process=all") ? "all" : "");
		if (strstr(line, " process=all") == NULL)
			snprintf(want + strlen(want), sizeof want - strlen(want), "%llu",
			    (unsigned long long)pr->p->pid);
		if (strncmp(line, starts_magic, sizeof starts_magic - 1) != 0)
			return dcfg_error_at(pr->err, path, 1, 1, "not a starts file (dcfg-profile --merge "
			    "of --summary files): its first line is not \"%s...\"", starts_magic);
		if (strcmp(line, want) != 0)
			return dcfg_error_at(pr->err, path, 1, 1, "the starts of another profile: \"%s\" "
			    "here, \"%s\" in the starts", want + sizeof starts_magic - 1,
			    line + sizeof starts_magic - 1);
		return 0;
	}
	if ((same = same_options(pr, line)) < 0)
		return dcfg_error_set(pr->err, path, "out of memory");
	return same ? 0 : dcfg_error_at(pr->err, path, 2, 1, "the starts of a profile of other "
	    "options (its \"C:\" line differs)");
}

static int
add_start(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_starts *st, unsigned long no,
    const char *line)
{
	uint64_t v[2];

	if (line[0] != 's' || numbers(line, v, 2) != 2)
		return dcfg_error_at(pr->err, pr->o->starts, no, 1, "not a line of a starts file "
		    "(\"s TID THRESHOLD\")");
	if (dcfg_reserve((void **)&st->tid, &st->cap, st->n + 1, sizeof *st->tid) < 0 ||
	    dcfg_reserve((void **)&st->threshold, &st->cap_threshold, st->n + 1,
	    sizeof *st->threshold) < 0)
		return dcfg_error_set(pr->err, pr->o->starts, "out of memory");
	st->tid[st->n] = v[0];
	st->threshold[st->n++] = v[1];
	return 0;
}

/* A "# selection" line of the starts: 1 when it is this stream's shard, 0 another, -1. */
static int
is_this_shard(struct dcfg_pinpoints *pr, unsigned long no, const char *line, size_t len,
    int *same_plan)
{
	struct dcfg_recorded_selection sel = { 0 };
	const char *why;
	int mine;

	if (dcfg_recorded_selection_parse(line, len, &sel, &why) < 0) {
		dcfg_recorded_selection_free(&sel);
		return dcfg_error_at(pr->err, pr->o->starts, no, 1, "%s", why);
	}
	mine = dcfg_recorded_selection_same_plan(&sel, &pr->sel);
	*same_plan |= mine;
	mine = mine && sel.shard == pr->sel.shard;
	dcfg_recorded_selection_free(&sel);
	return mine;
}

static int
read_starts(struct dcfg_pinpoints *pr, struct dcfg_textlines *tl, struct dcfg_pinpoints_starts *st)
{
	int rc, in = 0, found = 0, same_plan = 0, in_process = 0;
	uint64_t pid = 0;
	char *line;
	size_t len;

	while ((rc = dcfg_textlines_next(tl, &line, &len, pr->err)) == 1) {
		unsigned long no = dcfg_textlines_lineno(tl);
		if (no <= 2)
			rc = starts_head(pr, no, line);
		else if (dcfg_merge_process_line(line, len, &pid) == 0)
			in_process = 1;
		else if (dcfg_is_selection_line(line, len)) {
			found |= in = rc = is_this_shard(pr, no, line, len, &same_plan);
			in_process = 0;
		}
		else if (dcfg_is_trace_line(line, len))
			rc = dcfg_trace_id_parse(line, len, &pr->starts_crc, &pr->starts_bytes) < 0 ?
			    dcfg_error_at(pr->err, pr->o->starts, no, 1, "a \"# trace\" line that is "
			    "not \"# trace CRC:BYTES\"") : (pr->starts_traced = 1, 0);
		else if (in && in_process && pid == pr->p->pid)   /* this shard's, and this process's */
			rc = add_start(pr, st, no, line);
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!found) {
		char name[384];
		dcfg_recorded_selection_plan_name(&pr->sel, name, sizeof name);
		return dcfg_error_set(pr->err, pr->o->starts, "no starts for %s%s", name, same_plan ?
		    "" : ": the starts of another plan (one left from an earlier plan?)");
	}
	return 0;
}

int
dcfg_pinpoints_starts_load(struct dcfg_pinpoints *pr)
{
	struct dcfg_textlines *tl;
	int rc;

	if (!pr->has_sel || pr->sel.shards == 0)
		return dcfg_error_set(pr->err, pr->name, "a stream that records no shard of a plan: "
		    "--starts gives the thresholds of the shards of dcfg-expand --plan");
	if ((pr->starts = calloc(1, sizeof *pr->starts)) == NULL)
		return dcfg_error_set(pr->err, pr->o->starts, "out of memory");
	if ((tl = dcfg_textlines_open(pr->o->starts, pr->err)) == NULL)
		return -1;
	rc = read_starts(pr, tl, pr->starts);
	dcfg_textlines_close(tl);
	return rc;
}

int
dcfg_pinpoints_starts_threshold(const struct dcfg_pinpoints *pr, uint64_t tid, uint64_t *threshold)
{
	size_t i;

	for (i = 0; pr->starts && i < pr->starts->n; i++)
		if (pr->starts->tid[i] == tid) {
			*threshold = pr->starts->threshold[i];
			return 0;
		}
	return -1;
}

int
dcfg_pinpoints_starts_check_trace(struct dcfg_pinpoints *pr)
{
	if (!pr->starts)
		return 0;
	if (!pr->starts_traced || pr->starts_crc != pr->trace_crc || pr->starts_bytes != pr->trace_bytes)
		return dcfg_error_set(pr->err, pr->o->starts, "the starts of another trace "
		    "(%08x:%llu) than the stream's (%08x:%llu)", (unsigned)pr->starts_crc,
		    (unsigned long long)pr->starts_bytes, (unsigned)pr->trace_crc,
		    (unsigned long long)pr->trace_bytes);
	return 0;
}

void
dcfg_pinpoints_starts_free(struct dcfg_pinpoints *pr)
{
	if (pr->starts) {
		free(pr->starts->tid);
		free(pr->starts->threshold);
		free(pr->starts);
		pr->starts = NULL;
	}
}
