/*
 * What dcfg-convert --to bolt needs of an ELF file: its function symbols
 * (as dcfg-record reads them, with the PLT entries NAME@plt), its code,
 * and the virtual address of its offset 0.
 */
#include "elf_functions.h"

#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/vec.h"
#include "elfplt.h"

struct elf_reader {
	const char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	uint64_t bias;             /* the address of the file's offset 0 */
	size_t shstrndx;
	struct dcfg_error *err;
};

static int
fail(struct elf_reader *r, const char *what)
{
	return dcfg_error_set(r->err, r->path, "%s", what);
}

static int
open_file(struct elf_reader *r)
{
	size_t n, i;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(r, "elfutils cannot read ELF here");
	if ((r->fd = rec_open_regular(r->path)) < 0)
		return dcfg_error_set(r->err, r->path, "cannot read the binary: %s",
		    errno == EINVAL ? "not a regular file" : strerror(errno));
	if ((r->elf = elf_begin(r->fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(r->elf) != ELF_K_ELF || gelf_getehdr(r->elf, &r->eh) == NULL ||
	    elf_getphdrnum(r->elf, &n) != 0 || elf_getshdrstrndx(r->elf, &r->shstrndx) != 0)
		return fail(r, "not an ELF file");
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(r->elf, (int)i, &ph) != NULL && ph.p_type == PT_LOAD) {
			r->bias = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return fail(r, "has nothing loadable: not a program or shared object");
}

static const char *
section_name(const struct elf_reader *r, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(r->elf, r->shstrndx, sh->sh_name);

	return name ? name : "";
}

/* BOLT's PLT sections (RewriteInstance::getPLTSectionInfo). */
static int
is_plt_section(const char *name)
{
	return strcmp(name, ".plt") == 0 || strcmp(name, ".plt.sec") == 0 ||
	    strcmp(name, ".plt.got") == 0 || strcmp(name, ".iplt") == 0;
}

/* The code ranges: the executable sections, loaded. */
static int
read_code(struct elf_reader *r, struct dcfg_bolt_functions *t)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(r->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || sh.sh_size == 0 || sh.sh_addr < r->bias ||
		    sh.sh_addr + sh.sh_size < sh.sh_addr)
			continue;
		if (dcfg_bolt_add_code(t, sh.sh_addr - r->bias, sh.sh_addr + sh.sh_size - r->bias,
		    is_plt_section(section_name(r, &sh)) ? DCFG_BOLT_PLT : 0) < 0)
			return fail(r, "out of memory");
	}
	return 0;
}

static Elf_Scn *
symbol_table(const struct elf_reader *r, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(r->elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) != NULL && sh->sh_type == SHT_SYMTAB)
			return scn;
	return NULL;
}

static int
add_function(void *t, const char *name, uint64_t offset, uint64_t size)
{
	return dcfg_bolt_add_function(t, offset, size, name, "", 0);
}

/* The functions of .symtab, as dcfg-record reads them for its SYMBOLS. */
static int
read_functions(struct elf_reader *r, struct dcfg_bolt_functions *t)
{
	GElf_Shdr sh;
	Elf_Scn *scn = symbol_table(r, &sh);

	if (scn == NULL)
		return fail(r, "has no symbol table (stripped?): BOLT needs one");
	if (rec_each_function_symbol(r->elf, scn, &sh, r->bias, add_function, t) < 0)
		return fail(r, "out of memory");
	return 0;
}

/* PLT entries, as dcfg-record finds and names them: NAME@plt. */
static int
add_plt(struct elf_reader *r, struct dcfg_bolt_functions *t)
{
	struct dcfg_rec_elfinfo plt = { .n_symbols = 0 };
	size_t i;
	int rc = 0;

	if (rec_read_plt(&plt, r->elf, r->eh.e_machine, r->bias) < 0)
		rc = fail(r, "out of memory");
	for (i = 0; rc == 0 && i < plt.n_symbols; i++)
		if (dcfg_bolt_add_function(t, plt.symbols[i].offset, plt.symbols[i].size,
		    plt.strings + plt.symbols[i].name, "", DCFG_BOLT_PLT) < 0)
			rc = fail(r, "out of memory");
	dcfg_rec_elfinfo_free(&plt);
	return rc;
}

int
dcfg_rec_bolt_functions(const char *path, struct dcfg_bolt_functions *t, struct dcfg_error *err)
{
	struct elf_reader r = { .path = path, .fd = -1, .err = err };
	int rc = -1;

	if (open_file(&r) == 0 && read_code(&r, t) == 0 && read_functions(&r, t) == 0 &&
	    add_plt(&r, t) == 0) {
		if (dcfg_bolt_functions_finish(t) < 0)
			fail(&r, "out of memory");
		else
			rc = 0;
	}
	t->base = r.bias;
	if (r.elf != NULL)
		elf_end(r.elf);
	if (r.fd >= 0)
		close(r.fd);
	return rc;
}
