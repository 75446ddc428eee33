/* What table.c and table_aligned.c, the two halves of the table writer, share. */
#ifndef DCFG_TABLE_INTERNAL_H
#define DCFG_TABLE_INTERNAL_H

#include "table.h"

static inline const char *
key_of(const struct dcfg_table *t, const struct dcfg_table_field *f)
{
	return t->pool + f->key;
}

static inline const char *
value_of(const struct dcfg_table *t, const struct dcfg_table_field *f)
{
	return t->pool + f->value;
}

/* V in decimal (or, HEX, as 0x...) into BUF (24 bytes): its length. */
size_t dcfg_table_number_text(char *buf, uint64_t v, int hex);
/* S (LEN bytes) kept in the pool, NUL-terminated: its offset (T->failed when out of memory). */
size_t dcfg_table_keep(struct dcfg_table *t, const char *s, size_t len);
/* A field KEY with the kept VALUE; a note joins the note of its key and place, if any. */
void dcfg_table_add_field(struct dcfg_table *t, const char *key, size_t value, int number, int note,
    enum dcfg_table_place place);

/* The current section in the table format: its fields, its column names and its rows. */
void dcfg_table_render_aligned(struct dcfg_table *t);

#endif
