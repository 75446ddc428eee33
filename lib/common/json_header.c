/*
 * A table's header row, a column name at a time: its position mapped to
 * the schema's field of that name (or to none), each name once, and how
 * far a row must reach to hold every required column.
 */
#include "json_internal.h"

#include <string.h>

int
dcfg_json_header_name(struct dcfg_json *j, const char *s, size_t len)
{
	struct frame *hdr = &j->frames[j->depth - 1], *t = hdr - 1;
	const struct dcfg_json_schema *sc = t->field->schema;
	unsigned pos = (unsigned)hdr->count;   /* already counted */
	int i;

	if (pos > MAX_COLUMNS)
		return dcfg_json_fail(j, "header has more than %d columns", MAX_COLUMNS), 0;
	t->colmap[pos - 1] = NO_COLUMN;
	t->ints[pos - 1] = NULL;
	t->ncols = pos;
	for (i = 0; i < sc->n_fields; i++) {
		if (strlen(sc->fields[i].name) != len ||
		    memcmp(sc->fields[i].name, s, len) != 0)
			continue;
		if (t->seen & (UINT64_C(1) << i))
			return dcfg_json_fail(j, "column %s appears twice in the header",
			    sc->fields[i].name), 0;
		t->seen |= UINT64_C(1) << i;
		t->colmap[pos - 1] = (uint8_t)i;
		t->ints[pos - 1] = sc->fields[i].kind == DCFG_JSON_INT ? &sc->fields[i] : NULL;
		if (sc->fields[i].required && pos > t->need)
			t->need = pos;
	}
	return 1;
}
