/*
 * The walk: yajl's SAX callbacks checked against the schema, frame by frame
 * (the schema's depth only; skipped values are counted, never recursed).
 * Positions and messages are in json_where.c, a table's header in
 * json_header.c, numbers in json_number.c, the reading loop in json_read.c.
 */
#include "json_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "vec.h"

/* ---- the walk ---- */

/* The field the next value belongs to; NULL means skip it. *is_row: it is a table row. */
static const struct dcfg_json_field *
expected(struct dcfg_json *j, int *is_row)
{
	struct frame *f, *t;

	*is_row = 0;
	if (j->depth == 0)
		return j->root;
	f = &j->frames[j->depth - 1];
	switch (f->kind) {
	case F_OBJECT:
		return f->cur;
	case F_TABLE:
		*is_row = 1;
		return f->field;
	case F_ROW:
		t = f - 1;
		if (f->count > t->ncols || t->colmap[f->count - 1] == NO_COLUMN)
			return NULL;
		return &t->field->schema->fields[t->colmap[f->count - 1]];
	default:
		return NULL; /* headers and arrays check their own elements */
	}
}

/*
 * Called before every value. Returns the field it belongs to (or NULL to
 * skip it), or sets *bad when the value cannot stand here.
 */
static const struct dcfg_json_field *
value_start(struct dcfg_json *j, int *is_row, int *bad)
{
	struct frame *f;

	*bad = 0;
	if (j->depth == 0) {
		if (j->got_root) {
			*bad = 1;
			return NULL;
		}
		j->got_root = 1;
	}
	if (j->depth > 0) {
		f = &j->frames[j->depth - 1];
		if (f->kind == F_ROW || f->kind == F_HEADER || f->kind == F_INT_ARRAY)
			f->count++;
		if (f->kind == F_ROW && f->count > (f - 1)->ncols) {
			dcfg_json_fail(j, "row has more values than the header has columns (%u)",
			    (f - 1)->ncols);
			*bad = 1;
			return NULL;
		}
	}
	return expected(j, is_row);
}

/* A callback's answer as yajl's: go on (1) or cancel (0). */
static int
verdict(struct dcfg_json *j, int rc)
{
	if (rc == DCFG_JSON_STOP)
		j->stopped = 1;
	return rc == DCFG_JSON_OK;
}

/* After a key's value is complete, the path no longer names that key. */
static void
value_done(struct dcfg_json *j)
{
	if (j->depth > 0 && j->frames[j->depth - 1].kind == F_OBJECT)
		j->frames[j->depth - 1].cur = NULL;
}

static int
scalar_value(struct dcfg_json *j, enum token tok, const char *s, size_t len)
{
	const struct dcfg_json_field *fld;
	struct frame *f;
	uint64_t v;
	const char *why;
	int is_row, bad;

	j->tok = tok;
	j->tok_len = tok == T_STRING ? len + 2 : len;
	if (j->skip)
		return 1;
	if (j->depth > 0) {
		f = &j->frames[j->depth - 1];
		if (f->kind == F_ROW) {   /* most values: what value_start() and expected() do */
			const struct frame *t = f - 1;
			if (++f->count > t->ncols) {
				dcfg_json_fail(j, "row has more values than the header has columns (%u)",
				    t->ncols);
				return 0;
			}
			if (t->colmap[f->count - 1] == NO_COLUMN)
				return 1;
			fld = &t->field->schema->fields[t->colmap[f->count - 1]];
			goto typed;
		}
		if (f->kind == F_HEADER) {
			f->count++;
			if (tok != T_STRING)
				return dcfg_json_fail(j, "expected a column name, found %s",
				    dcfg_json_found_name(tok, 0)), 0;
			return dcfg_json_header_name(j, s, len);
		}
		if (f->kind == F_INT_ARRAY) {
			f->count++;
			if (tok == T_OTHER)
				return dcfg_json_fail(j, "expected an integer, found %s",
				    dcfg_json_found_name(tok, 0)), 0;
			if ((tok == T_NUMBER ? dcfg_parse_json_number(s, len, &v, &why) :
			    dcfg_parse_c_integer(s, len, &v, &why)) < 0)
				return dcfg_json_fail(j, "%s", why), 0;
			return verdict(j, j->h->integer(j->ctx, f->field->id, v));
		}
		if (f->kind == F_DICT) {
			if (tok != T_STRING)
				return dcfg_json_fail(j, "expected a string, found %s",
				    dcfg_json_found_name(tok, 0)), 0;
			j->at_key = 1;
			int rc = j->h->entry(j->ctx, f->field->id, j->key, j->key_len, s, len);
			j->at_key = 0;
			return verdict(j, rc);
		}
	}
	fld = value_start(j, &is_row, &bad);
	if (bad) {
		if (!j->failed)
			dcfg_json_fail(j, "unexpected value");
		return 0;
	}
	if (fld == NULL)
		return 1;
	if (is_row)
		return dcfg_json_fail(j, "expected a table row (an array), found %s",
		    dcfg_json_found_name(tok, 0)), 0;
typed:
	switch (fld->kind) {
	case DCFG_JSON_SKIP:
		return 1;
	case DCFG_JSON_INT:
		if (tok == T_OTHER)
			return dcfg_json_wrong_type(j, fld, tok, 0), 0;
		if ((tok == T_NUMBER ? dcfg_parse_json_number(s, len, &v, &why) :
		    dcfg_parse_c_integer(s, len, &v, &why)) < 0)
			return dcfg_json_fail(j, "%s", why), 0;
		return verdict(j, j->h->integer(j->ctx, fld->id, v));
	case DCFG_JSON_STRING:
		if (tok != T_STRING)
			return dcfg_json_wrong_type(j, fld, tok, 0), 0;
		return verdict(j, j->h->string(j->ctx, fld->id, s, len));
	default:
		return dcfg_json_wrong_type(j, fld, tok, 0), 0;
	}
}

static int
scalar(struct dcfg_json *j, enum token tok, const char *s, size_t len)
{
	int ok = scalar_value(j, tok, s, len);

	if (ok && !j->skip)
		value_done(j);
	return ok;
}

static int
cb_null(void *ctx)
{
	return scalar(ctx, T_OTHER, NULL, 4);
}

static int
cb_boolean(void *ctx, int b)
{
	return scalar(ctx, T_OTHER, NULL, b ? 4 : 5);
}

/*
 * The field that the next value is for when it is an integer of a table
 * row's integer column or of an integer array, or NULL when scalar_value()
 * must see it (another kind, no column, too many values, an error): what
 * most values of a DCFG are, taken the short way.
 */
static inline const struct dcfg_json_field *
integer_field(const struct dcfg_json *j)
{
	const struct frame *f = j->top, *t;

	if (j->skip || f == NULL)
		return NULL;
	if (f->kind == F_ROW) {   /* a row is in a table: F - 1 is its frame */
		t = f - 1;
		return f->count < t->ncols ? t->ints[f->count] : NULL;
	}
	return f->kind == F_INT_ARRAY ? f->field : NULL;
}

/* A plain decimal of up to 19 digits (what dcfg_parse_json_number() then returns), or 0. */
static inline int
quick_decimal(const char *s, size_t len, uint64_t *value)
{
	uint64_t v = 0;
	size_t i;

	if (len - 1 >= 19)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9)
			return 0;
		v = v * 10 + d;
	}
	*value = v;
	return 1;
}

/* "0x" and up to 16 hex digits (what dcfg_parse_c_integer() then returns), or 0. */
static inline int
quick_hex(const char *s, size_t len, uint64_t *value)
{
	uint64_t v = 0;
	size_t i;

	if (len - 3 >= 16 || s[0] != '0' || (s[1] | 0x20) != 'x')
		return 0;
	for (i = 2; i < len; i++) {
		unsigned c = (unsigned char)s[i], d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			return 0;
		v = v << 4 | d;
	}
	*value = v;
	return 1;
}

/* What cb_number() does not take the short way, out of line so that its short way saves few registers. */
static __attribute__((noinline)) int
number_slow(struct dcfg_json *j, const struct dcfg_json_field *fld, const char *s, size_t len)
{
	const char *why;
	uint64_t v;

	if (fld && dcfg_parse_json_number(s, len, &v, &why) == 0) {
		j->tok = T_NUMBER;
		j->tok_len = len;
		j->top->count++;
		return verdict(j, j->h->integer(j->ctx, fld->id, v));
	}
	return scalar(j, T_NUMBER, s, len);
}

static int
cb_number(void *ctx, const char *s, size_t len)
{
	struct dcfg_json *j = ctx;
	const struct dcfg_json_field *fld = integer_field(j);
	uint64_t v;
	int rc;

	if (fld && quick_decimal(s, len, &v)) {
		j->tok = T_NUMBER;
		j->tok_len = len;
		j->top->count++;
		rc = j->h->integer(j->ctx, fld->id, v);
		return rc == DCFG_JSON_OK ? 1 : verdict(j, rc);
	}
	return number_slow(j, fld, s, len);
}

/* What cb_string() does not take the short way (as number_slow()). */
static __attribute__((noinline)) int
string_slow(struct dcfg_json *j, const struct dcfg_json_field *fld, const char *s, size_t len)
{
	const char *why;
	uint64_t v;

	if (fld && dcfg_parse_c_integer(s, len, &v, &why) == 0) {
		j->tok = T_STRING;
		j->tok_len = len + 2;
		j->top->count++;
		return verdict(j, j->h->integer(j->ctx, fld->id, v));
	}
	return scalar(j, T_STRING, s, len);
}

static int
cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct dcfg_json *j = ctx;
	const struct dcfg_json_field *fld = integer_field(j);
	uint64_t v;
	int rc;

	if (fld && quick_hex((const char *)s, len, &v)) {
		j->tok = T_STRING;
		j->tok_len = len + 2;
		j->top->count++;
		rc = j->h->integer(j->ctx, fld->id, v);
		return rc == DCFG_JSON_OK ? 1 : verdict(j, rc);
	}
	return string_slow(j, fld, (const char *)s, len);
}

static int
push(struct dcfg_json *j, enum frame_kind kind, const struct dcfg_json_field *fld)
{
	struct frame *f;

	if (j->depth == MAX_FRAMES)
		return dcfg_json_fail(j, "nesting too deep"), 0;
	f = j->top = &j->frames[j->depth++];
	/* Only tables use the column map, which is filled from their header. */
	memset(f, 0, offsetof(struct frame, colmap));
	f->kind = kind;
	f->field = fld;
	if (j->chunk)
		f->off = yajl_get_bytes_consumed(j->yajl);
	else
		dcfg_json_token_position(j, &f->line, &f->column);
	return 1;
}

static int
container_start(struct dcfg_json *j, int is_array)
{
	const struct dcfg_json_field *fld;
	struct frame *top;
	int is_row, bad, rc;

	j->tok = T_OTHER;
	j->tok_len = 1;
	if (j->skip) {
		if (++j->skip > MAX_SKIP)
			return dcfg_json_fail(j, "nesting deeper than %d levels", MAX_SKIP), 0;
		return 1;
	}
	top = j->depth > 0 ? &j->frames[j->depth - 1] : NULL;
	if (top && (top->kind == F_HEADER || top->kind == F_INT_ARRAY ||
	    top->kind == F_DICT)) {
		top->count++;
		return dcfg_json_fail(j, "expected %s, found %s",
		    top->kind == F_HEADER ? "a column name" :
		    top->kind == F_DICT ? "a string" : "an integer",
		    dcfg_json_found_name(T_OTHER, is_array ? 2 : 1)), 0;
	}
	fld = value_start(j, &is_row, &bad);
	if (bad) {
		if (!j->failed)
			dcfg_json_fail(j, "unexpected value");
		return 0;
	}
	if (fld == NULL || fld->kind == DCFG_JSON_SKIP) {
		j->skip = 1;
		return 1;
	}
	if (is_row) {
		if (!is_array)
			return dcfg_json_fail(j, "expected a table row (an array), found an object"), 0;
		if (top->ncols == 0)   /* the first row is the header; it is never empty */
			return push(j, F_HEADER, fld);
		top->count++;
		if (!push(j, F_ROW, fld))
			return 0;
		return !j->h->row_begin || verdict(j, j->h->row_begin(j->ctx, fld->id));
	}
	int wants_object = fld->kind == DCFG_JSON_OBJECT || fld->kind == DCFG_JSON_DICT;
	if ((wants_object && is_array) || (!wants_object && !is_array) ||
	    (!wants_object && fld->kind != DCFG_JSON_TABLE &&
	    fld->kind != DCFG_JSON_INT_ARRAY))
		return dcfg_json_wrong_type(j, fld, T_OTHER, is_array ? 2 : 1), 0;
	rc = j->h->begin ? j->h->begin(j->ctx, fld->id) : DCFG_JSON_OK;
	if (rc == DCFG_JSON_DROP) {
		j->skip = 1;
		return 1;
	}
	if (!verdict(j, rc))
		return 0;
	return push(j, fld->kind == DCFG_JSON_OBJECT ? F_OBJECT :
	    fld->kind == DCFG_JSON_DICT ? F_DICT :
	    fld->kind == DCFG_JSON_TABLE ? F_TABLE : F_INT_ARRAY, fld);
}

static int
cb_start_map(void *ctx)
{
	return container_start(ctx, 0);
}

static int
cb_start_array(void *ctx)
{
	struct dcfg_json *j = ctx;
	struct frame *t;

	/* A table's data row, the commonest '[': as container_start() takes it. */
	if (!j->skip && j->depth > 0 && j->depth < MAX_FRAMES) {
		t = &j->frames[j->depth - 1];
		if (t->kind == F_TABLE && t->ncols > 0) {
			j->tok = T_OTHER;
			j->tok_len = 1;
			t->count++;
			push(j, F_ROW, t->field);
			return !j->h->row_begin || verdict(j, j->h->row_begin(j->ctx, t->field->id));
		}
	}
	return container_start(ctx, 1);
}

static int
cb_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct dcfg_json *j = ctx;
	struct frame *f;
	const struct dcfg_json_schema *sc;
	int i;

	j->tok = T_STRING;
	j->tok_len = len + 2;
	if (j->skip)
		return 1;
	f = &j->frames[j->depth - 1];
	if (f->kind == F_DICT) {
		if (dcfg_reserve((void **)&j->key, &j->key_cap, len + 1, 1) < 0)
			return dcfg_json_fail(j, "out of memory"), 0;
		memcpy(j->key, key, len);
		j->key[len] = '\0';
		j->key_len = len;
		dcfg_json_token_position(j, &j->key_line, &j->key_column);
		return 1;
	}
	sc = f->field->schema;
	f->cur = NULL;
	for (i = 0; i < sc->n_fields; i++) {
		if (strlen(sc->fields[i].name) != len ||
		    memcmp(sc->fields[i].name, key, len) != 0)
			continue;
		f->cur = &sc->fields[i];
		if (f->seen & (UINT64_C(1) << i))
			return dcfg_json_fail(j, "key appears twice in the same object"), 0;
		f->seen |= UINT64_C(1) << i;
	}
	return 1;
}

static void
pop(struct dcfg_json *j)
{
	j->depth--;
	j->top = j->depth > 0 ? &j->frames[j->depth - 1] : NULL;
}

static int
container_end(struct dcfg_json *j)
{
	struct frame *f;
	const struct dcfg_json_schema *sc;
	int i;

	j->tok = T_OTHER;
	j->tok_len = 1;
	if (j->skip) {
		if (--j->skip == 0)
			value_done(j);
		return 1;
	}
	f = &j->frames[j->depth - 1];
	switch (f->kind) {
	case F_OBJECT:
		sc = f->field->schema;
		for (i = 0; i < sc->n_fields; i++)
			if (sc->fields[i].required && !(f->seen & (UINT64_C(1) << i))) {
				f->cur = NULL;
				return dcfg_json_fail(j, "missing required key %s",
				    sc->fields[i].name), 0;
			}
		break;
	case F_HEADER:
		sc = f->field->schema;
		for (i = 0; i < sc->n_fields; i++)
			if (sc->fields[i].required && !((f - 1)->seen & (UINT64_C(1) << i)))
				return dcfg_json_fail_at_frame(j, f, "the header has no %s column",
				    sc->fields[i].name), 0;
		if (f->count == 0)
			return dcfg_json_fail_at_frame(j, f, "the header row is empty"), 0;
		dcfg_json_place(j, f);
		j->header_line = f->line;
		j->header_column = f->column;
		/* (called with the header still open, so errors name "[header]") */
		if (j->h->header && !verdict(j, j->h->header(j->ctx, f->field->id)))
			return 0;
		pop(j);
		return 1;
	case F_ROW:
		if (f->count < (f - 1)->need) {
			const struct frame *t = f - 1;
			unsigned pos;
			for (pos = (unsigned)f->count; pos < t->need; pos++)
				if (t->colmap[pos] != NO_COLUMN &&
				    t->field->schema->fields[t->colmap[pos]].required)
					break;
			f->count = 0;
			return dcfg_json_fail_at_frame(j, f, "row has no value for %s",
			    t->field->schema->fields[t->colmap[pos]].name), 0;
		}
		if (j->h->row_end && !verdict(j, j->h->row_end(j->ctx, f->field->id)))
			return 0;
		pop(j);
		return 1;
	default:
		break;
	}
	if (j->h->end && !verdict(j, j->h->end(j->ctx, f->field->id)))
		return 0;
	pop(j);
	value_done(j);
	return 1;
}

static int
cb_end(void *ctx)
{
	return container_end(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_boolean,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_map_key,
	.yajl_end_map = cb_end,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end,
};

struct dcfg_json *
dcfg_json_new(const struct dcfg_json_field *root,
    const struct dcfg_json_handler *handler, void *ctx)
{
	struct dcfg_json *j = calloc(1, sizeof *j);

	if (j == NULL)
		return NULL;
	j->root = root;
	j->h = handler;
	j->ctx = ctx;
	j->yajl = yajl_alloc(&callbacks, NULL, j);
	if (j->yajl == NULL) {
		free(j);
		return NULL;
	}
	return j;
}

void
dcfg_json_free(struct dcfg_json *j)
{
	if (j == NULL)
		return;
	yajl_free(j->yajl);
	free(j->key);
	free(j);
}
