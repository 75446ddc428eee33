/*
 * An ELF file's functions and code, for dcfg-convert --to bolt: the
 * table of lib/convert/bolt.h, read with elfutils.
 */
#ifndef DCFG_RECORD_ELF_FUNCTIONS_H
#define DCFG_RECORD_ELF_FUNCTIONS_H

#include <dcfg/error.h>

#include "convert/bolt.h"

/*
 * Fills T (zeroed by the caller) from the ELF file PATH: its function
 * symbols and PLT entries (NAME@plt) at offsets from its load address
 * (where the file's offset 0 lies, as in a DCFG), its code (executable
 * sections) and the virtual address of that load address. A file without
 * .symtab is refused: BOLT needs one. 0, or -1 with ERR (on PATH).
 */
int dcfg_rec_bolt_functions(const char *path, struct dcfg_bolt_functions *t,
    struct dcfg_error *err);

#endif
