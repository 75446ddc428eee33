#include "bykind.h"

#include <string.h>

#include <dcfg/dcfg.h>
#include "count_table.h"

/* Source lines cost memory: only loops (their heads' places), lines and files read them. */
#define KEEP_NO_SOURCE (DCFG_KEEP_ALL & ~DCFG_KEEP_SOURCE)
#define COUNTS "executions\tinstructions\tshare\n"

static const struct dcfg_count_kind kinds[] = {
	[DCFG_BY_EDGE] = { "edge", "# edge\t" COUNTS, KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 0, 0, dcfg_count_edge_rows, NULL },
	[DCFG_BY_BLOCK] = { "block", "# block\t" COUNTS, KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 1, 0, dcfg_count_block_rows, NULL },
	[DCFG_BY_ROUTINE] = { "routine", "# routine\tname\t" COUNTS, KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 1, 0, dcfg_count_routine_rows, dcfg_count_out_routine },
	[DCFG_BY_LOOP] = { "loop", "# loop\troutine\tname\tsource\tdepth\tinnermost\tstatic"
	    "\tentries\titerations\tinstructions\tshare\n", DCFG_KEEP_ALL,
	    DCFG_COUNT_KEY_ID, 1, 1, 0, dcfg_count_loop_rows, dcfg_count_out_loop },
	[DCFG_BY_IMAGE] = { "image", "# image\t" COUNTS, KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_NAME, 0, 1, 0, dcfg_count_image_rows, NULL },
	[DCFG_BY_TYPE] = { "type", "# type\t" COUNTS, KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_NAME, 0, 0, 0, dcfg_count_type_rows, NULL },
	[DCFG_BY_THREAD] = { "thread", "# thread\t" COUNTS, KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 0, 1, dcfg_count_thread_rows, NULL },
	[DCFG_BY_LINE] = { "line", "# line\t" COUNTS, DCFG_KEEP_ALL,
	    DCFG_COUNT_KEY_FILE_LINE, 0, 1, 0, dcfg_count_line_rows, NULL },
	[DCFG_BY_FILE] = { "file", "# file\t" COUNTS, DCFG_KEEP_ALL,
	    DCFG_COUNT_KEY_FILE, 0, 1, 0, dcfg_count_file_rows, NULL },
};

_Static_assert(sizeof kinds / sizeof kinds[0] == DCFG_BY_KINDS, "a row for every kind");

const struct dcfg_count_kind *
dcfg_count_kind(enum dcfg_count_by by)
{
	return &kinds[by];
}

int
dcfg_count_by_parse(const char *name, enum dcfg_count_by *by)
{
	int i;

	for (i = 0; i < DCFG_BY_KINDS; i++)
		if (strcmp(name, kinds[i].name) == 0) {
			*by = (enum dcfg_count_by)i;
			return 0;
		}
	return -1;
}

int
dcfg_count_kind_columns(const struct dcfg_count_kind *k)
{
	const char *s;
	int n = 1;

	for (s = k->columns; *s; s++)
		n += *s == '\t';
	return n;
}
