/*
 * dcfg-convert --to bolt: one image of a DCFG as the .fdata profile that
 * LLVM BOLT reads with `llvm-bolt -data` and that its own instrumentation
 * writes, one line per branch:
 *
 *     1 FROM_FUNCTION FROM_OFFSET 1 TO_FUNCTION TO_OFFSET 0 COUNT
 *
 * Addresses are functions of the image's file and offsets into them (hex,
 * without 0x), so a position-independent program or a shared object needs
 * no rebasing; code outside the image is "0 [unknown] 0". The 0 is the
 * mispredictions, which a DCFG does not know.
 *
 * BOLT names functions after the file's symbol table, which this module
 * never reads: the caller (dcfg-convert, through lib/record) fills a
 * function table, below, and lib/convert needs no ELF library.
 */
#ifndef DCFG_CONVERT_BOLT_H
#define DCFG_CONVERT_BOLT_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>

enum {
	DCFG_BOLT_PLT   = 1 << 0,   /* a PLT entry (NAME@PLT), or a PLT section (code ranges) */
	DCFG_BOLT_ALIAS = 1 << 1    /* another symbol where a function starts: not BOLT's name */
};

/* A function as BOLT sees it. Offsets are from the image's load address, as the DCFG's. */
struct dcfg_bolt_function {
	uint64_t start, size;
	size_t name;               /* into strings: BOLT's name (main, helper/2, puts@PLT) */
	size_t symbol;             /* into strings: the symbol's own name (helper, puts@plt) */
	unsigned flags;            /* DCFG_BOLT_* */
};

/* Code: an executable section of the file, [start, end). */
struct dcfg_bolt_code {
	uint64_t start, end;
	unsigned flags;            /* DCFG_BOLT_PLT for .plt, .plt.sec, .plt.got */
	const uint8_t *bytes;      /* its end - start bytes, or NULL: not read */
};

/* The machine of the code's bytes: where BOLT's blocks start is found from x86-64 code only. */
enum dcfg_bolt_machine { DCFG_BOLT_OTHER, DCFG_BOLT_X86_64 };

struct dcfg_bolt_functions {
	struct dcfg_bolt_function *f;   /* by start after dcfg_bolt_functions_finish */
	size_t n, cap;
	struct dcfg_bolt_code *code;
	size_t n_code, code_cap;
	char *strings;
	size_t strings_len, strings_cap;
	enum dcfg_bolt_machine machine;
	/* what keeps the code's bytes, released by dcfg_bolt_functions_free: may be NULL */
	void *owner;
	void (*release)(void *owner);
};

/*
 * Adds a function named NAME (of NAME_LEN bytes) followed by SUFFIX (for
 * BOLT's "/2" or "@PLT"), whose symbol is SYMBOL followed by SYMBOL_SUFFIX.
 * 0, or -1 when out of memory.
 */
int dcfg_bolt_add_function(struct dcfg_bolt_functions *t, uint64_t start, uint64_t size,
    const char *name, const char *suffix, const char *symbol, const char *symbol_suffix,
    unsigned flags);
/* Adds a code range, with its BYTES (or NULL). 0, or -1 when out of memory. */
int dcfg_bolt_add_code(struct dcfg_bolt_functions *t, uint64_t start, uint64_t end,
    unsigned flags, const uint8_t *bytes);
/*
 * Sorts the table by start (of functions that start together, the first
 * added is BOLT's, the others DCFG_BOLT_ALIAS) and gives each function of
 * size 0 the room up to the next function or the end of its code, as
 * BOLT does for assembly functions. 0, or -1 when out of memory.
 */
int dcfg_bolt_functions_finish(struct dcfg_bolt_functions *t);
void dcfg_bolt_functions_free(struct dcfg_bolt_functions *t);
/* The first function that starts at OFFSET or after it (N when none does). */
size_t dcfg_bolt_first_from(const struct dcfg_bolt_functions *t, uint64_t offset);
/* The function that covers OFFSET (by BOLT's name, never an alias), or DCFG_NONE. */
uint32_t dcfg_bolt_function_at(const struct dcfg_bolt_functions *t, uint64_t offset);
/* The code range that holds OFFSET, or NULL. */
const struct dcfg_bolt_code *dcfg_bolt_code_at(const struct dcfg_bolt_functions *t,
    uint64_t offset);
/* Whether OFFSET is in a PLT section. */
int dcfg_bolt_in_plt(const struct dcfg_bolt_functions *t, uint64_t offset);

static inline const char *
dcfg_bolt_string(const struct dcfg_bolt_functions *t, size_t at)
{
	return t->strings + at;
}

#endif
