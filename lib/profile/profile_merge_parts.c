/*
 * dcfg-profile --merge, pass 1: each part's first two lines, selection
 * and trace read, and the parts checked to be the shards of one plan's
 * profile, each once, none missing, none overlapping, tiling each thread
 * (profile_merge.c replays them).
 */
#include "profile_merge_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/textlines.h"
#include "common/vec.h"

/*
 * The first line: "# dcfg-profile-part 3 ... process=PID|all", kept
 * without its process word, which parts of one profile may differ in.
 */
static int
scan_head(struct dcfg_merge_part *pt, char *line, size_t len, struct dcfg_error *err)
{
	static const char magic[] = DCFG_PINPOINTS_PART_MAGIC, older[] = "# dcfg-profile-part ";
	char *w, *end;
	size_t word;

	if (strncmp(line, magic, sizeof magic - 1) != 0)
		return dcfg_error_at(err, pt->path, 1, 1, strncmp(line, older, sizeof older - 1) == 0 ?
		    "a part of another version of dcfg-profile --part: make it again with this one" :
		    "not a part of dcfg-profile --part: its first line is not \"" DCFG_PINPOINTS_PART_MAGIC "...\"");
	if ((w = strstr(line, " process=")) == NULL)
		return dcfg_error_at(err, pt->path, 1, 1, "a first line without process=PID or process=all");
	end = strchr(w + 1, ' ');
	word = end ? (size_t)(end - w - 9) : len - (size_t)(w + 9 - line);
	if (word == 3 && strncmp(w + 9, "all", 3) == 0)
		pt->keeps_all = 1;
	else if (dcfg_textlines_number(w + 9, word, &pt->kept) < 0)
		return dcfg_error_at(err, pt->path, 1, 1, "a first line without process=PID or process=all");
	/* the head without the word: what follows it (kind=summary) stays */
	memmove(w, w + 9 + word, strlen(w + 9 + word) + 1);
	return (pt->head = strdup(line)) ? 0 : dcfg_error_set(err, pt->path, "out of memory");
}

int
dcfg_merge_process_line(const char *line, size_t len, uint64_t *pid)
{
	return len > 10 && strncmp(line, "# process ", 10) == 0 &&
	    dcfg_textlines_number(line + 10, len - 10, pid) == 0 ? 0 : -1;
}

/* A "# process PID" line at line NO: a section of the part, each process's once. */
static int
scan_process(struct dcfg_merge_part *pt, const char *line, size_t len, unsigned long no,
    struct dcfg_error *err)
{
	uint64_t pid;
	size_t i;

	if (dcfg_merge_process_line(line, len, &pid) < 0)
		return dcfg_error_at(err, pt->path, no, 1, "a \"# process\" line that is not \"# process PID\"");
	for (i = 0; i < pt->n_pids; i++)
		if (pt->pids[i] == pid)
			return dcfg_error_at(err, pt->path, no, 1, "a second section of process %llu: "
			    "parts joined together are not one part", (unsigned long long)pid);
	if (dcfg_reserve((void **)&pt->pids, &pt->cap_pids, pt->n_pids + 1, sizeof *pt->pids) < 0)
		return dcfg_error_set(err, pt->path, "out of memory");
	pt->pids[pt->n_pids++] = pid;
	return 0;
}

/* Pass 1: the part's first two lines, selection, processes and trace. */
int
dcfg_merge_part_scan(struct dcfg_merge_part *pt, struct dcfg_error *err)
{
	struct dcfg_textlines *tl = dcfg_textlines_open(pt->path, err);
	const char *why;
	char *line;
	size_t len;
	int rc;

	if (tl == NULL)
		return -1;
	while ((rc = dcfg_textlines_next(tl, &line, &len, err)) == 1) {
		unsigned long no = dcfg_textlines_lineno(tl);
		if (no == 1)
			rc = scan_head(pt, line, len, err);
		else if (no == 2 && strncmp(line, "C: ", 3) != 0)
			rc = dcfg_error_at(err, pt->path, 2, 1, "not a part of dcfg-profile --part: no \"C:\" line");
		else if (no == 2)
			rc = (pt->c_line = strdup(line)) ? 0 : dcfg_error_set(err, pt->path, "out of memory");
		else if (pt->traced)
			rc = dcfg_error_at(err, pt->path, no, 1, "a line after the \"# trace\" line");
		else if (strncmp(line, "# process ", 10) == 0)
			rc = scan_process(pt, line, len, no, err);
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

/* Whether PT has a section of process PID. */
static int
holds(const struct dcfg_merge_part *pt, uint64_t pid)
{
	size_t i;

	for (i = 0; i < pt->n_pids; i++)
		if (pt->pids[i] == pid)
			return 1;
	return 0;
}

/* The parts' only process, as one run takes the stream's only one. */
static int
only_process(const struct dcfg_merge_part *pts, size_t n, uint64_t *pid, struct dcfg_error *err)
{
	int found = 0;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < pts[i].n_pids + !pts[i].keeps_all; j++) {
			uint64_t p = j < pts[i].n_pids ? pts[i].pids[j] : pts[i].kept;
			if (found && p != *pid)
				return dcfg_error_set(err, pts[i].path, "the parts hold processes %llu and "
				    "%llu: choose one with -p", (unsigned long long)*pid, (unsigned long long)p);
			*pid = p;
			found = 1;
		}
	return found ? 0 : dcfg_error_set(err, pts[0].path, "the parts hold no process");
}

int
dcfg_merge_parts_process(const struct dcfg_merge_part *pts, size_t n, int has_want,
    uint64_t want, uint64_t *pid, struct dcfg_error *err)
{
	size_t i;
	int found = 0;

	if (!has_want && only_process(pts, n, &want, err) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		/* a part of another process alone leaves this one's entries in that shard out */
		if (!pts[i].keeps_all && pts[i].kept != want)
			return dcfg_error_at(err, pts[i].path, 1, 1, "a part of process %llu alone "
			    "(--part -p %llu): it leaves out what its shard holds of process %llu",
			    (unsigned long long)pts[i].kept, (unsigned long long)pts[i].kept,
			    (unsigned long long)want);
		found |= holds(&pts[i], want);
	}
	if (!found)
		return dcfg_error_set(err, pts[0].path, "process %llu is not in the parts",
		    (unsigned long long)want);
	*pid = want;
	return 0;
}

/* The shards, all there and disjoint, cut each thread without a gap. */
static int
tiles(const struct dcfg_merge_part *pts, size_t n, struct dcfg_error *err)
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
int
dcfg_merge_parts_check(const struct dcfg *d, struct dcfg_merge_part *pts, size_t n,
    struct dcfg_merge_part **by_shard, struct dcfg_error *err)
{
	const struct dcfg_merge_part *a = &pts[0];
	char dcfg_id[64], this[384], that[384];
	size_t i, j;
	const char *at;
	uint64_t k;

	snprintf(dcfg_id, sizeof dcfg_id, " dcfg=%08x:%llu", (unsigned)d->crc32,
	    (unsigned long long)d->bytes);
	if ((at = strstr(a->head, dcfg_id)) == NULL || (at[strlen(dcfg_id)] != ' ' &&
	    at[strlen(dcfg_id)] != '\0'))
		return dcfg_error_at(err, a->path, 1, 1, "a part of another DCFG than the one given");
	for (i = 0; i < n; i++) {
		const struct dcfg_merge_part *b = &pts[i];
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

/* The slice size and rule of a part's first line. */
int
dcfg_merge_part_head(const struct dcfg_merge_part *pt, struct dcfg_pinpoints_options *mo,
    struct dcfg_error *err)
{
	const char *s = strstr(pt->head, " slice-size="), *r = strstr(pt->head, " rule=");
	char *end;

	if (s == NULL || r == NULL)
		return dcfg_error_at(err, pt->path, 1, 1, "a first line without slice-size= or rule=");
	mo->slice_size = strtoull(s + 12, &end, 10);
	mo->loop_aligned = strncmp(r + 6, "loop", 4) == 0;
	mo->loop_grid = strncmp(r + 6, "loop-grid ", 10) == 0;
	if (mo->slice_size == 0)
		return dcfg_error_at(err, pt->path, 1, 1, "a slice size of 0");
	return 0;
}

void
dcfg_merge_parts_free(struct dcfg_merge_part *pts, size_t n)
{
	size_t i;

	for (i = 0; pts && i < n; i++) {
		free(pts[i].head);
		free(pts[i].c_line);
		free(pts[i].pids);
		dcfg_recorded_selection_free(&pts[i].sel);
	}
	free(pts);
}
