/*
 * BOLT's blocks are static: it starts one at every branch target of a
 * function, taken or not, and after every branch. A DCFG's blocks are
 * dynamic, so a branch never taken leaves no edge: its target can lie
 * inside a block that ran, where BOLT then needs the fall-through into
 * it, and an untaken conditional branch's fall-through looks like any
 * other. The function's own code tells both: it is decoded from its
 * start, and trusted only when every block of the DCFG in it starts and
 * ends on the instructions it decodes to.
 */
#include "bolt_run.h"
#include "bolt_insn.h"

#include <stdlib.h>

#include "common/vec.h"

static int
by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The first of N sorted values not below V. */
static size_t
lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
has(const uint64_t *v, size_t n, uint64_t x)
{
	size_t i = lower_bound(v, n, x);

	return i < n && v[i] == x;
}

/*
 * Decodes function FN: its instructions' offsets in r->insns, the targets
 * of its direct branches inside it in r->targets (sorted, once each).
 * 1 decoded, 0 not (no bytes, or bytes this decoder does not know), -1
 * out of memory.
 */
static int
decode_function(struct bolt_run *r, uint32_t fn)
{
	const struct dcfg_bolt_function *f = &r->t->f[fn];
	const struct dcfg_bolt_code *code = dcfg_bolt_code_at(r->t, f->start);
	uint64_t at, end, i, k;

	r->n_insns = r->n_targets = 0;
	if (code == NULL || code->bytes == NULL || r->t->machine != DCFG_BOLT_X86_64)
		return 0;
	end = f->size <= code->end - f->start ? f->start + f->size : code->end;
	for (at = f->start; at < end; ) {
		struct bolt_insn in;
		if (dcfg_bolt_decode_x86_64(code->bytes + (at - code->start), code->end - at, at, &in) == 0)
			return 0;
		if (dcfg_reserve((void **)&r->insns, &r->insns_cap, r->n_insns + 1, sizeof *r->insns) < 0)
			return -1;
		r->insns[r->n_insns++] = at;
		if (in.has_target && in.kind != BOLT_INSN_CALL && in.target >= f->start && in.target < end) {
			if (dcfg_reserve((void **)&r->targets, &r->targets_cap, r->n_targets + 1,
			    sizeof *r->targets) < 0)
				return -1;
			r->targets[r->n_targets++] = in.target;
		}
		at += in.length;
	}
	qsort(r->targets, r->n_targets, sizeof *r->targets, by_u64);
	for (i = k = 0; i < r->n_targets; i++)
		if (k == 0 || r->targets[k - 1] != r->targets[i])
			r->targets[k++] = r->targets[i];
	r->n_targets = k;
	return 1;
}

/* The kind of the instruction at OFFSET, which is one of r->insns. */
static enum bolt_insn_kind
kind_at(const struct bolt_run *r, uint64_t offset)
{
	const struct dcfg_bolt_code *code = dcfg_bolt_code_at(r->t, offset);
	struct bolt_insn in;

	if (dcfg_bolt_decode_x86_64(code->bytes + (offset - code->start), code->end - offset, offset,
	    &in) == 0)
		return BOLT_INSN_PLAIN;
	return in.kind;
}

/* Whether the DCFG's blocks B[0..N) start, end and have their last instruction where the code says. */
static int
blocks_agree(const struct bolt_run *r, const uint32_t *b, size_t n, uint64_t fn_end)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct dcfg_block *bl = &r->d->blocks[b[i]];
		uint64_t end = bl->offset + bl->size;
		if (!has(r->insns, r->n_insns, bl->offset) ||
		    !has(r->insns, r->n_insns, bl->offset + bl->last_instr_offset) ||
		    (end < fn_end && !has(r->insns, r->n_insns, end)))
			return 0;
	}
	return 1;
}

/* Marks the blocks B[0..N) of one decoded function and writes the fall-throughs inside them. */
static int
mark_function(struct bolt_run *r, const uint32_t *b, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct dcfg_block *bl = &r->d->blocks[b[i]];
		uint32_t x = b[i] - r->p->blocks.first;
		uint64_t last = bl->offset + bl->last_instr_offset;
		enum bolt_insn_kind kind = kind_at(r, last);
		if (kind == BOLT_INSN_COND || kind == BOLT_INSN_JUMP || kind == BOLT_INSN_STOP)
			r->flags[x] |= BOLT_BLOCK_BRANCHES;
		if (has(r->targets, r->n_targets, bl->offset))
			r->flags[x] |= BOLT_BLOCK_TARGET;
		if (r->count[x] == 0)
			continue;
		/* a target inside the block: BOLT's fall-through into it, from the instruction before */
		for (k = lower_bound(r->targets, r->n_targets, bl->offset + 1);
		    k < r->n_targets && r->targets[k] <= last; k++) {
			size_t at = lower_bound(r->insns, r->n_insns, r->targets[k]);
			if (at == 0 || at >= r->n_insns || r->insns[at] != r->targets[k])
				continue;
			if (dcfg_bolt_add_line(r, r->insns[at - 1], r->targets[k], r->count[x]) < 0)
				return -1;
		}
	}
	return 0;
}

static int
by_place(const void *a, const void *b)
{
	const struct bolt_block_end *x = a, *y = b;

	return (x->end > y->end) - (x->end < y->end);
}

/* The blocks of the image that ran, by offset, in *OUT (N of them), as indices of the DCFG's blocks. */
static uint32_t *
ran_blocks(const struct bolt_run *r, size_t *n)
{
	const struct dcfg_image *im = &r->d->images[r->image];
	struct bolt_block_end *v = malloc(((size_t)im->blocks.count + 1) * sizeof *v);
	uint32_t *out = malloc(((size_t)im->blocks.count + 1) * sizeof *out), k;
	size_t i;

	*n = 0;
	if (v == NULL || out == NULL) {
		free(v);
		free(out);
		return NULL;
	}
	for (k = 0; k < im->blocks.count; k++)
		if (r->flags[im->blocks.first + k - r->p->blocks.first] & BOLT_BLOCK_RAN)
			v[(*n)++] = (struct bolt_block_end){ r->d->blocks[im->blocks.first + k].offset,
			    im->blocks.first + k };
	qsort(v, *n, sizeof *v, by_place);
	for (i = 0; i < *n; i++)
		out[i] = v[i].block;
	free(v);
	return out;
}

int
dcfg_bolt_static_blocks(struct bolt_run *r)
{
	size_t n, i, j;
	uint32_t *b = ran_blocks(r, &n);
	int rc = 0;

	if (b == NULL)
		return -1;
	for (i = 0; i < n && rc == 0; i = j) {
		uint32_t fn = dcfg_bolt_function_at(r->t, r->d->blocks[b[i]].offset);
		for (j = i + 1; j < n && dcfg_bolt_function_at(r->t, r->d->blocks[b[j]].offset) == fn; j++)
			;
		if (fn == DCFG_NONE || (r->t->f[fn].flags & DCFG_BOLT_PLT))
			continue;
		if ((rc = decode_function(r, fn)) == 1 &&
		    blocks_agree(r, b + i, j - i, r->t->f[fn].start + r->t->f[fn].size))
			rc = mark_function(r, b + i, j - i);
		rc = rc < 0 ? -1 : 0;
	}
	free(b);
	return rc;
}
