/*
 * Between elfinfo.c, elfplt.c and elf_functions.c: the NAME@plt symbols
 * of an image's PLT entries, added to its symbols; opening a file.
 */
#ifndef DCFG_RECORD_ELFPLT_H
#define DCFG_RECORD_ELFPLT_H

#include <stdint.h>

#include <gelf.h>
#include <libelf.h>

#include "elfinfo.h"

/*
 * PATH opened for reading if it is a regular file, else -1 (errno set): an
 * image path could name a FIFO or a device, which a plain open would block
 * on or read without end.
 */
int rec_open_regular(const char *path);

/*
 * Calls ADD(CTX, NAME, OFFSET, SIZE) for each function (STT_FUNC,
 * STT_GNU_IFUNC) of the symbol table SCN (its header SH) of ELF that is
 * named and lies in an executable section, at a non-zero address not
 * below BIAS, the address of the file's offset 0; OFFSET is from BIAS.
 * 0, or ADD's -1.
 */
int rec_each_function_symbol(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t bias,
    int (*add)(void *ctx, const char *name, uint64_t offset, uint64_t size), void *ctx);

/* Adds the symbol NAME followed by SUFFIX to INFO. 0, or -1 when out of memory. */
int rec_elfinfo_add_symbol(struct dcfg_rec_elfinfo *info, const char *name, const char *suffix,
    uint64_t offset, uint64_t size);

/*
 * Adds NAME@plt for each PLT entry of ELF (of machine MACHINE, e_machine;
 * EM_X86_64 and EM_AARCH64 are known) whose GOT slot a dynamic relocation
 * names, at its offset from the load address, BIAS being the address of
 * the file's offset 0. 0, or -1 when out of memory.
 */
int rec_read_plt(struct dcfg_rec_elfinfo *info, Elf *elf, unsigned machine, uint64_t bias);

#endif
