#include "bykind.h"

#include <string.h>

#include <dcfg/dcfg.h>
#include "count_rows.h"
#include "count_source.h"

/* Source lines cost memory: only loops (their heads' places), lines and files read them. */
#define KEEP_NO_SOURCE (DCFG_KEEP_ALL & ~DCFG_KEEP_SOURCE)
#define N DCFG_COLUMN_NUMBER
#define T DCFG_COLUMN_TEXT
#define P DCFG_COLUMN_PATH
/* The counts that end every kind's row (a loop's have its iterations between). */
#define COUNTS { "executions", N }, { "instructions", N }, { "share", N }
#define COLS(a) a, sizeof a / sizeof a[0]

static const struct dcfg_table_column edge_cols[] = { { "edge", N }, COUNTS };
static const struct dcfg_table_column block_cols[] = { { "block", N }, COUNTS };
static const struct dcfg_table_column routine_cols[] = { { "routine", N }, { "name", T }, COUNTS };
static const struct dcfg_table_column loop_cols[] = { { "loop", N }, { "routine", N },
	{ "name", T }, { "source", P }, { "depth", N }, { "innermost", T }, { "static", N },
	{ "entries", N }, { "iterations", N }, { "instructions", N }, { "share", N } };
static const struct dcfg_table_column image_cols[] = { { "image", P }, COUNTS };
static const struct dcfg_table_column type_cols[] = { { "type", T }, COUNTS };
static const struct dcfg_table_column thread_cols[] = { { "thread", N }, COUNTS };
static const struct dcfg_table_column line_cols[] = { { "line", P }, COUNTS };
static const struct dcfg_table_column file_cols[] = { { "file", P }, COUNTS };

static const struct dcfg_count_kind kinds[] = {
	[DCFG_BY_EDGE] = { "edge", COLS(edge_cols), KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 0, 0, dcfg_count_edge_rows, NULL, NULL },
	[DCFG_BY_BLOCK] = { "block", COLS(block_cols), KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 1, 0, dcfg_count_block_rows, NULL, NULL },
	[DCFG_BY_ROUTINE] = { "routine", COLS(routine_cols), KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 1, 0, dcfg_count_routine_rows, dcfg_count_out_routine, NULL },
	[DCFG_BY_LOOP] = { "loop", COLS(loop_cols), DCFG_KEEP_ALL,
	    DCFG_COUNT_KEY_ID, 1, 1, 0, dcfg_count_loop_rows, dcfg_count_out_loop, NULL },
	[DCFG_BY_IMAGE] = { "image", COLS(image_cols), KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_NAME, 0, 1, 0, dcfg_count_image_rows, NULL, NULL },
	[DCFG_BY_TYPE] = { "type", COLS(type_cols), KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_NAME, 0, 0, 0, dcfg_count_type_rows, NULL, NULL },
	[DCFG_BY_THREAD] = { "thread", COLS(thread_cols), KEEP_NO_SOURCE,
	    DCFG_COUNT_KEY_ID, 0, 0, 1, dcfg_count_thread_rows, NULL, dcfg_count_thread_cmp },
	[DCFG_BY_LINE] = { "line", COLS(line_cols), DCFG_KEEP_ALL,
	    DCFG_COUNT_KEY_FILE_LINE, 0, 1, 0, dcfg_count_line_rows, NULL, NULL },
	[DCFG_BY_FILE] = { "file", COLS(file_cols), DCFG_KEEP_ALL,
	    DCFG_COUNT_KEY_FILE, 0, 1, 0, dcfg_count_file_rows, NULL, NULL },
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
	return (int)k->n_cols;
}
