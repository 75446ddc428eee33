/*
 * dcfg-convert --to bolt: one image of a DCFG as the pre-aggregated
 * profile that LLVM BOLT reads with `llvm-bolt -pa -p FILE` (and
 * perf2bolt), the records perf's branch samples are aggregated into:
 *
 *     B FROM TO COUNT MISPREDICTIONS   a branch or call taken COUNT times
 *     F START END COUNT                a straight run of code, START to END
 *     f START END COUNT                the same, entered from outside
 *
 * Addresses are the binary's own (its ELF virtual addresses, lower-case
 * hex without 0x), 0 for code outside the image; MISPREDICTIONS is 0, a
 * DCFG does not know them. BOLT finds its own blocks in the runs, so the
 * profile needs no knowledge of where they start.
 *
 * The binary is read by the caller (dcfg-convert, through lib/record),
 * into the table below, so that lib/convert needs no ELF library: its
 * functions, to refuse a DCFG of another binary, its code, and the
 * virtual address of its load address.
 */
#ifndef DCFG_CONVERT_BOLT_H
#define DCFG_CONVERT_BOLT_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>

enum {
	DCFG_BOLT_PLT   = 1 << 0,   /* a PLT entry (NAME@plt), or a PLT section (code ranges) */
	DCFG_BOLT_ALIAS = 1 << 1    /* another symbol where a function starts */
};

/* A function symbol. Offsets are from the image's load address, as the DCFG's. */
struct dcfg_bolt_function {
	uint64_t start, size;
	size_t name;               /* into strings: the symbol's name (helper, puts@plt) */
	unsigned flags;            /* DCFG_BOLT_* */
};

/* Code: an executable section of the file, [start, end). */
struct dcfg_bolt_code {
	uint64_t start, end;
	unsigned flags;            /* DCFG_BOLT_PLT for .plt, .plt.sec, .plt.got */
};

struct dcfg_bolt_functions {
	struct dcfg_bolt_function *f;   /* by start after dcfg_bolt_functions_finish */
	size_t n, cap;
	struct dcfg_bolt_code *code;
	size_t n_code, code_cap;
	char *strings;
	size_t strings_len, strings_cap;
	uint64_t base;             /* the virtual address of the load address (file offset 0) */
};

/* Adds a function named NAME followed by SUFFIX. 0, or -1 when out of memory. */
int dcfg_bolt_add_function(struct dcfg_bolt_functions *t, uint64_t start, uint64_t size,
    const char *name, const char *suffix, unsigned flags);
/* Adds a code range. 0, or -1 when out of memory. */
int dcfg_bolt_add_code(struct dcfg_bolt_functions *t, uint64_t start, uint64_t end,
    unsigned flags);
/*
 * Sorts the table by start (of functions that start together, the first
 * added is the function, the others DCFG_BOLT_ALIAS) and gives each
 * function of size 0 the room up to the next function or the end of its
 * code, as BOLT does for assembly functions. 0, or -1 when out of memory.
 */
int dcfg_bolt_functions_finish(struct dcfg_bolt_functions *t);
void dcfg_bolt_functions_free(struct dcfg_bolt_functions *t);

/* The first function that starts at OFFSET or after it (N when none does). */
size_t dcfg_bolt_first_from(const struct dcfg_bolt_functions *t, uint64_t offset);
/* The function that covers OFFSET (never an alias), or DCFG_NONE. */
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
