/*
 * An ELF file's functions as LLVM BOLT names them, for dcfg-convert --to
 * bolt: the function table of lib/convert/bolt.h, read with elfutils.
 */
#ifndef DCFG_RECORD_ELF_FUNCTIONS_H
#define DCFG_RECORD_ELF_FUNCTIONS_H

#include <dcfg/error.h>

#include "convert/bolt.h"

/*
 * Fills T (zeroed by the caller) with the functions of the ELF file PATH,
 * at offsets from its load address (where the file's offset 0 lies, as in
 * a DCFG), under BOLT's names: a global or weak symbol's own name; a
 * local one's NAME/N, N counting the file's local symbols of that name in
 * address order (BOLT's NameResolver); a PLT entry NAME@PLT. Also its code
 * (executable sections). A file without .symtab is refused: BOLT needs
 * one. 0, or -1 with ERR (on PATH).
 */
int dcfg_rec_bolt_functions(const char *path, struct dcfg_bolt_functions *t,
    struct dcfg_error *err);

#endif
