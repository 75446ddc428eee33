/*
 * The names a person reads for code, the same in every table, profile and
 * picture: the symbol at a routine's entry (`main`), `symbol+0xOFF` inside
 * a symbol, `IMAGE+0xOFF` where no symbol covers the address. A symbol name
 * that two images of the process share (`_init`, `.plt`) is qualified with
 * its image, `_init@libc.so.6`, so that no two functions read alike. An
 * image is named by its file's base name; by its whole file name when two
 * images of the process share the base name; by `BASE#ID` (its IMAGE_ID)
 * when they share the whole file name; `imageID` when it has no file name.
 */
#ifndef DCFG_NAMES_H
#define DCFG_NAMES_H

#include <stdint.h>

#include "model.h"
#include "common/output.h"

struct dcfg_names {
	const struct dcfg *d;
	const struct dcfg_process *p;
	uint8_t *symbol_shared;    /* per symbol of the process: another image has its name */
	char *labels;              /* the image names, NUL-terminated */
	size_t *label_at;          /* per image of the process: its name in labels */
};

/* The parts of a name: NAME[+0xOFFSET][@IMAGE]. */
struct dcfg_name {
	const char *name;
	uint64_t offset;
	int with_offset;
	const char *image;         /* the qualifier, or NULL */
};

/* Sets up the names of process P: O(symbols log symbols). 0, or -1 (out of memory). */
int dcfg_names_init(struct dcfg_names *n, const struct dcfg *d, const struct dcfg_process *p);
void dcfg_names_free(struct dcfg_names *n);

/* The name of the code at ADDR (a routine's entry, a block). */
void dcfg_name_at(const struct dcfg_names *n, uint64_t addr, struct dcfg_name *nm);
/* How an image of the process is named. */
const char *dcfg_names_image(const struct dcfg_names *n, const struct dcfg_image *im);

/* Writes NAME[+0xOFFSET][@IMAGE], escaped as every name is (dcfg_out_escaped). */
void dcfg_out_name(struct dcfg_output *out, const struct dcfg_name *nm);
/*
 * NAME[+0xOFFSET][@IMAGE] into BUF (at most SIZE bytes with the NUL), as
 * the input spells it, not escaped: each writer escapes it by the rules of
 * its format. The length it needs.
 */
size_t dcfg_name_format(const struct dcfg_name *nm, char *buf, size_t size);

struct dcfg_table;
/* The name of the routine (or symbol) at block B's address, as every table shows it; "-" for none. */
void dcfg_names_cell(struct dcfg_table *w, const struct dcfg_block *b, const struct dcfg_names *names);

#endif
