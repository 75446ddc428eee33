/*
 * dcfg-profile --part: what a shard's stream gives toward the profiles
 * (dcfg-profile(1), SHARDS). A shard knows which of its entries are
 * boundaries but one: whether its first eligible entry is depends on the
 * last eligible entry before the shard. So each thread's entries are
 * written as pieces, each the vector of the entries from one possible
 * boundary to the next:
 *
 *   f TID NODE                                         the first entry
 *   p TID h UNFILTERED :NODE:INSTRS ...                the head, before any
 *   p TID c NODE START COUNT UNFILTERED :NODE:INSTRS   from the candidate
 *   p TID b NODE START COUNT UNFILTERED :NODE:INSTRS   from a boundary
 *   t TID FIRST LAST POSITION LAST_Q FILTERED UNFILTERED
 *   c TID :NODE:ENTRIES ...
 *
 * COUNT is the entry's count in the shard, its PC's executions (the merge
 * adds the earlier shards' entries of the blocks at that PC); FIRST and LAST are the shard's first and last entries' nodes
 * and LAST_Q the grid interval of its last eligible entry ("-": none).
 * Under LoopPoint's rule a part is made with each thread's threshold
 * known (--starts), so that every piece but the head starts at a
 * boundary; an "s TID THRESHOLD" line, first, says which threshold it came
 * in with, and LAST_Q is the threshold it leaves.
 */
#include "profile_internal.h"

#include "stream/provenance.h"
#include "stream/writer.h"

static void
out_vector(struct dcfg_output *out, const struct dcfg_pinpoints_slice *sl)
{
	size_t i;

	for (i = 0; i < sl->n; i++) {
		dcfg_out_str(out, " :");
		dcfg_out_u64(out, sl->v[i].node);
		dcfg_out_char(out, ':');
		dcfg_out_u64(out, sl->v[i].value);
	}
	dcfg_out_char(out, '\n');
}

static void
out_node_or_none(struct dcfg_output *out, const struct dcfg_pinpoints *pr, uint32_t b)
{
	dcfg_out_char(out, ' ');
	if (b == DCFG_PINPOINTS_NONE)
		dcfg_out_char(out, '-');
	else
		dcfg_out_u64(out, pr->blocks[b].node);
}

void
dcfg_pinpoints_piece(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, char kind, uint32_t b)
{
	struct dcfg_output *out = pr->o->out;

	dcfg_out_str(out, "p ");
	dcfg_out_u64(out, t->tid);
	dcfg_out_char(out, ' ');
	dcfg_out_char(out, t->piece_kind);
	if (t->piece_kind != 'h') {
		out_node_or_none(out, pr, t->piece_block);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, t->piece_start);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, t->piece_count);
	}
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, t->unfiltered);
	dcfg_pinpoints_take_vector(pr, t, &t->scratch);
	out_vector(out, &t->scratch);
	t->unfiltered = 0;
	t->piece_kind = kind;
	t->piece_block = b;
	t->piece_start = t->pos;
	t->piece_count = b == DCFG_PINPOINTS_NONE ? 0 : t->pc_counts[pr->pc_of[b]] + 1;
}

void
dcfg_pinpoints_part_first(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_output *out = pr->o->out;

	dcfg_out_str(out, "f ");
	dcfg_out_u64(out, t->tid);
	out_node_or_none(out, pr, t->first_block);
	dcfg_out_char(out, '\n');
}

int
dcfg_pinpoints_part_thread_end(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_output *out = pr->o->out;
	size_t i;

	if (pr->o->summary)
		return dcfg_pinpoints_summary_thread_end(pr, t);
	dcfg_pinpoints_piece(pr, t, 'h', DCFG_PINPOINTS_NONE);
	dcfg_out_str(out, "t ");
	dcfg_out_u64(out, t->tid);
	out_node_or_none(out, pr, t->started ? t->first_block : DCFG_PINPOINTS_NONE);
	out_node_or_none(out, pr, t->last_block);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, t->pos);
	dcfg_out_char(out, ' ');
	if (dcfg_pinpoints_chained(pr->o))   /* the threshold it leaves for the next shard */
		dcfg_out_u64(out, t->threshold);
	else if (t->seen_eligible)
		dcfg_out_u64(out, t->last_q);
	else
		dcfg_out_char(out, '-');
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, t->total);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, t->total_unfiltered);
	dcfg_out_str(out, "\nc ");
	dcfg_out_u64(out, t->tid);
	for (i = 0; i < pr->n_blocks; i++) {
		uint32_t b = pr->by_node[i];
		if (t->counts[b] == 0)
			continue;
		dcfg_out_str(out, " :");
		dcfg_out_u64(out, pr->blocks[b].node);
		dcfg_out_char(out, ':');
		dcfg_out_u64(out, t->counts[b]);
	}
	dcfg_out_char(out, '\n');
	return 0;
}

void
dcfg_pinpoints_part_head(struct dcfg_pinpoints *pr)
{
	struct dcfg_output *out = pr->o->out;

	dcfg_out_str(out, "# dcfg-profile-part 1 slice-size=");
	dcfg_out_u64(out, pr->o->slice_size);
	dcfg_out_str(out, " rule=");
	dcfg_out_str(out, dcfg_pinpoints_rule_name(pr->o));
	dcfg_out_str(out, " dcfg=");
	dcfg_out_crc_bytes(out, pr->d->crc32, pr->d->bytes);
	dcfg_out_str(out, " process=");
	dcfg_out_u64(out, pr->p->pid);
	/* a summary (profile_summary.c) is read by the checks of parts, and told apart by this */
	dcfg_out_str(out, pr->o->summary ? " kind=summary\n" : "\n");
	dcfg_pinpoints_write_options(pr, out);
}
