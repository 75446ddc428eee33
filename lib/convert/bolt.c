/*
 * --to bolt: one image's edges as BOLT's pre-aggregated records (bolt.h).
 *
 * Each block that ran is a straight run of code, F from its first to its
 * last instruction, as often as it ran; a fall-through between two blocks
 * is the run F from the one's last instruction to the other's start. A
 * branch or call taken is B. A return is not a branch BOLT follows: the
 * return site is a run entered from outside, f, and BOLT counts the way
 * on after the call there only where its own blocks say so. BOLT walks
 * its blocks inside the runs (as it does for perf's samples), so where a
 * block of its starts, at a branch target never taken say, needs no
 * knowledge here.
 */
#include "bolt.h"
#include "bolt_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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

static uint64_t
last_instr(const struct dcfg_block *b)
{
	return b->offset + b->last_instr_offset;
}

/* Adds V to *SUM, saturating: what only a warning shows. */
static void
add_saturating(uint64_t *sum, uint64_t v)
{
	*sum = *sum > UINT64_MAX - v ? UINT64_MAX : *sum + v;
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

/* Whether the binary has OFFSET of the image in a function or a PLT section. */
static int
covered(const struct bolt_run *r, uint64_t offset)
{
	return dcfg_bolt_function_at(r->t, offset) != DCFG_NONE || dcfg_bolt_in_plt(r->t, offset);
}

/* The outside of the image, as a record's place. */
#define NO_PLACE UINT64_MAX

/*
 * Adds the record KIND FROM TO (offsets in the image, or NO_PLACE) of
 * COUNT, at the binary's addresses. Code in no function is left out,
 * counted for the warning. 0, or -1 when out of memory.
 */
static int
add_record(struct bolt_run *r, char kind, uint64_t from, uint64_t to, uint64_t count)
{
	if ((from != NO_PLACE && !covered(r, from)) || (to != NO_PLACE && !covered(r, to))) {
		r->unmapped++;
		add_saturating(&r->unmapped_count, count);
		return 0;
	}
	if (dcfg_reserve((void **)&r->rec, &r->rec_cap, r->n_rec + 1, sizeof *r->rec) < 0)
		return -1;
	r->rec[r->n_rec++] = (struct bolt_record){ from == NO_PLACE ? 0 : r->t->base + from,
	    to == NO_PLACE ? 0 : r->t->base + to, count, kind };
	return 0;
}

/* A run of code: not in a PLT section, where BOLT has no blocks to walk. */
static int
add_run(struct bolt_run *r, char kind, uint64_t from, uint64_t to, uint64_t count)
{
	if (dcfg_bolt_in_plt(r->t, from) || dcfg_bolt_in_plt(r->t, to))
		return 0;
	return add_record(r, kind, from, to, count);
}

/* Edges that are no transfer of control to BOLT: the run goes on to the next address. */
static int
straight_on(enum dcfg_edge_kind k)
{
	return k == DCFG_EDGE_FALL_THROUGH || k == DCFG_EDGE_SYSTEM_CALL_BYPASS ||
	    k == DCFG_EDGE_CONTEXT_CHANGE_BYPASS || k == DCFG_EDGE_EXCLUDED_CODE_BYPASS;
}

/* Control BOLT sees leave a block: branches, calls, and edges of unknown kind. */
static int
transfer(enum dcfg_edge_kind k)
{
	return dcfg_edge_kind_is_call(k) || dcfg_edge_kind_is_branch(k) || k == DCFG_EDGE_UNKNOWN ||
	    k == DCFG_EDGE_OTHER;
}

/* An edge of the image, or into or out of it: its record, if any. */
static int
edge_record(struct bolt_run *r, const struct dcfg_edge *e, const struct dcfg_block *s,
    const struct dcfg_block *t)
{
	enum dcfg_edge_kind k = e->kind;

	if (k == DCFG_EDGE_RETURN || k == DCFG_EDGE_CONTEXT_CHANGE_RETURN ||
	    k == DCFG_EDGE_SYSTEM_RETURN || k == DCFG_EDGE_INTERRUPT_RETURN) {
		if (t != NULL && add_count(&r->returns_in[block_index(r, t)], e->total) < 0)
			return -1;
		return 0;
	}
	if (k == DCFG_EDGE_CONTEXT_CHANGE || k == DCFG_EDGE_INTERRUPT)
		return t ? add_record(r, 'B', NO_PLACE, t->offset, e->total) : 0;
	if (s && t && (straight_on(k) || (t->offset == s->offset + s->size &&
	    !dcfg_edge_kind_is_call(k) && transfer(k))))
		return add_run(r, 'F', last_instr(s), t->offset, e->total);
	if (s && t && transfer(k))
		return add_record(r, 'B', last_instr(s), t->offset, e->total);
	if (s && dcfg_edge_kind_is_call(k))
		return add_record(r, 'B', last_instr(s), NO_PLACE, e->total);
	if (t && !s && (transfer(k) || k == DCFG_EDGE_ENTRY || straight_on(k)))
		return add_record(r, 'B', NO_PLACE, t->offset, e->total);
	return 0;   /* REP, calls' bypasses, exits, branches out of the image */
}

/* Each block that ran as a run of its own, and each return site as a run entered from outside. */
static int
block_records(struct bolt_run *r)
{
	const struct dcfg_image *im = &r->d->images[r->image];
	uint32_t k;

	for (k = 0; k < im->blocks.count; k++) {
		const struct dcfg_block *b = &r->d->blocks[im->blocks.first + k];
		uint32_t x = block_index(r, b);
		if ((r->count[x] && add_run(r, 'F', b->offset, last_instr(b), r->count[x]) < 0) ||
		    (r->returns_in[x] && add_run(r, 'f', b->offset, b->offset, r->returns_in[x]) < 0))
			return -1;
	}
	return 0;
}

static int
record_order(const struct bolt_record *x, const struct bolt_record *y)
{
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

static int
by_record(const void *a, const void *b)
{
	return record_order(a, b);
}

/* Sorts the records by address and sums those that are alike. 0, or -1 with ERR. */
static int
sort_records(struct bolt_run *r, struct dcfg_error *err)
{
	size_t i, m = 0;

	if (r->n_rec > 1)
		qsort(r->rec, r->n_rec, sizeof *r->rec, by_record);
	for (i = 0; i < r->n_rec; i++) {
		if (m > 0 && record_order(&r->rec[m - 1], &r->rec[i]) == 0) {
			if (add_count(&r->rec[m - 1].count, r->rec[i].count) < 0)
				return dcfg_error_set(err, r->c->o->dcfg_path, "a record's count in "
				    "the profile does not fit in 64 bits");
			continue;
		}
		r->rec[m++] = r->rec[i];
	}
	r->n_rec = m;
	return 0;
}

/* V in lower-case hex without 0x, as BOLT writes addresses. */
static void
out_hex(struct dcfg_output *out, uint64_t v)
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
write_records(const struct bolt_run *r, struct dcfg_output *out)
{
	size_t i;

	for (i = 0; i < r->n_rec; i++) {
		const struct bolt_record *x = &r->rec[i];
		dcfg_out_char(out, x->kind);
		dcfg_out_char(out, ' ');
		out_hex(out, x->from);
		dcfg_out_char(out, ' ');
		out_hex(out, x->to);
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, x->count);
		dcfg_out_str(out, x->kind == 'B' ? " 0\n" : "\n");
	}
}

/* What the profile leaves out, told once. */
static void
warn_left_out(const struct bolt_run *r)
{
	char msg[1024];

	if (r->unmapped == 0 || r->c->o->warning == NULL)
		return;
	if (r->unmapped == 1)
		snprintf(msg, sizeof msg, "1 record of the profile left out (its count is %" PRIu64
		    "): its code is in no function of %s", r->unmapped_count, r->binary);
	else
		snprintf(msg, sizeof msg, "%" PRIu64 " records of the profile left out (their counts "
		    "add up to %" PRIu64 "): their code is in no function of %s", r->unmapped,
		    r->unmapped_count, r->binary);
	r->c->o->warning(r->c->o->warning_ctx, msg);
}

static int
setup(struct bolt_run *r, struct dcfg_error *err)
{
	size_t nb = (size_t)r->p->blocks.count + 1;

	r->flags = calloc(nb, sizeof *r->flags);
	r->count = calloc(nb, sizeof *r->count);
	r->returns_in = calloc(nb, sizeof *r->returns_in);
	if (r->flags == NULL || r->count == NULL || r->returns_in == NULL)
		return dcfg_error_set(err, r->c->o->dcfg_path, "out of memory");
	return 0;
}

/*
 * One pass over the process's edges: what ran, how often each block ran
 * (REP's repeats are one run), the records of the edges. 0, or -1 with
 * ERR.
 */
static int
read_edges(struct bolt_run *r, struct dcfg_error *err)
{
	const struct dcfg_process *p = r->p;
	uint32_t i;

	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &r->d->edges[p->edges.first + i];
		const struct dcfg_block *s, *t;
		if (e->total == 0)
			continue;
		s = image_block(r, e->source);
		t = image_block(r, e->target);
		if (s)
			r->flags[block_index(r, s)] |= BOLT_BLOCK_RAN;
		if (t) {
			r->flags[block_index(r, t)] |= BOLT_BLOCK_RAN;
#ifdef FUZZ_PLANT_BOLT
			/* a count cut to 32 bits, planted for the convert fuzz target to find (README, Fuzzing) */
			if (e->kind != DCFG_EDGE_REP &&
			    add_count(&r->count[block_index(r, t)], (uint32_t)e->total) < 0)
#else
			if (e->kind != DCFG_EDGE_REP && add_count(&r->count[block_index(r, t)], e->total) < 0)
#endif
				goto fail;
		}
		if ((s || t) && edge_record(r, e, s, t) < 0)
			goto fail;
	}
	return 0;
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
	free(r->returns_in);
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
	    dcfg_bolt_choose_image(&r, err) < 0 || dcfg_bolt_check_ran(&r, err) < 0)
		return -1;
	r.binary = o->binary ? o->binary : dcfg_file_name(r.d, r.d->images[r.image].file_name_id);
	if (r.binary == NULL)
		return dcfg_error_set(err, o->dcfg_path, "image %" PRIu32 " names no file: give its "
		    "binary with --binary FILE", r.d->images[r.image].id);
	if (o->bolt_functions == NULL)
		return dcfg_error_set(err, o->dcfg_path, "--to bolt needs a reader of the binary");
	if (o->bolt_functions(o->bolt_functions_ctx, r.binary, &t, err) < 0 || setup(&r, err) < 0 ||
	    read_edges(&r, err) < 0 || dcfg_bolt_check_binary(&r, err) < 0)
		goto out;
	if (block_records(&r) < 0) {
		dcfg_error_set(err, o->dcfg_path, "out of memory");
		goto out;
	}
	if (sort_records(&r, err) < 0 || dcfg_convert_file(c, "bolt.pa", write_profile, &r, err) < 0)
		goto out;
	warn_left_out(&r);
	rc = 0;
out:
	free_run(&r);
	dcfg_bolt_functions_free(&t);
	return rc;
}
