/*
 * dcfg-profile --part: what a shard's stream gives toward the profiles
 * (dcfg-profile(1), SHARDS). A shard knows which of its entries are
 * boundaries but one: whether its first eligible entry is depends on the
 * last eligible entry before the shard. So each thread's entries are
 * written as pieces, each the vector of the entries from one possible
 * boundary to the next:
 *
 *   f TID NODE START                                   the first entry
 *   n TID NODE ...                                     the piece's new blocks
 *   p TID h UNFILTERED :NODE:INSTRS ...                the head, before any
 *   p TID c NODE START COUNT UNFILTERED :NODE:INSTRS   from the candidate
 *   p TID b NODE START COUNT UNFILTERED :NODE:INSTRS   from a boundary
 *   t TID FIRST LAST POSITION LAST_Q FILTERED UNFILTERED
 *   c TID :NODE:ENTRIES ...
 *
 * START is where the shard's first entry starts: past 0 at a thread's
 * start when its first edge leaves a block it never entered, as the
 * trace of a region does. COUNT is the entry's count in the shard, its PC's executions (the merge
 * adds the earlier shards' entries of the blocks at that PC); FIRST and LAST are the shard's first and last entries' nodes
 * and LAST_Q the grid interval of its last eligible entry ("-": none).
 * Under LoopPoint's rule a part is made with each thread's threshold
 * known (--starts), so that every piece but the head starts at a
 * boundary; an "s TID THRESHOLD" line, first, says which threshold it came
 * in with, and LAST_Q is the threshold it leaves.
 *
 * A shard of a plan of the whole trace may hold several processes, and a
 * merge writes the files of one of them, as one run does. So the part
 * keeps every process of the stream (process=all on its first line), or,
 * with -p, the one (process=PID) even when the shard has nothing of it,
 * and its lines come in a section per process, each once:
 *
 *   # dcfg-profile-part 3 slice-size=N rule=RULE dcfg=CRC:BYTES process=PID|all
 *   C: ...                       the options, as the profiles' "C:" line
 *   # selection ...              the shard's (provenance.h)
 *   # process PID                then its f, s, p, t and c lines
 *   # trace CRC:BYTES
 *
 * A summary (--summary, profile_summary.c) is laid out the same, its
 * first line ending " kind=summary".
 *
 * An "n" line, before its piece's "p" line, lists the blocks first
 * entered in the shard within the piece, in the order of those entries:
 * the merge numbers the dimensions from them, each block the first time
 * a shard lists it, as one run numbers them by the thread's first entries.
 */
#include "profile_internal.h"

#include "common/vec.h"
#include "stream/provenance.h"
#include "stream/writer.h"

/* The vector, each dimension (the shard's) as its block's node id. */
static void
out_vector(struct dcfg_output *out, const struct dcfg_pinpoints *pr,
    const struct dcfg_pinpoints_thread *t, const struct dcfg_pinpoints_slice *sl)
{
	size_t i;

	for (i = 0; i < sl->n; i++) {
		dcfg_out_str(out, " :");
		dcfg_out_u64(out, pr->blocks[t->by_dim[sl->v[i].dim - 1]].node);
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

/* "n TID NODE ...": the blocks first entered since the last "n" line, if any. */
static void
list_new_blocks(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_output *out = pr->o->out;

	if (t->dims_listed == t->n_dims)
		return;
	dcfg_out_str(out, "n ");
	dcfg_out_u64(out, t->tid);
	for (; t->dims_listed < t->n_dims; t->dims_listed++)
		out_node_or_none(out, pr, t->by_dim[t->dims_listed]);
	dcfg_out_char(out, '\n');
}

void
dcfg_pinpoints_piece(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, char kind, uint32_t b)
{
	struct dcfg_output *out = pr->o->out;

	list_new_blocks(pr, t);
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
	dcfg_pinpoints_take_vector(t, &t->scratch);
	out_vector(out, pr, t, &t->scratch);
	t->unfiltered = 0;
	t->piece_kind = kind;
	t->piece_block = b;
	t->piece_start = t->pos;
	t->piece_count = b == DCFG_PINPOINTS_NONE ? 0 : t->pc_counts[pr->pc_of[b]] + 1;
}

void
dcfg_pinpoints_part_threshold(struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t)
{
	struct dcfg_output *out = pr->o->out;

	dcfg_out_str(out, "s ");
	dcfg_out_u64(out, t->tid);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, t->threshold);
	dcfg_out_char(out, '\n');
}

void
dcfg_pinpoints_part_first(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_output *out = pr->o->out;

	dcfg_out_str(out, "f ");
	dcfg_out_u64(out, t->tid);
	out_node_or_none(out, pr, t->first_block);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, t->pos);
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
	for (i = 0; i < t->n_dims; i++) {
		uint32_t b = t->by_dim[i];
		dcfg_out_str(out, " :");
		dcfg_out_u64(out, pr->blocks[b].node);
		dcfg_out_char(out, ':');
		dcfg_out_u64(out, t->counts[b]);
	}
	dcfg_out_char(out, '\n');
	return 0;
}

static void
part_head(struct dcfg_pinpoints *pr)
{
	struct dcfg_output *out = pr->o->out;

	dcfg_out_str(out, DCFG_PINPOINTS_PART_MAGIC "slice-size=");
	dcfg_out_u64(out, pr->o->slice_size);
	dcfg_out_str(out, " rule=");
	dcfg_out_str(out, dcfg_pinpoints_rule_name(pr->o));
	dcfg_out_str(out, " dcfg=");
	dcfg_out_crc_bytes(out, pr->d->crc32, pr->d->bytes);
	dcfg_out_str(out, " process=");
	if (pr->o->has_pid)
		dcfg_out_u64(out, pr->o->pid);
	else
		dcfg_out_str(out, "all");
	/* a summary (profile_summary.c) is read by the checks of parts, and told apart by this */
	dcfg_out_str(out, pr->o->summary ? " kind=summary\n" : "\n");
	dcfg_pinpoints_write_options(pr, out);
}

void
dcfg_pinpoints_part_begin(struct dcfg_pinpoints *pr)
{
	if (pr->part_begun)
		return;
	pr->part_begun = 1;
	part_head(pr);
	if (pr->has_sel)
		dcfg_stream_write_selection(pr->o->out, &pr->sel);
}

int
dcfg_pinpoints_part_process_end(struct dcfg_pinpoints *pr)
{
	size_t i;

	for (i = 0; i < pr->n_threads; i++)
		if (dcfg_pinpoints_part_thread_end(pr, pr->threads[i]) < 0)
			return -1;
	return 0;
}

int
dcfg_pinpoints_part_process(struct dcfg_pinpoints *pr, const struct dcfg_process *p)
{
	size_t i;

	if (pr->p != NULL) {
		if (dcfg_pinpoints_part_process_end(pr) < 0)
			return -1;
		if (dcfg_reserve((void **)&pr->parted, &pr->cap_parted, pr->n_parted + 1,
		    sizeof *pr->parted) < 0)
			return dcfg_error_set(pr->err, pr->name, "out of memory");
		pr->parted[pr->n_parted++] = pr->p->pid;
		dcfg_pinpoints_process_free(pr);
	}
	/* its threads' state went with its section: a second section would start them again */
	for (i = 0; i < pr->n_parted; i++)
		if (pr->parted[i] == p->pid)
			return dcfg_error_set(pr->err, pr->name, "process %llu again, after process "
			    "%llu: a part holds each process once (streams joined together are not "
			    "one shard)", (unsigned long long)p->pid,
			    (unsigned long long)pr->parted[pr->n_parted - 1]);
	if (dcfg_pinpoints_setup_process(pr, p) < 0)
		return -1;
	/* the thresholds of this process's threads (LoopPoint's rule) */
	dcfg_pinpoints_starts_free(pr);
	if (pr->o->starts && dcfg_pinpoints_starts_load(pr) < 0)
		return -1;
	dcfg_pinpoints_part_begin(pr);
	dcfg_stream_write_process(pr->o->out, p->pid);
	return 0;
}

/*
 * The stream's selection and trace (provenance.h), which the part records
 * for the merge's checks; nothing may follow the trace line.
 */
int
dcfg_pinpoints_part_meta(struct dcfg_pinpoints *pr, const struct dcfg_stream_record *r,
    struct dcfg_error *err)
{
	const char *why;

	if (pr->traced)
		return dcfg_error_at(err, pr->name, r->lineno, 1, "the stream goes on after its "
		    "\"# trace\" line: streams joined together are not one shard");
	if (dcfg_is_selection_line(r->line, r->len)) {
		if (pr->has_sel || pr->part_begun)
			return dcfg_error_at(err, pr->name, r->lineno, 1, "a second \"# selection\" "
			    "line, or one after \"# process\"");
		if (dcfg_recorded_selection_parse(r->line, r->len, &pr->sel, &why) < 0)
			return dcfg_error_at(err, pr->name, r->lineno, 1, "%s", why);
		pr->has_sel = 1;
	} else if (dcfg_is_trace_line(r->line, r->len)) {
		if (dcfg_trace_id_parse(r->line, r->len, &pr->trace_crc, &pr->trace_bytes) < 0)
			return dcfg_error_at(err, pr->name, r->lineno, 1,
			    "a \"# trace\" line that is not \"# trace CRC:BYTES\"");
		pr->traced = 1;
	}
	return 0;
}
