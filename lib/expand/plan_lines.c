/*
 * The lines of a dcfg-expand --plan: its members grouped by unit, one line
 * a unit, and a split thread's cuts found again, as plan_shape.c found
 * them, from the numbers its unit keeps.
 */
#include "plan_internal.h"

#include <stdlib.h>

#include "stream/provenance.h"

static int
by_line(const void *a, const void *b)
{
	const struct plan_member *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->is_thread != y->is_thread)
		return x->is_thread - y->is_thread;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void
word(struct dcfg_output *out, int *first, const char *opt, uint64_t v)
{
	if (!*first)
		dcfg_out_char(out, ' ');
	*first = 0;
	dcfg_out_str(out, opt);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, v);
}

/*
 * One line of unit U (members M[0..N)): piece FIRST and/or LAST of it;
 * a window [FROM, TO) where HAS_FROM, HAS_TO.
 */
static void
line(struct dcfg_plan *pl, struct dcfg_output *out, const struct plan_unit *u,
    const struct plan_member *m, size_t n, int first, int last,
    int has_from, uint64_t from, int has_to, uint64_t to)
{
	int lead = 1;
	size_t i, j;

	if (pl->counting) {
		pl->n_lines++;
		return;
	}
	for (i = 0; i < n; i++) {
		if ((m[i].where == PLAN_FIRST && !first) || (m[i].where == PLAN_LAST && !last))
			continue;
		if (m[i].is_thread)
			word(out, &lead, "-t", pl->threads[m[i].index].tid);
		else
			word(out, &lead, "-p", pl->procs[m[i].index].pid);
	}
	if (u->kind == PLAN_WHOLE)     /* the threads selected, the same in every process */
		for (i = 0; i < pl->o->n_tids; i++) {
			for (j = 0; j < i && pl->o->tids[j] != pl->o->tids[i]; j++)
				;
			if (j == i)
				word(out, &lead, "-t", pl->o->tids[i]);
		}
	if (has_from)
		word(out, &lead, "--from-icount", from);
	if (has_to)
		word(out, &lead, "--to-icount", to);
	if ((has_from || has_to) && pl->o->align) {
		dcfg_out_str(out, " --dcfg ");
		dcfg_out_str(out, pl->o->dcfg_path);
	}
	/*
	 * The plan's shape: its size, alignment and selection, so that a merge
	 * knows which plan a shard is of and which shards it has.
	 */
	dcfg_out_str(out, " --shard ");
	dcfg_out_u64(out, ++pl->line_no);
	dcfg_out_char(out, '/');
	dcfg_out_u64(out, pl->n_lines);
	if (pl->o->align) {
		dcfg_out_str(out, " --align ");
		dcfg_out_u64(out, pl->o->align);
	}
	if (pl->n_of_pids) {
		dcfg_out_str(out, " --of-process ");
		dcfg_put_ids(pl->of_pids, pl->n_of_pids, dcfg_put_output, out);
	}
	if (pl->n_of_tids) {
		dcfg_out_str(out, " --of-thread ");
		dcfg_put_ids(pl->of_tids, pl->n_of_tids, dcfg_put_output, out);
	}
	dcfg_out_char(out, '\n');
}

/* A split thread's lines: its cuts found again, one after another. */
static void
split_lines(struct dcfg_plan *pl, struct dcfg_output *out, const struct plan_unit *u,
    const struct plan_member *m, size_t n)
{
	struct plan_space sp;
	uint64_t i, at = 0, from = 0, c;

	dcfg_plan_space_init(&sp, pl, &pl->threads[u->thread]);
	for (i = 0; i < u->pieces; i++) {
		int cut = i + 1 < u->pieces &&
		    (u->nearest ? dcfg_plan_nearest(&sp, at,
		    dcfg_plan_share(sp.t->edges, i + 1, u->pieces), u->max, &c) :
		    dcfg_plan_fill(&sp, at, u->fill, &c));
		line(pl, out, u, m, n, i == 0, !cut, i > 0, from, cut, cut ? dcfg_plan_pos(&sp, c) : 0);
		if (!cut)
			break;
		at = dcfg_plan_cum(&sp, c);
		from = dcfg_plan_pos(&sp, c);
	}
}

/* The lines, or with PL->counting only their number. */
static void
all_lines(struct dcfg_plan *pl, struct dcfg_output *out)
{
	size_t i, j;

	for (i = 0; i < pl->n_members; i = j) {
		const struct plan_unit *u = &pl->units[pl->members[i].unit];
		for (j = i; j < pl->n_members && pl->members[j].unit == pl->members[i].unit; j++)
			;
		if (u->kind == PLAN_SPLIT)
			split_lines(pl, out, u, pl->members + i, j - i);
		else
			line(pl, out, u, pl->members + i, j - i, 1, 1, 0, 0, 0, 0);
		if (dcfg_output_failed(out))
			break;
	}
}

int
dcfg_plan_lines(struct dcfg_plan *pl, struct dcfg_output *out)
{
	if (dcfg_ids_ascending(pl->o->pids, pl->o->n_pids, &pl->of_pids, &pl->n_of_pids) < 0 ||
	    dcfg_ids_ascending(pl->o->tids, pl->o->n_tids, &pl->of_tids, &pl->n_of_tids) < 0)
		return -1;
	if (pl->n_members > 0)
		qsort(pl->members, pl->n_members, sizeof *pl->members, by_line);
	pl->counting = 1;
	pl->n_lines = pl->line_no = 0;
	all_lines(pl, out);
	pl->counting = 0;
	all_lines(pl, out);
	return 0;
}
