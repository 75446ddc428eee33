/*
 * The table writer's names and numbers (table.h): the formats' names, the
 * share's digits, and the fields of the head and of a section, kept in a
 * pool until they are written.
 */
#include <stdlib.h>
#include <string.h>

#include "table_internal.h"
#include "vec.h"

static const char *const format_names[DCFG_TABLE_FORMATS] = { "tsv", "csv", "json", "table" };

int
dcfg_table_format_parse(const char *name, enum dcfg_table_format *f)
{
	int i;

	for (i = 0; i < DCFG_TABLE_FORMATS; i++)
		if (strcmp(name, format_names[i]) == 0) {
			*f = (enum dcfg_table_format)i;
			return 0;
		}
	return -1;
}

const char *
dcfg_table_format_name(enum dcfg_table_format f)
{
	return (unsigned)f < DCFG_TABLE_FORMATS ? format_names[f] : "?";
}

size_t
dcfg_table_share_text(char *buf, uint64_t part, uint64_t total)
{
	unsigned __int128 h = total ? ((unsigned __int128)part * 20000 + total) / ((unsigned __int128)total * 2) : 0;
	uint64_t whole = (uint64_t)(h / 100);
	char digits[24];
	size_t n = 0, k = 0;

	do {
		digits[k++] = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole);
	while (k)
		buf[n++] = digits[--k];
	buf[n++] = '.';
	buf[n++] = (char)('0' + (unsigned)(h % 100) / 10);
	buf[n++] = (char)('0' + (unsigned)(h % 10));
	buf[n] = '\0';
	return n;
}

size_t
dcfg_table_fixed_text(char *buf, double v, unsigned decimals)
{
	unsigned __int128 m, scale = 1;
	long double x;
	char digits[DCFG_TABLE_FIXED_MAX];
	size_t n = 0, k = 0;
	unsigned i;

	if (decimals > 18)
		decimals = 18;
	for (i = 0; i < decimals; i++)
		scale *= 10;
	/* below 10^38 the digits fit an unsigned __int128; a NaN is written as 0 */
	x = (v < 0 ? -(long double)v : (long double)v) * (long double)scale + 0.5L;
	m = x < 1e38L ? (unsigned __int128)x : x >= 1e38L ? (unsigned __int128)1e38L : 0;
	if (v < 0 && m != 0)
		buf[n++] = '-';
	for (i = 0; i < decimals; i++, m /= 10)
		digits[k++] = (char)('0' + (unsigned)(m % 10));
	if (decimals)
		digits[k++] = '.';
	do {
		digits[k++] = (char)('0' + (unsigned)(m % 10));
		m /= 10;
	} while (m);
	while (k)
		buf[n++] = digits[--k];
	buf[n] = '\0';
	return n;
}

size_t
dcfg_table_number_text(char *buf, uint64_t v, int hex)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	size_t n = 0, k = 0;
	unsigned base = hex ? 16 : 10;

	if (hex) {
		buf[n++] = '0';
		buf[n++] = 'x';
	}
	do {
		tmp[k++] = digits[v % base];
		v /= base;
	} while (v);
	while (k)
		buf[n++] = tmp[--k];
	buf[n] = '\0';
	return n;
}

/* ---- the pool of keys and values ---- */

size_t
dcfg_table_keep(struct dcfg_table *t, const char *s, size_t len)
{
	size_t at = t->n_pool;

	if (t->failed || dcfg_reserve((void **)&t->pool, &t->cap_pool, at + len + 1, 1) < 0) {
		t->failed = 1;
		return 0;
	}
	memcpy(t->pool + at, s, len);
	t->pool[at + len] = '\0';
	t->n_pool += len + 1;
	return at;
}

/* The escaped form of a name into the pool (dcfg_escape measures, then writes). */
static size_t
keep_escaped(struct dcfg_table *t, const char *name)
{
	size_t len = dcfg_escape(NULL, 0, name), at = t->n_pool;

	if (t->failed || dcfg_reserve((void **)&t->pool, &t->cap_pool, at + len + 1, 1) < 0) {
		t->failed = 1;
		return 0;
	}
	dcfg_escape(t->pool + at, len + 1, name);
	t->n_pool += len + 1;
	return at;
}

void
dcfg_table_add_field(struct dcfg_table *t, const char *key, size_t value, int number, int note,
    enum dcfg_table_place place)
{
	struct dcfg_table_field *f;
	size_t i;

	if (t->failed)
		return;
	if (note)   /* a note of a key given already: one field, joined */
		for (i = 0; i < t->n_fields; i++) {
			f = &t->fields[i];
			if (f->note && f->place == place && strcmp(t->pool + f->key, key) == 0) {
				size_t a = strlen(t->pool + f->value), b = strlen(t->pool + value);
				size_t at = t->n_pool;
				if (dcfg_reserve((void **)&t->pool, &t->cap_pool, at + a + b + 2, 1) < 0) {
					t->failed = 1;
					return;
				}
				memcpy(t->pool + at, t->pool + f->value, a);
				t->pool[at + a] = '\n';
				memcpy(t->pool + at + a + 1, t->pool + value, b + 1);
				t->n_pool += a + b + 2;
				f->value = at;
				return;
			}
		}
	if (dcfg_reserve((void **)&t->fields, &t->cap_fields, t->n_fields + 1, sizeof *t->fields) < 0) {
		t->failed = 1;
		return;
	}
	t->fields[t->n_fields++] = (struct dcfg_table_field){ dcfg_table_keep(t, key, strlen(key)), value,
		number, note, place };
}

void
dcfg_table_meta_text(struct dcfg_table *t, const char *key, const char *text)
{
	dcfg_table_add_field(t, key, dcfg_table_keep(t, text, strlen(text)), 0, 0, DCFG_TABLE_HEAD);
}

void
dcfg_table_meta_name(struct dcfg_table *t, const char *key, const char *name)
{
	dcfg_table_add_field(t, key, keep_escaped(t, name), 0, 0, DCFG_TABLE_HEAD);
}

void
dcfg_table_meta_u64(struct dcfg_table *t, const char *key, uint64_t v)
{
	char num[24];

	dcfg_table_add_field(t, key, dcfg_table_keep(t, num, dcfg_table_number_text(num, v, 0)), 1, 0, DCFG_TABLE_HEAD);
}

void
dcfg_table_meta_fixed(struct dcfg_table *t, const char *key, double v, unsigned decimals)
{
	char num[DCFG_TABLE_FIXED_MAX];

	dcfg_table_add_field(t, key, dcfg_table_keep(t, num, dcfg_table_fixed_text(num, v, decimals)),
	    1, 0, DCFG_TABLE_HEAD);
}

void
dcfg_table_note(struct dcfg_table *t, const char *key, const char *text, enum dcfg_table_place place)
{
	dcfg_table_add_field(t, key, dcfg_table_keep(t, text, strlen(text)), 0, 1, place);
}
