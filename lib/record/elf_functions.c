/*
 * An ELF file's functions under the names LLVM BOLT gives them
 * (RewriteInstance::discoverFileObjects, BOLT 19): the symbols it keeps,
 * sorted by address, a local one named NAME/N where N counts the local
 * symbols of that name seen so far (NameResolver::uniquify), whatever
 * their type; PLT entries as NAME@PLT.
 */
#include "elf_functions.h"

#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/vec.h"
#include "elfplt.h"

/* A symbol BOLT keeps, with what its name and order depend on. */
struct kept {
	uint64_t addr, size;
	const char *name;          /* the section's name for a section symbol, as LLVM gives it */
	size_t index;              /* in .symtab: the order of symbols at one address */
	unsigned char type, bind;
	int code;                  /* in an executable section */
};

/* The counts of local names so far: NAME/N's N. */
struct name_count {
	const char *name;
	uint64_t n;
};

struct elf_reader {
	const char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	uint64_t bias;             /* the address of the file's offset 0 */
	size_t shstrndx;
	struct kept *syms;
	size_t n_syms, syms_cap;
	struct name_count *counts;   /* open addressing by the name's hash */
	size_t n_counts;
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
		Elf_Data *data = sh.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
		const uint8_t *bytes = data != NULL && data->d_buf != NULL && data->d_size == sh.sh_size ?
		    data->d_buf : NULL;
		if (dcfg_bolt_add_code(t, sh.sh_addr - r->bias, sh.sh_addr + sh.sh_size - r->bias,
		    is_plt_section(section_name(r, &sh)) ? DCFG_BOLT_PLT : 0, bytes) < 0)
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

/*
 * Whether BOLT keeps SYM (isSymbolInMemory, checkSymbolInSection, and the
 * loop's own skips): defined, in a loaded section and inside it (or
 * absolute), at an address other than 0, not a marker of hot text, not a
 * section symbol of a PLT section. *K gets it.
 */
static int
keep_symbol(const struct elf_reader *r, const GElf_Sym *sym, const char *name, size_t index,
    struct kept *k)
{
	unsigned char type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (sym->st_shndx == SHN_UNDEF || type == STT_FILE || sym->st_value == 0 ||
	    strcmp(name, "__hot_start") == 0 || strcmp(name, "__hot_end") == 0)
		return 0;
	*k = (struct kept){ sym->st_value, sym->st_size, name, index, type,
	    GELF_ST_BIND(sym->st_info), 0 };
	if (sym->st_shndx == SHN_ABS)
		return 1;
	if (sym->st_shndx >= SHN_LORESERVE || (scn = elf_getscn(r->elf, sym->st_shndx)) == NULL ||
	    gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) ||
	    sym->st_value < sh.sh_addr || sym->st_value + sym->st_size > sh.sh_addr + sh.sh_size)
		return 0;
	if (type == STT_SECTION) {
		k->name = section_name(r, &sh);
		if (is_plt_section(k->name))
			return 0;
	}
	k->code = (sh.sh_flags & SHF_EXECINSTR) != 0;
	return 1;
}

static int
read_symbols(struct elf_reader *r)
{
	GElf_Shdr sh;
	Elf_Scn *scn = symbol_table(r, &sh);
	Elf_Data *data;
	size_t i, n;

	if (scn == NULL)
		return fail(r, "has no symbol table (stripped?): BOLT needs one");
	if (sh.sh_entsize == 0 || (data = elf_getdata(scn, NULL)) == NULL)
		return fail(r, "its symbol table cannot be read");
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		struct kept k;
		if (gelf_getsym(data, (int)i, &sym) == NULL)
			break;
		if ((name = elf_strptr(r->elf, sh.sh_link, sym.st_name)) == NULL)
			name = "";
		if (!keep_symbol(r, &sym, name, i, &k))
			continue;
		if (dcfg_reserve((void **)&r->syms, &r->syms_cap, r->n_syms + 1, sizeof *r->syms) < 0)
			return fail(r, "out of memory");
		r->syms[r->n_syms++] = k;
	}
	return 0;
}

static int
is_function(const struct kept *k)
{
	return k->type == STT_FUNC || k->type == STT_GNU_IFUNC;
}

/* BOLT's order: by address; at one address functions first, section symbols last, else as in the table. */
static int
bolt_order(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (is_function(x) != is_function(y))
		return is_function(x) ? -1 : 1;
	if ((x->type == STT_SECTION) != (y->type == STT_SECTION))
		return x->type == STT_SECTION ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

static uint64_t
hash_name(const char *s)
{
	uint64_t h = 14695981039346656037u;   /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* NAME's count of local symbols, one more: N of NAME/N. The table has room for every symbol. */
static uint64_t
uniquify(struct elf_reader *r, const char *name)
{
	size_t mask = r->n_counts - 1, k;

	for (k = hash_name(name) & mask; r->counts[k].name != NULL; k = (k + 1) & mask)
		if (strcmp(r->counts[k].name, name) == 0)
			return ++r->counts[k].n;
	r->counts[k] = (struct name_count){ name, 1 };
	return 1;
}

/* Adds the functions, named as BOLT names them, in BOLT's order. */
static int
name_functions(struct elf_reader *r, struct dcfg_bolt_functions *t)
{
	size_t i, slots = 16;
	char suffix[24];

	qsort(r->syms, r->n_syms, sizeof *r->syms, bolt_order);
	while (slots < 2 * r->n_syms)
		slots *= 2;
	if ((r->counts = calloc(slots, sizeof *r->counts)) == NULL)
		return fail(r, "out of memory");
	r->n_counts = slots;
	for (i = 0; i < r->n_syms; i++) {
		const struct kept *k = &r->syms[i];
		int local = k->bind == STB_LOCAL && *k->name != '\0';
		suffix[0] = '\0';
		if (local)
			snprintf(suffix, sizeof suffix, "/%llu", (unsigned long long)uniquify(r, k->name));
		/* what dcfg-record lists as SYMBOLS: functions in code, named, loaded */
		if (!is_function(k) || !k->code || *k->name == '\0' || k->addr < r->bias)
			continue;
		if (dcfg_bolt_add_function(t, k->addr - r->bias, k->size, k->name, suffix, k->name, "",
		    0) < 0)
			return fail(r, "out of memory");
	}
	return 0;
}

/* PLT entries, as dcfg-record finds them, under BOLT's name NAME@PLT. */
static int
add_plt(struct elf_reader *r, struct dcfg_bolt_functions *t)
{
	struct dcfg_rec_elfinfo plt = { .n_symbols = 0 };
	size_t i;
	int rc = 0;

	if (rec_read_plt(&plt, r->elf, r->eh.e_machine, r->bias) < 0)
		rc = fail(r, "out of memory");
	for (i = 0; rc == 0 && i < plt.n_symbols; i++) {
		char *symbol = plt.strings + plt.symbols[i].name;
		size_t len = strlen(symbol);
		if (len < 4 || strcmp(symbol + len - 4, "@plt") != 0)
			continue;
		symbol[len - 4] = '\0';
		if (dcfg_bolt_add_function(t, plt.symbols[i].offset, plt.symbols[i].size, symbol,
		    "@PLT", symbol, "@plt", DCFG_BOLT_PLT) < 0)
			rc = fail(r, "out of memory");
	}
	dcfg_rec_elfinfo_free(&plt);
	return rc;
}

/* The open file, kept while the table points at its code. */
struct elf_owner {
	int fd;
	Elf *elf;
};

static void
release_elf(void *owner)
{
	struct elf_owner *o = owner;

	if (o->elf != NULL)
		elf_end(o->elf);
	if (o->fd >= 0)
		close(o->fd);
	free(o);
}

int
dcfg_rec_bolt_functions(const char *path, struct dcfg_bolt_functions *t, struct dcfg_error *err)
{
	struct elf_reader r = { .path = path, .fd = -1, .err = err };
	struct elf_owner *owner = malloc(sizeof *owner);
	int rc = -1;

	if (owner == NULL)
		return dcfg_error_set(err, path, "out of memory");
	if (open_file(&r) == 0 && read_code(&r, t) == 0 && read_symbols(&r) == 0 &&
	    name_functions(&r, t) == 0 && add_plt(&r, t) == 0) {
		if (dcfg_bolt_functions_finish(t) < 0)
			fail(&r, "out of memory");
		else
			rc = 0;
	}
	free(r.syms);
	free(r.counts);
	*owner = (struct elf_owner){ r.fd, r.elf };
	if (rc < 0) {
		release_elf(owner);
		return rc;
	}
	t->machine = r.eh.e_machine == EM_X86_64 ? DCFG_BOLT_X86_64 : DCFG_BOLT_OTHER;
	t->owner = owner;
	t->release = release_elf;
	return 0;
}
