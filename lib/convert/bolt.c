/*
 * --to bolt: one image's edges as BOLT's .fdata branch lines (bolt.h).
 *
 * BOLT cuts a function into blocks at branches and branch targets only,
 * never after a call, and it infers a fall-through's count from its
 * block's count less the branches taken out of it. So a line is written
 * for each branch taken, each call and each entry from outside, and a
 * fall-through (or the way on after a call returns) only where BOLT has a
 * block boundary the DCFG proves: after a branch instruction, or at a
 * branch target. Any other fall-through would land in the middle of
 * BOLT's block, which BOLT takes for a stale profile.
 */
#include "bolt.h"
#include "bolt_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/* A block of the run's image, or NULL: for a special node or another image's block. */
static const struct dcfg_block *
image_block(const struct bolt_run *r, uint32_t node)
{
	const struct dcfg_block *b = dcfg_block_by_node(r->d, r->p, node);

	return b != NULL && b->image == r->image ? b : NULL;
}

static uint32_t
block_index(const struct bolt_run *r, const struct dcfg_block *b)
{
	return (uint32_t)(b - r->d->blocks) - r->p->blocks.first;
}

/* A taken branch: dcfg_edge_kind_is_branch counts the fall-through in. */
static int
is_branch(enum dcfg_edge_kind k)
{
	return dcfg_edge_kind_is_branch(k) && k != DCFG_EDGE_FALL_THROUGH;
}

/* The block's first and last instruction's offsets. */
static uint64_t
last_instr(const struct dcfg_block *b)
{
	return b->offset + b->last_instr_offset;
}

/* Marks what ran, which blocks end with a branch and which a branch of their function lands on. */
static void
mark_blocks(struct bolt_run *r)
{
	const struct dcfg_process *p = r->p;
	uint32_t i;

	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &r->d->edges[p->edges.first + i];
		const struct dcfg_block *s = image_block(r, e->source), *t = image_block(r, e->target);
		if (e->total > 0) {
			if (s)
				r->flags[block_index(r, s)] |= BOLT_BLOCK_RAN;
			if (t) {
				uint64_t *c = &r->count[block_index(r, t)];
				r->flags[block_index(r, t)] |= BOLT_BLOCK_RAN;
				*c = *c > UINT64_MAX - e->total ? UINT64_MAX : *c + e->total;
			}
		}
		/* an edge that never ran still says what the instruction is */
		if (s == NULL || t == NULL || !is_branch(e->kind))
			continue;
		r->flags[block_index(r, s)] |= BOLT_BLOCK_BRANCHES;
		if (dcfg_bolt_function_at(r->t, last_instr(s)) == dcfg_bolt_function_at(r->t, t->offset))
			r->flags[block_index(r, t)] |= BOLT_BLOCK_TARGET;
	}
}

/* Adds V to *SUM; -1 when it would not fit 64 bits. */
static int
add_count(uint64_t *sum, uint64_t v)
{
	if (*sum > UINT64_MAX - v)
		return -1;
	*sum += v;
	return 0;
}

/*
 * The function and offset of OFFSET in *FN and *AT: 0; 1 when no function
 * covers it or BOLT cannot read its function's name (both counted for the
 * warnings).
 */
static int
place(struct bolt_run *r, uint64_t offset, uint64_t count, uint32_t *fn, uint64_t *at)
{
	uint32_t f = dcfg_bolt_function_at(r->t, offset);

	if (f == DCFG_NONE) {
		r->unmapped++;
		r->unmapped_count = r->unmapped_count > UINT64_MAX - count ? UINT64_MAX :
		    r->unmapped_count + count;
		return 1;
	}
	if (r->bad_name[f]) {
		r->bad_name[f] = 2;   /* seen: warned of at the end */
		return 1;
	}
	*fn = f;
	*at = offset - r->t->f[f].start;
	return 0;
}

static int
add_record(struct bolt_run *r, uint32_t from_fn, uint64_t from, uint32_t to_fn, uint64_t to,
    uint64_t count)
{
	if (dcfg_reserve((void **)&r->rec, &r->rec_cap, r->n_rec + 1, sizeof *r->rec) < 0)
		return -1;
	r->rec[r->n_rec++] = (struct bolt_record){ from, to, count, from_fn, to_fn };
	return 0;
}

/* A line from FROM (an offset in the image, or NO_PLACE) to TO (the same). */
#define NO_PLACE UINT64_MAX

int
dcfg_bolt_add_line(struct bolt_run *r, uint64_t from, uint64_t to, uint64_t count)
{
	uint32_t from_fn = DCFG_NONE, to_fn = DCFG_NONE;
	uint64_t from_at = 0, to_at = 0;

	if ((from != NO_PLACE && place(r, from, count, &from_fn, &from_at)) ||
	    (to != NO_PLACE && place(r, to, count, &to_fn, &to_at)))
		return 0;
	return add_record(r, from_fn, from_at, to_fn, to_at, count);
}

/* Whether the DCFG's fall-through from S to T is a line BOLT takes (see the top). */
static int
fall_through_shown(const struct bolt_run *r, const struct dcfg_block *s, const struct dcfg_block *t)
{
	return (r->flags[block_index(r, s)] & BOLT_BLOCK_BRANCHES) ||
	    (r->flags[block_index(r, t)] & BOLT_BLOCK_TARGET) ||
	    dcfg_bolt_function_at(r->t, last_instr(s)) != dcfg_bolt_function_at(r->t, t->offset);
}

/* An edge of the image or into or out of it: its line, if any. */
static int
edge_line(struct bolt_run *r, const struct dcfg_edge *e, const struct dcfg_block *s,
    const struct dcfg_block *t)
{
	enum dcfg_edge_kind k = e->kind;
	int jump = dcfg_edge_kind_is_call(k) || is_branch(k);

	if (k == DCFG_EDGE_RETURN || k == DCFG_EDGE_CALL_BYPASS) {
		if (t == NULL)
			return 0;
		return add_count(k == DCFG_EDGE_RETURN ? &r->returns_in[block_index(r, t)] :
		    &r->bypass_in[block_index(r, t)], e->total);
	}
	if ((s && dcfg_bolt_in_plt(r->t, s->offset)) || (t && dcfg_bolt_in_plt(r->t, t->offset) &&
	    (!jump || s == NULL || dcfg_bolt_function_at(r->t, t->offset) == DCFG_NONE ||
	    r->t->f[dcfg_bolt_function_at(r->t, t->offset)].start != t->offset)))
		return 0;   /* BOLT shows a PLT entry only as what calls go to */
	if (k == DCFG_EDGE_CONTEXT_CHANGE || k == DCFG_EDGE_INTERRUPT)
		return t ? dcfg_bolt_add_line(r, NO_PLACE, t->offset, e->total) : 0;
	if (s && t && jump)
		return dcfg_bolt_add_line(r, last_instr(s), t->offset, e->total);
	if (s && t && k == DCFG_EDGE_FALL_THROUGH)
		return fall_through_shown(r, s, t) ? dcfg_bolt_add_line(r, last_instr(s), t->offset, e->total) : 0;
	if (s && jump)
		return dcfg_bolt_add_line(r, last_instr(s), NO_PLACE, e->total);
	if (t && (jump || k == DCFG_EDGE_ENTRY || k == DCFG_EDGE_FALL_THROUGH))
		return dcfg_bolt_add_line(r, NO_PLACE, t->offset, e->total);
	return 0;   /* REP, system calls, bypasses, exits: BOLT sees no branch */
}

static int
by_end_offset(const void *a, const void *b)
{
	const struct bolt_block_end *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->block > y->block) - (x->block < y->block);
}

/* The block of the image that ends at OFFSET, or NULL. */
static const struct dcfg_block *
block_ending_at(const struct bolt_run *r, uint64_t offset)
{
	size_t lo = 0, hi = r->n_by_end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->by_end[mid].end < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n_by_end && r->by_end[lo].end == offset ?
	    &r->d->blocks[r->by_end[lo].block] : NULL;
}

/*
 * The way on after calls: a line from the call to its return site where
 * the return site starts a block of BOLT's (a branch target), with the
 * count of the returns there (or of the bypasses, if more).
 */
static int
call_lines(struct bolt_run *r)
{
	const struct dcfg_image *im = &r->d->images[r->image];
	uint32_t k;

	for (k = 0; k < im->blocks.count; k++) {
		const struct dcfg_block *t = &r->d->blocks[im->blocks.first + k], *call;
		uint32_t b = block_index(r, t);
		uint64_t n = r->returns_in[b] > r->bypass_in[b] ? r->returns_in[b] : r->bypass_in[b];
		if (n == 0 || !(r->flags[b] & BOLT_BLOCK_TARGET) || (call = block_ending_at(r, t->offset)) == NULL ||
		    dcfg_bolt_function_at(r->t, last_instr(call)) != dcfg_bolt_function_at(r->t, t->offset))
			continue;
		if (dcfg_bolt_add_line(r, last_instr(call), t->offset, n) < 0)
			return -1;
	}
	return 0;
}

/* A record's place as a sort key: "[unknown]" after every function. */
static uint64_t
key(const struct dcfg_bolt_functions *t, uint32_t fn, uint64_t at)
{
	return fn == DCFG_NONE ? UINT64_MAX : t->f[fn].start + at;
}

static int
record_order(const struct bolt_record *x, const struct bolt_record *y,
    const struct dcfg_bolt_functions *t)
{
	uint64_t a = key(t, x->from_fn, x->from), b = key(t, y->from_fn, y->from);

	if (a != b)
		return a < b ? -1 : 1;
	a = key(t, x->to_fn, x->to);
	b = key(t, y->to_fn, y->to);
	return (a > b) - (a < b);
}

/* qsort has no context: the records carry their own keys while they are sorted. */
struct keyed {
	uint64_t from, to;
	size_t i;
};

static int
by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/* Sorts the records by place and sums those of one place. 0, or -1 with ERR. */
static int
sort_records(struct bolt_run *r, struct dcfg_error *err)
{
	struct keyed *k;
	struct bolt_record *sorted;
	size_t i, m = 0;

	if (r->n_rec == 0)
		return 0;
	k = malloc(r->n_rec * sizeof *k);
	sorted = malloc(r->n_rec * sizeof *sorted);
	if (k == NULL || sorted == NULL) {
		free(k);
		free(sorted);
		return dcfg_error_set(err, r->c->o->dcfg_path, "out of memory");
	}
	for (i = 0; i < r->n_rec; i++)
		k[i] = (struct keyed){ key(r->t, r->rec[i].from_fn, r->rec[i].from),
		    key(r->t, r->rec[i].to_fn, r->rec[i].to), i };
	qsort(k, r->n_rec, sizeof *k, by_key);
	for (i = 0; i < r->n_rec; i++) {
		const struct bolt_record *x = &r->rec[k[i].i];
		if (m > 0 && record_order(&sorted[m - 1], x, r->t) == 0) {
			if (add_count(&sorted[m - 1].count, x->count) < 0) {
				free(k);
				free(sorted);
				return dcfg_error_set(err, r->c->o->dcfg_path, "a branch's count in "
				    "the profile does not fit in 64 bits");
			}
			continue;
		}
		sorted[m++] = *x;
	}
	free(k);
	free(r->rec);
	r->rec = sorted;
	r->n_rec = m;
	r->rec_cap = r->n_rec;
	return 0;
}

/* V in lower-case hex without 0x, as BOLT writes offsets. */
static void
out_offset(struct dcfg_output *out, uint64_t v)
{
	char buf[17];
	size_t n = sizeof buf;

	do {
		buf[--n] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	dcfg_out_bytes(out, buf + n, sizeof buf - n);
}

static void
out_place(struct dcfg_output *out, const struct dcfg_bolt_functions *t, uint32_t fn, uint64_t at)
{
	if (fn == DCFG_NONE) {
		dcfg_out_str(out, "0 [unknown] 0");
		return;
	}
	dcfg_out_str(out, "1 ");
	dcfg_out_str(out, dcfg_bolt_string(t, t->f[fn].name));
	dcfg_out_char(out, ' ');
	out_offset(out, at);
}

static void
write_records(const struct bolt_run *r, struct dcfg_output *out)
{
	size_t i;

	for (i = 0; i < r->n_rec; i++) {
		const struct bolt_record *x = &r->rec[i];
		out_place(out, r->t, x->from_fn, x->from);
		dcfg_out_char(out, ' ');
		out_place(out, r->t, x->to_fn, x->to);
		dcfg_out_str(out, " 0 ");
		dcfg_out_u64(out, x->count);
		dcfg_out_char(out, '\n');
	}
}

/* Whether BOLT reads NAME as one word of its line: no white space, no control byte. */
static int
readable_name(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

static void
warn(const struct bolt_run *r, const char *msg)
{
	if (r->c->o->warning)
		r->c->o->warning(r->c->o->warning_ctx, msg);
}

/* What the profile leaves out, told once each. */
static void
warn_left_out(const struct bolt_run *r)
{
	char msg[1024], name[512];
	size_t i;

	if (r->unmapped) {
		snprintf(msg, sizeof msg, "%" PRIu64 " branch%s (run %" PRIu64 " time%s) left out: "
		    "%s in no function of %s", r->unmapped, r->unmapped == 1 ? "" : "es",
		    r->unmapped_count, r->unmapped_count == 1 ? "" : "s",
		    r->unmapped == 1 ? "its code is" : "their code is", r->binary);
		warn(r, msg);
	}
	for (i = 0; i < r->t->n; i++)
		if (r->bad_name[i] == 2) {
			dcfg_escape(name, sizeof name, dcfg_bolt_string(r->t, r->t->f[i].name));
			snprintf(msg, sizeof msg, "function \"%s\" left out: BOLT cannot read a name "
			    "with white space or control characters", name);
			warn(r, msg);
		}
}

static int
setup(struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg_image *im = &r->d->images[r->image];
	size_t nb = (size_t)r->p->blocks.count + 1, i;

	r->flags = calloc(nb, sizeof *r->flags);
	r->count = calloc(nb, sizeof *r->count);
	r->returns_in = calloc(nb, sizeof *r->returns_in);
	r->bypass_in = calloc(nb, sizeof *r->bypass_in);
	r->by_end = malloc(((size_t)im->blocks.count + 1) * sizeof *r->by_end);
	r->bad_name = calloc(r->t->n + 1, sizeof *r->bad_name);
	if (r->flags == NULL || r->count == NULL || r->returns_in == NULL || r->bypass_in == NULL || r->by_end == NULL ||
	    r->bad_name == NULL)
		return dcfg_error_set(err, r->c->o->dcfg_path, "out of memory");
	for (i = 0; i < r->t->n; i++)
		r->bad_name[i] = !readable_name(dcfg_bolt_string(r->t, r->t->f[i].name));
	for (i = 0; i < im->blocks.count; i++) {
		const struct dcfg_block *b = &r->d->blocks[im->blocks.first + i];
		r->by_end[i] = (struct bolt_block_end){ b->offset + b->size, im->blocks.first + (uint32_t)i };
	}
	r->n_by_end = im->blocks.count;
	qsort(r->by_end, r->n_by_end, sizeof *r->by_end, by_end_offset);
	return 0;
}

static int
make_records(struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg_process *p = r->p;
	uint32_t i;

	if (dcfg_bolt_static_blocks(r) < 0)
		goto fail;
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &r->d->edges[p->edges.first + i];
		const struct dcfg_block *s, *t;
		if (e->total == 0)
			continue;
		s = image_block(r, e->source);
		t = image_block(r, e->target);
		if ((s || t) && edge_line(r, e, s, t) < 0)
			goto fail;
	}
	if (call_lines(r) < 0)
		goto fail;
	return sort_records(r, err);
fail:
	return dcfg_error_set(err, r->c->o->dcfg_path, "out of memory, or a count that does not "
	    "fit in 64 bits");
}

static int
write_profile(struct dcfg_output *out, void *ctx, struct dcfg_error *err)
{
	(void)err;
	write_records(ctx, out);
	return 0;
}

static void
free_run(struct bolt_run *r)
{
	free(r->flags);
	free(r->count);
	free(r->insns);
	free(r->targets);
	free(r->returns_in);
	free(r->bypass_in);
	free(r->by_end);
	free(r->bad_name);
	free(r->rec);
}

int
dcfg_convert_bolt(const struct dcfg_convert *c, struct dcfg_error *err)
{
	const struct dcfg_convert_options *o = c->o;
	struct dcfg_bolt_functions t = { .n = 0 };
	struct bolt_run r = { .c = c, .d = c->d, .t = &t };
	size_t n;
	int rc = -1;

	if ((r.p = dcfg_convert_processes(c, 0, &n, err)) == NULL ||
	    dcfg_bolt_choose_image(&r, err) < 0)
		return -1;
	r.binary = o->binary ? o->binary : dcfg_file_name(r.d, r.d->images[r.image].file_name_id);
	if (r.binary == NULL)
		return dcfg_error_set(err, o->dcfg_path, "image %" PRIu32 " names no file: give its "
		    "binary with --binary FILE", r.d->images[r.image].id);
	if (o->bolt_functions == NULL)
		return dcfg_error_set(err, o->dcfg_path, "--to bolt needs a reader of the binary");
	if (o->bolt_functions(o->bolt_functions_ctx, r.binary, &t, err) < 0)
		goto out;
	if (setup(&r, err) < 0)
		goto out;
	mark_blocks(&r);
	if (dcfg_bolt_check_binary(&r, err) < 0 || make_records(&r, err) < 0 ||
	    dcfg_convert_file(c, "bolt.fdata", write_profile, &r, err) < 0)
		goto out;
	warn_left_out(&r);
	rc = 0;
out:
	free_run(&r);
	dcfg_bolt_functions_free(&t);
	return rc;
}
