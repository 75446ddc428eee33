/*
 * A thread's slices (profile_internal.h) and the lines of its file: the
 * head, the markers, each slice's comment lines and vector, the trailer.
 */
#include "profile_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/vec.h"
#include "stream/provenance.h"

int
dcfg_pinpoints_thread_init(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint64_t tid)
{
	*t = (struct dcfg_pinpoints_thread){ .tid = tid, .last_block = DCFG_PINPOINTS_NONE,
	    .piece_kind = 'h', .threshold = pr->o->slice_size };
	if ((t->counts = calloc(pr->n_blocks + 1, sizeof *t->counts)) == NULL ||
	    (t->dim = calloc(pr->n_blocks + 1, sizeof *t->dim)) == NULL ||
	    (t->by_dim = malloc((pr->n_blocks + 1) * sizeof *t->by_dim)) == NULL ||
	    (t->pc_counts = calloc(pr->n_pcs + 1, sizeof *t->pc_counts)) == NULL ||
	    (t->marked = calloc(pr->n_pcs + 1, 1)) == NULL ||
	    dcfg_tally_init(&t->tally, pr->n_blocks, 1) < 0) {
		dcfg_pinpoints_thread_free(t);
		return -1;
	}
	if (pr->starts) {
		/* --part --starts: the threshold it comes in with, for the merge to check */
		t->no_start = dcfg_pinpoints_starts_threshold(pr, tid, &t->threshold) < 0;
		dcfg_pinpoints_part_threshold(pr, t);
	}
	return 0;
}

void
dcfg_pinpoints_thread_free(struct dcfg_pinpoints_thread *t)
{
	if (t->own_out && t->out) {
		dcfg_output_discard(t->out);
		free(t->out);
	}
	t->out = NULL;
	free(t->path);
	free(t->counts);
	free(t->dim);
	free(t->by_dim);
	free(t->pc_counts);
	free(t->marked);
	dcfg_tally_free(&t->tally);
	free(t->held.v);
	free(t->scratch.v);
	dcfg_pinpoints_summary_free(t);
}

/* ---- lines ---- */

static void
out_words(struct dcfg_output *out, const char *s)
{
	dcfg_out_escaped_word(out, s, " ");
}

static void
out_num_line(struct dcfg_output *out, const char *what, uint64_t n)
{
	dcfg_out_str(out, what);
	dcfg_out_u64(out, n);
	dcfg_out_char(out, '\n');
}

static const char *
image_path(const struct dcfg *d, const struct dcfg_image *im)
{
	return im ? dcfg_file_name(d, im->file_name_id) : NULL;
}

/* "S: 0xPC COUNT IMAGE 0xLOW + 0xOFFSET # FILE:LINE", or "M: 0xPC COUNT no_image 0". */
static void
write_marker(struct dcfg_pinpoints *pr, struct dcfg_output *out, uint32_t b, uint64_t count)
{
	const struct dcfg_block *blk = &pr->d->blocks[pr->p->blocks.first + b];
	const struct dcfg_image *im = dcfg_block_image(pr->d, blk);
	const char *path = image_path(pr->d, im);
	const struct dcfg_source_line *src;
	const char *file;

	dcfg_out_str(out, path ? "S: " : "M: ");
	dcfg_out_hex(out, blk->addr);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, count);
	if (path == NULL) {
		dcfg_out_str(out, " no_image 0\n");
		return;
	}
	dcfg_out_char(out, ' ');
	out_words(out, path);
	dcfg_out_char(out, ' ');
	dcfg_out_hex(out, im->load_addr);
	dcfg_out_str(out, " + ");
	dcfg_out_hex(out, blk->addr - im->load_addr);
	dcfg_out_str(out, " # ");
	src = dcfg_source_at(pr->d, pr->p, blk->addr);
	file = src ? dcfg_file_name(pr->d, src->file_name_id) : NULL;
	if (file == NULL) {
		dcfg_out_str(out, "Unknown:0\n");
		return;
	}
	out_words(out, file);
	dcfg_out_char(out, ':');
	dcfg_out_u64(out, src->line);
	dcfg_out_char(out, '\n');
}

const char *
dcfg_pinpoints_rule_name(const struct dcfg_pinpoints_options *o)
{
	return !o->loop_aligned ? "fixed" : o->loop_grid ? "loop-grid" : "loop";
}

/*
 * The C: line: the options that make the profile, not the files, so that
 * a merge of shards' parts writes the line one run writes.
 */
void
dcfg_pinpoints_write_options(struct dcfg_pinpoints *pr, struct dcfg_output *out)
{
	const struct dcfg_pinpoints_options *o = pr->o;
	size_t k;

	dcfg_out_str(out, "C: sum:dummy Command: dcfg-profile --slice-size ");
	dcfg_out_u64(out, o->slice_size);
	if (o->loop_aligned)
		dcfg_out_str(out, o->loop_grid ? " --loop-grid" : " --loop-aligned");
	for (k = 0; k < o->n_loop_images; k++) {
		dcfg_out_str(out, " --loop-image ");
		out_words(out, o->loop_images[k]);
	}
	for (k = 0; k < o->n_exclude; k++) {
		dcfg_out_str(out, " --exclude-image ");
		out_words(out, o->exclude[k]);
	}
	dcfg_out_char(out, '\n');
}

/* The lines before the first marker: what the file is, P:, C:, one G: per image. */
static void
write_head(struct dcfg_pinpoints *pr, struct dcfg_output *out, uint64_t tid)
{
	const struct dcfg *d = pr->d;
	const struct dcfg_pinpoints_options *o = pr->o;
	uint32_t i;

	dcfg_out_str(out, "# dcfg-profile 1 slice-size=");
	dcfg_out_u64(out, o->slice_size);
	dcfg_out_str(out, " rule=");
	dcfg_out_str(out, dcfg_pinpoints_rule_name(o));
	dcfg_out_str(out, " dcfg=");
	dcfg_out_crc_bytes(out, d->crc32, d->bytes);
	dcfg_out_str(out, " process=");
	dcfg_out_u64(out, pr->p->pid);
	out_num_line(out, " thread=", tid);
	out_num_line(out, "P: ", tid);
	if (pr->c_line) {
		dcfg_out_str(out, pr->c_line);
		dcfg_out_char(out, '\n');
	} else {
		dcfg_pinpoints_write_options(pr, out);
	}
	for (i = 0; i < pr->p->images.count; i++) {
		const struct dcfg_image *im = &d->images[pr->p->images.first + i];
		const char *path = image_path(d, im);
		if (path == NULL)
			continue;
		dcfg_out_str(out, "G: ");
		out_words(out, path);
		dcfg_out_str(out, " LowAddress: ");
		dcfg_out_hex(out, im->load_addr);
		/* the DCFG has no link-time address: the load address is what was added to it */
		dcfg_out_str(out, " LoadOffset: ");
		dcfg_out_hex(out, im->load_addr);
		dcfg_out_char(out, '\n');
	}
}

static int
open_file(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, struct dcfg_error *err)
{
	char *path;
	int n;

	if (pr->o->has_tid) {
		t->out = pr->o->out;
		return 0;
	}
	n = snprintf(NULL, 0, "%s.T.%llu.bb", pr->o->base, (unsigned long long)t->tid);
	if (n < 0 || (path = malloc((size_t)n + 1)) == NULL)
		return dcfg_error_set(err, pr->o->base, "out of memory");
	snprintf(path, (size_t)n + 1, "%s.T.%llu.bb", pr->o->base, (unsigned long long)t->tid);
	if (dcfg_output_check_inputs(path, pr->o->inputs, pr->o->n_inputs, err) < 0) {
		free(path);
		return -1;
	}
	if ((t->out = malloc(sizeof *t->out)) == NULL) {
		free(path);
		return dcfg_error_set(err, pr->o->base, "out of memory");
	}
	if (dcfg_output_open(t->out, path, err) < 0) {
		free(t->out);
		t->out = NULL;
		free(path);
		return -1;
	}
	t->path = path;   /* the output's name in messages */
	t->own_out = 1;
	return 0;
}

uint32_t
dcfg_pinpoints_dim(struct dcfg_pinpoints_thread *t, uint32_t b)
{
	if (t->dim[b] == 0) {
		t->by_dim[t->n_dims] = b;
		t->dim[b] = ++t->n_dims;
	}
	return t->dim[b];
}

static int
pair_cmp(const void *a, const void *b)
{
	const struct dcfg_pinpoints_pair *x = a, *y = b;

	return x->dim < y->dim ? -1 : x->dim > y->dim;
}

/* The open slice's vector, by dimension, into SL (room reserved as blocks were touched). */
void
dcfg_pinpoints_take_vector(struct dcfg_pinpoints_thread *t, struct dcfg_pinpoints_slice *sl)
{
	size_t i, n = t->tally.n_touched;

	for (i = 0; i < n; i++) {
		uint32_t b = t->tally.touched[i];
		sl->v[i] = (struct dcfg_pinpoints_pair){ t->dim[b], t->tally.value[b] };
	}
	sl->n = n;
	dcfg_tally_clear(&t->tally);
	if (n > 1)   /* an empty piece of a part may have no room at all */
		qsort(sl->v, n, sizeof *sl->v, pair_cmp);
}

static uint64_t
digits(uint64_t v)
{
	uint64_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * Stock SimPoint 3.2 reads a line with fgets into a buffer of 1 MiB, so at
 * most 1 MiB - 1 bytes with the newline, and refuses a line that fills
 * them: 1 MiB - 2 bytes or more before the newline (Intel's build reads
 * 16 MiB). A warning, as the file is right all the same.
 */
#define SIMPOINT_LINE_MAX ((uint64_t)1024 * 1024 - 2)

static void
check_line_length(struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t,
    const struct dcfg_pinpoints_slice *sl)
{
	uint64_t len = 0;
	char msg[320];
	size_t i;

	for (i = 0; i < sl->n; i++)   /* "T:" or " :", DIM, ':', VALUE */
		len += 2 + digits(sl->v[i].dim) + 1 + digits(sl->v[i].value);
	if (len < SIMPOINT_LINE_MAX || pr->o->warning == NULL)
		return;
	snprintf(msg, sizeof msg, "thread %llu: slice %llu (ending at instruction %llu): its T line "
	    "is %llu bytes long; stock SimPoint refuses a line of %llu bytes or more (Intel's "
	    "build reads 16 MiB)", (unsigned long long)t->tid, (unsigned long long)t->slices,
	    (unsigned long long)sl->end, (unsigned long long)len,
	    (unsigned long long)SIMPOINT_LINE_MAX);
	pr->o->warning(pr->o->ctx, msg);
}

/*
 * The file is opened, and its head written, with its first slice: a
 * thread whose every block is excluded gets none.
 */
static int
write_slice(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, const struct dcfg_pinpoints_slice *sl)
{
	struct dcfg_output *out;
	size_t i;

	if (!t->headed) {
		if (open_file(pr, t, pr->err) < 0)
			return -1;
		write_head(pr, t->out, t->tid);
		write_marker(pr, t->out, t->first_block, 1);
		t->marked[pr->pc_of[t->first_block]] = 1;
		t->headed = 1;
	}
	out = t->out;

	dcfg_out_str(out, "# Slice ending at ");
	dcfg_out_u64(out, sl->end);
	out_num_line(out, " global ", sl->end);
	out_num_line(out, "# Unfiltered count ", sl->unfiltered);
	for (i = 0; i < sl->n; i++) {
		dcfg_out_str(out, i ? " :" : "T:");
		dcfg_out_u64(out, sl->v[i].dim);
		dcfg_out_char(out, ':');
		dcfg_out_u64(out, sl->v[i].value);
	}
	dcfg_out_char(out, '\n');
	t->slices++;
	check_line_length(pr, t, sl);
	write_marker(pr, out, sl->block, sl->count);
	t->marked[pr->pc_of[sl->block]] = 1;
	return 0;
}

int
dcfg_pinpoints_overflow(struct dcfg_pinpoints *pr)
{
	pr->overflow = 1;
	return dcfg_error_set(pr->err, pr->name, "process %llu: a count does not fit in 64 bits",
	    (unsigned long long)pr->p->pid);
}

#define overflow dcfg_pinpoints_overflow

/*
 * Boundary: the open slice ends before entry B (already counted). A slice
 * of nothing but excluded blocks is not ended: it joins the next one.
 */
int
dcfg_pinpoints_boundary(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b,
    uint64_t start, uint64_t count)
{
	struct dcfg_pinpoints_slice tmp;

	if (t->tally.n_touched == 0)
		return 0;
	if (t->pending && write_slice(pr, t, &t->held) < 0)
		return -1;
	dcfg_pinpoints_take_vector(t, &t->scratch);
	t->scratch.end = start;
	t->scratch.unfiltered = t->unfiltered;
	t->scratch.block = b;
	t->scratch.count = count;
	tmp = t->held;
	t->held = t->scratch;
	t->scratch = tmp;
	t->pending = 1;
	t->unfiltered = 0;
	return 0;
}

/* Room in both slices for every block the open slice holds, so that closing it cannot fail. */
static int
reserve_room(struct dcfg_pinpoints_thread *t)
{
	size_t n = t->tally.n_touched;

	if (n <= t->held.cap && n <= t->scratch.cap)
		return 0;
	if (dcfg_reserve((void **)&t->held.v, &t->held.cap, n, sizeof *t->held.v) < 0 ||
	    dcfg_reserve((void **)&t->scratch.v, &t->scratch.cap, n, sizeof *t->scratch.v) < 0)
		return -1;
	return 0;
}

int
dcfg_pinpoints_add_instrs(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b,
    uint64_t x)
{
	uint64_t *v = dcfg_tally_at(&t->tally, b);

	if (__builtin_add_overflow(*v, x, v))
		return overflow(pr);
	return reserve_room(t) < 0 ? dcfg_error_set(pr->err, pr->name, "out of memory") : 0;
}

int
dcfg_pinpoints_add(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b,
    uint64_t times)
{
	uint64_t x, *v;

	if (__builtin_mul_overflow(times, pr->blocks[b].ni, &x) ||
	    __builtin_add_overflow(t->counts[b], times, &t->counts[b]) ||
	    __builtin_add_overflow(t->pc_counts[pr->pc_of[b]], times, &t->pc_counts[pr->pc_of[b]]) ||
	    __builtin_add_overflow(t->unfiltered, x, &t->unfiltered) ||
	    __builtin_add_overflow(t->total_unfiltered, x, &t->total_unfiltered))
		return overflow(pr);
	dcfg_pinpoints_dim(t, b);   /* excluded too: a marker may be theirs */
	t->last_block = b;
	if (pr->blocks[b].excluded)
		return 0;
	v = dcfg_tally_at(&t->tally, b);
	if (__builtin_add_overflow(*v, x, v) || __builtin_add_overflow(t->total, x, &t->total))
		return overflow(pr);
	return reserve_room(t) < 0 ? dcfg_error_set(pr->err, pr->name, "out of memory") : 0;
}

int
dcfg_pinpoints_entry(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t, uint32_t b)
{
	if (!t->started) {
		t->first_block = b;
		t->started = 1;
		if (pr->o->part && !pr->o->summary)
			dcfg_pinpoints_part_first(pr, t);
	}
	if (pr->o->summary)   /* the summary needs the eligible entries' places alone */
		return pr->blocks[b].eligible ? dcfg_pinpoints_summary_eligible(pr, t) : 0;
	if (pr->blocks[b].eligible && dcfg_pinpoints_chained(pr->o)) {
		if (t->pos >= t->threshold) {
			if (__builtin_add_overflow(t->pos, pr->o->slice_size, &t->threshold))
				return overflow(pr);
			if (pr->o->part)   /* its threshold known (--starts): a boundary for sure */
				dcfg_pinpoints_piece(pr, t, 'b', b);
			else if (dcfg_pinpoints_boundary(pr, t, b, t->pos, t->pc_counts[pr->pc_of[b]] + 1) < 0)
				return -1;
		}
	} else if (pr->blocks[b].eligible) {
		uint64_t q = t->pos / pr->o->slice_size;
		if (pr->o->part) {
			/* a shard's first eligible entry may be a boundary: the merge decides */
			if (!t->seen_eligible || q > t->last_q)
				dcfg_pinpoints_piece(pr, t, t->seen_eligible ? 'b' : 'c', b);
			t->seen_eligible = 1;
			t->last_q = q;
		} else if (q > t->last_q) {
			t->last_q = q;
			if (dcfg_pinpoints_boundary(pr, t, b, t->pos, t->pc_counts[pr->pc_of[b]] + 1) < 0)
				return -1;
		}
	}
	return dcfg_pinpoints_add(pr, t, b, 1);
}

int
dcfg_pinpoints_thread_end(struct dcfg_pinpoints *pr, struct dcfg_pinpoints_thread *t)
{
	struct dcfg_output *out;
	uint32_t b;
	size_t i;

	if (!t->started)
		return 1;
	if (t->tally.n_touched > 0) {
		if (t->pending && write_slice(pr, t, &t->held) < 0)
			return -1;
		dcfg_pinpoints_take_vector(t, &t->held);
		t->held.unfiltered = t->unfiltered;
		t->pending = 1;
	} else if (t->pending) {
		if (__builtin_add_overflow(t->held.unfiltered, t->unfiltered, &t->held.unfiltered))
			return overflow(pr);
	} else {
		return 1;
	}
	t->held.end = t->pos;
	t->held.block = t->last_block;
	t->held.count = t->pc_counts[pr->pc_of[t->last_block]];
	if (write_slice(pr, t, &t->held) < 0)
		return -1;
	t->pending = 0;
	out = t->out;
	out_num_line(out, "Dynamic instruction count ", t->total);
	out_num_line(out, "Dynamic unfiltered instruction count ", t->total_unfiltered);
	out_num_line(out, "SliceSize: ", pr->o->slice_size);
	/* the blocks the thread entered, by dimension: every marker's is one */
	for (i = 0; i < t->n_dims; i++) {
		const struct dcfg_block *blk;
		b = t->by_dim[i];
		blk = &pr->d->blocks[pr->p->blocks.first + b];
		dcfg_out_str(out, "Block id: ");
		dcfg_out_u64(out, i + 1);
		dcfg_out_char(out, ' ');
		dcfg_out_hex(out, blk->addr);
		dcfg_out_char(out, ':');
		/* PinPoints' <first PC>:<last PC>: the last instruction's address */
		dcfg_out_hex(out, dcfg_pinpoints_last_pc(blk));
		dcfg_out_str(out, " static instructions: ");
		dcfg_out_u64(out, blk->num_instrs);
		dcfg_out_str(out, " block count: ");
		dcfg_out_u64(out, t->counts[b]);
		out_num_line(out, " block size: ", blk->size);
	}
	dcfg_out_str(out, "End of bb\n");
	return 0;
}
