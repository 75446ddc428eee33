/*
 * What an image's file says about its code, read with elfutils (libelf,
 * libdw): the symbols of its functions and the source lines of the code
 * that ran, both as offsets from the image's load address (where the
 * file's offset 0 lies). Also the FILE_NAMES table that images and source
 * files share (spec 2.4).
 */
#ifndef DCFG_RECORD_ELFINFO_H
#define DCFG_RECORD_ELFINFO_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>

#include "graph.h"

/* FILE_NAMES: each distinct name once, with ids 1, 2, ... in the order first asked for. */
struct dcfg_rec_names {
	char **names;              /* names[id - 1] */
	size_t n, cap;
	uint32_t *slots;           /* open addressing by hash: an id, 0 for a free slot */
	size_t n_slots;
};

/* The id of NAME (LEN bytes), added when new; 0 when out of memory. */
uint32_t dcfg_rec_name_id(struct dcfg_rec_names *t, const char *name, size_t len);
void dcfg_rec_names_free(struct dcfg_rec_names *t);

struct dcfg_rec_symbol {
	uint64_t offset, size;     /* from the image's load address */
	size_t name;               /* into the info's strings */
};

/* A SOURCE_DATA row: one line-table range cut to one block. */
struct dcfg_rec_source_row {
	uint32_t file, line;       /* FILE_NAME_ID, LINE_NUM */
	uint64_t offset;
	uint32_t size, n_instrs;
};

struct dcfg_rec_elfinfo {
	struct dcfg_rec_symbol *symbols;   /* by offset, then size, then name */
	size_t n_symbols, symbols_cap;
	char *strings;
	size_t strings_len, strings_cap;
	struct dcfg_rec_source_row *rows;  /* by offset */
	size_t n_rows, rows_cap;
};

/*
 * Fills INFO (zeroed by the caller) for image IMAGE (an index into
 * G->images) from its file: the function symbols, and a source row for
 * each piece of a line-table range inside one of BLOCKS (N indices into
 * G->blocks, the image's blocks by address). A file that cannot be
 * opened or is not ELF (deleted, "[vdso]", anonymous memory) leaves INFO
 * empty, as does a file without line tables its SOURCE_DATA. 0, or -1
 * with ERR set (out of memory).
 */
int dcfg_rec_elfinfo_read(struct dcfg_rec_elfinfo *info, const struct dcfg_rec_graph *g,
    uint32_t image, const uint32_t *blocks, size_t n, struct dcfg_rec_names *names,
    struct dcfg_error *err);
void dcfg_rec_elfinfo_free(struct dcfg_rec_elfinfo *info);

#endif
