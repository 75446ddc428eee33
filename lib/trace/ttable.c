#include "ttable.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

#define LUT_MAX_BITS 16

void
dcfg_ttable_init(struct dcfg_ttable *t)
{
	memset(t, 0, sizeof *t);
}

void
dcfg_ttable_reset(struct dcfg_ttable *t)
{
	t->n_states = t->n_codes = t->n_groups = t->n_ids = 0;
	free(t->lut);
	t->lut = NULL;
	t->n_lut = 0;
	dcfg_idmap_free(&t->by_id);
}

void
dcfg_ttable_free(struct dcfg_ttable *t)
{
	dcfg_ttable_reset(t);
	free(t->states);
	free(t->codes);
	free(t->groups);
	free(t->ids);
	free(t->row_state);
	memset(t, 0, sizeof *t);
}

int
dcfg_ttable_add(struct dcfg_ttable *t, uint32_t current, const char *code,
    size_t len, const uint32_t *next, size_t n_next, const char **why)
{
	uint32_t value = 0;
	size_t i;

	for (i = 0; i < len; i++)
		if (code[i] != '0' && code[i] != '1') {
			*why = "a code has only the characters '0' and '1'";
			return -1;
		}
	if (len > 32) {
		*why = "a code has at most 32 bits";
		return -1;
	}
	if (n_next == 0) {
		*why = "at least one edge id is needed";
		return -1;
	}
	for (i = 0; i < len; i++)
		value |= (uint32_t)(code[i] - '0') << (31 - i);
	if (dcfg_reserve((void **)&t->codes, &t->cap_codes, t->n_codes + 1, sizeof *t->codes) < 0 ||
	    dcfg_reserve((void **)&t->row_state, &t->cap_row_state, t->n_codes + 1, sizeof *t->row_state) < 0 ||
	    dcfg_reserve((void **)&t->groups, &t->cap_groups, t->n_groups + 1, sizeof *t->groups) < 0 ||
	    dcfg_reserve((void **)&t->ids, &t->cap_ids, t->n_ids + n_next, sizeof *t->ids) < 0) {
		*why = "the transition table is too large for memory";
		return -1;
	}
	memcpy(t->ids + t->n_ids, next, n_next * sizeof *next);
	t->groups[t->n_groups] = (struct dcfg_tgroup){ (uint32_t)t->n_ids,
	    (uint32_t)n_next, DCFG_TTABLE_NONE };
	t->n_ids += n_next;
	t->row_state[t->n_codes] = current;
	t->codes[t->n_codes] = (struct dcfg_tcode){ value, (uint32_t)t->n_groups, (uint8_t)len };
	t->n_groups++;
	t->n_codes++;
	return 0;
}

struct sortable {
	uint32_t edge;
	struct dcfg_tcode code;
};

static int
by_edge_then_code(const void *a, const void *b)
{
	const struct sortable *x = a, *y = b;

	if (x->edge != y->edge)
		return x->edge < y->edge ? -1 : 1;
	if (x->code.value != y->code.value)
		return x->code.value < y->code.value ? -1 : 1;
	return (x->code.len > y->code.len) - (x->code.len < y->code.len);
}

static void
code_text(const struct dcfg_tcode *c, char *buf)
{
	int i;

	for (i = 0; i < c->len; i++)
		buf[i] = (char)('0' + ((c->value >> (31 - i)) & 1));
	buf[c->len] = '\0';
}

/* Consecutive codes of one edge, sorted: equal padded values, or a prefix. */
static int
check_pair(uint32_t edge, const struct dcfg_tcode *a, const struct dcfg_tcode *b,
    char *msg, size_t size)
{
	char ta[33], tb[33];
	uint64_t end = (uint64_t)a->value + (UINT64_C(1) << (32 - a->len));

	code_text(a, ta);
	code_text(b, tb);
	if (a->value == b->value) {
		snprintf(msg, size, "edge %u: codes \"%s\" and \"%s\" are the same padded to 32 bits",
		    edge, ta, tb);
		return -1;
	}
	if (b->value < end) {
		snprintf(msg, size, "edge %u: code \"%s\" is a prefix of code \"%s\", which can never be read",
		    edge, ta, tb);
		return -1;
	}
	return 0;
}

static int
build_lookup(struct dcfg_ttable *t, struct dcfg_tstate *st)
{
	size_t slots = (size_t)1 << st->k, i, s;

	if (st->k > LUT_MAX_BITS || slots > 4 * (size_t)st->n_codes) {
		st->lut = DCFG_TTABLE_NONE;   /* sparse long codes: binary search */
		return 0;
	}
	if (t->n_lut + slots >= UINT32_MAX)
		return -1;
	struct dcfg_tentry *p = realloc(t->lut, (t->n_lut + slots) * sizeof *p);
	if (p == NULL)
		return -1;
	t->lut = p;
	st->lut = (uint32_t)t->n_lut;
	for (s = 0; s < slots; s++)
		p[t->n_lut + s] = (struct dcfg_tentry){ .group = DCFG_TTABLE_NONE };
	for (i = 0; i < st->n_codes; i++) {
		const struct dcfg_tcode *c = &t->codes[st->codes + i];
		size_t first = st->k ? c->value >> (32 - st->k) : 0;
		size_t n = (size_t)1 << (st->k - c->len);
		for (s = first; s < first + n; s++)
			p[t->n_lut + s] = (struct dcfg_tentry){ .group = c->group, .len = c->len };
	}
	t->n_lut += slots;
	return 0;
}

/* The state after STATE's only code, a zero-bit one. */
static uint32_t
zero_next(const struct dcfg_ttable *t, uint32_t state)
{
	return t->groups[t->codes[t->states[state].codes].group].next_state;
}

/*
 * Finds the cycles of zero-bit codes: each zero-bit state has one
 * successor, so every walk along them ends at a state with bits to read,
 * at an edge without transitions, or in a cycle; each state is walked
 * once (MARK: 0 not yet, 1 on this walk, 2 done), in time linear in the
 * table.
 */
static int
find_zero_cycles(struct dcfg_ttable *t)
{
	uint8_t *mark = calloc(t->n_states + 1, 1);
	uint32_t s, v, w;

	if (mark == NULL)
		return -1;
	for (s = 0; s < t->n_states; s++) {
		for (v = s; v != DCFG_TTABLE_NONE && t->states[v].k == 0 && mark[v] == 0;
		    v = zero_next(t, v))
			mark[v] = 1;
		if (v != DCFG_TTABLE_NONE && mark[v] == 1) {   /* back on this walk: a cycle */
			uint64_t edges = 0;
			w = v;
			do {
				edges += t->groups[t->codes[t->states[w].codes].group].count;
				w = zero_next(t, w);
			} while (w != v);
			do {
				t->states[w].zero_cycle = edges > UINT32_MAX ? UINT32_MAX : (uint32_t)edges;
				t->states[w].lut = DCFG_TTABLE_NONE;
				w = zero_next(t, w);
			} while (w != v);
		}
		for (v = s; v != DCFG_TTABLE_NONE && mark[v] == 1; v = zero_next(t, v))
			mark[v] = 2;
	}
	free(mark);
	return 0;
}

void
dcfg_ttable_zero_cycle(const struct dcfg_ttable *t, uint32_t state, uint64_t *ids)
{
	uint32_t v = state;
	size_t n = 0, i;

	do {
		const struct dcfg_tgroup *g = &t->groups[t->codes[t->states[v].codes].group];
		for (i = 0; i < g->count; i++)
			ids[n++] = t->ids[g->first + i];
		v = g->next_state;
	} while (v != state);
}

int
dcfg_ttable_finish(struct dcfg_ttable *t, char *msg, size_t size)
{
	struct sortable *rows;
	size_t i, n = t->n_codes;
	uint32_t g;

	if ((rows = malloc((n + 1) * sizeof *rows)) == NULL)
		goto nomem;
	for (i = 0; i < n; i++)
		rows[i] = (struct sortable){ t->row_state[i], t->codes[i] };
	qsort(rows, n, sizeof *rows, by_edge_then_code);
	for (i = 0; i < n; i++) {
		t->codes[i] = rows[i].code;
		if (i > 0 && rows[i].edge == rows[i - 1].edge &&
		    check_pair(rows[i].edge, &rows[i - 1].code, &rows[i].code, msg, size) < 0) {
			free(rows);
			return -1;
		}
	}
	for (i = 0; i < n; i++) {
		struct dcfg_tstate *st;
		if (i == 0 || rows[i].edge != rows[i - 1].edge) {
			if (dcfg_reserve((void **)&t->states, &t->cap_states, t->n_states + 1,
			    sizeof *t->states) < 0) {
				free(rows);
				goto nomem;
			}
			t->states[t->n_states++] = (struct dcfg_tstate){ rows[i].edge,
			    (uint32_t)i, 0, DCFG_TTABLE_NONE, 0, 0 };
		}
		st = &t->states[t->n_states - 1];
		st->n_codes++;
		if (rows[i].code.len > st->k)
			st->k = rows[i].code.len;
	}
	free(rows);
	for (i = 0; i < t->n_states; i++)
		if (build_lookup(t, &t->states[i]) < 0)
			goto nomem;
	if (dcfg_idmap_build(&t->by_id, t->states, t->n_states, sizeof *t->states,
	    offsetof(struct dcfg_tstate, edge_id)) < 0)
		goto nomem;
	for (g = 0; g < t->n_groups; g++) {
		struct dcfg_tgroup *gr = &t->groups[g];
		gr->next_state = dcfg_ttable_state(t, t->ids[gr->first + gr->count - 1]);
	}
	if (find_zero_cycles(t) < 0)
		goto nomem;
	for (i = 0; i < t->n_lut; i++) {
		struct dcfg_tentry *e = &t->lut[i];
		if (e->group == DCFG_TTABLE_NONE)
			continue;
		const struct dcfg_tgroup *gr = &t->groups[e->group];
		e->first = gr->first;
		e->count = gr->count;
		e->next_state = gr->next_state;
		e->next_lut = gr->next_state == DCFG_TTABLE_NONE ? DCFG_TTABLE_NONE :
		    t->states[gr->next_state].lut;
		e->next_k = gr->next_state == DCFG_TTABLE_NONE ? 0 :
		    t->states[gr->next_state].k;
	}
	return 0;
nomem:
	snprintf(msg, size, "the transition table is too large for memory");
	return -1;
}
