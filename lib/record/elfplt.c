/*
 * NAME@plt symbols for an image's PLT entries, named after the GOT slot
 * each entry jumps through, as objdump and Pin name them.
 */
#include "elfplt.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

struct got_name {
	uint64_t addr;
	const char *name;          /* in the file's string table */
};

struct plt_reader {
	struct dcfg_rec_elfinfo *info;
	Elf *elf;
	unsigned machine;          /* e_machine */
	uint64_t bias;             /* the address of the file's offset 0 */
	struct got_name *got;      /* PLT slots' names, by address */
	size_t n_got, got_cap;
};

static int
by_got_addr(const void *a, const void *b)
{
	const struct got_name *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The names of the GOT slots that dynamic relocations fill with a symbol's address. */
static int
read_got_names(struct plt_reader *r)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i, n;

	while ((scn = elf_nextscn(r->elf, scn)) != NULL) {
		Elf_Data *data;
		if (gelf_getshdr(scn, &sh) == NULL || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_entsize == 0 || (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		Elf_Scn *symscn = elf_getscn(r->elf, sh.sh_link);
		GElf_Shdr symsh;
		Elf_Data *syms;
		if (symscn == NULL || gelf_getshdr(symscn, &symsh) == NULL ||
		    (syms = elf_getdata(symscn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rela rela;
			GElf_Rel rel;
			GElf_Sym sym;
			const char *name;
			if (sh.sh_type == SHT_RELA) {
				if (gelf_getrela(data, (int)i, &rela) == NULL)
					break;
			} else {
				if (gelf_getrel(data, (int)i, &rel) == NULL)
					break;
				rela.r_offset = rel.r_offset, rela.r_info = rel.r_info;
			}
			if (GELF_R_SYM(rela.r_info) == 0 ||
			    gelf_getsym(syms, (int)GELF_R_SYM(rela.r_info), &sym) == NULL ||
			    (name = elf_strptr(r->elf, symsh.sh_link, sym.st_name)) == NULL || *name == '\0')
				continue;
			if (dcfg_reserve((void **)&r->got, &r->got_cap, r->n_got + 1, sizeof *r->got) < 0)
				return -1;
			r->got[r->n_got++] = (struct got_name){ rela.r_offset, name };
		}
	}
	if (r->n_got > 1)
		qsort(r->got, r->n_got, sizeof *r->got, by_got_addr);
	return 0;
}

static const char *
got_name(const struct plt_reader *r, uint64_t addr)
{
	struct got_name key = { addr, NULL }, *hit;

	hit = r->n_got ? bsearch(&key, r->got, r->n_got, sizeof *r->got, by_got_addr) : NULL;
	return hit ? hit->name : NULL;
}

static uint32_t
word_at(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The GOT slot a PLT entry jumps through (0: none found). x86-64: the
 * entry's "jmp *disp32(%rip)" (ff 25), after an endbr64 or a bnd prefix if
 * any. aarch64: "adrp x16, PAGE; ldr x17, [x16, #OFF]", after a bti if any.
 */
static uint64_t
plt_slot(unsigned machine, const unsigned char *p, size_t size, uint64_t addr)
{
	size_t k;

	if (machine == EM_X86_64) {
		for (k = 0; k + 6 <= size; k++)
			if (p[k] == 0xff && p[k + 1] == 0x25)
				return addr + k + 6 + (uint64_t)(int64_t)(int32_t)word_at(p + k + 2);
	} else if (machine == EM_AARCH64) {
		for (k = 0; k + 8 <= size; k += 4) {
			uint32_t adrp = word_at(p + k), ldr = word_at(p + k + 4);
			if ((adrp & 0x9f00001f) != 0x90000010 || (ldr & 0xffc003ff) != 0xf9400211)
				continue;
			int64_t imm = (int64_t)(((adrp >> 5 & 0x7ffff) << 2) | (adrp >> 29 & 3));
			if (imm & (1 << 20))
				imm -= 1 << 21;
			return ((addr + k) & ~(uint64_t)0xfff) + (uint64_t)(imm * 4096) +
			    (uint64_t)(ldr >> 10 & 0xfff) * 8;
		}
	}
	return 0;
}

/*
 * NAME@plt for each PLT entry whose GOT slot a relocation names, as
 * objdump and Pin name them: entries of 16 bytes in .plt and .plt.sec,
 * of the section's entry size (8 or 16) in .plt.got. The first entry of
 * .plt, the resolver's, has no named slot.
 */
static int
read_plt(struct plt_reader *r)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx, entry, k;

	if (read_got_names(r) < 0)
		return -1;
	if (elf_getshdrstrndx(r->elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(r->elf, scn)) != NULL) {
		const char *name;
		Elf_Data *data;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    (name = elf_strptr(r->elf, shstrndx, sh.sh_name)) == NULL ||
		    strncmp(name, ".plt", 4) != 0 || (name[4] != '\0' && strcmp(name + 4, ".sec") != 0 &&
		    strcmp(name + 4, ".got") != 0) || (data = elf_getdata(scn, NULL)) == NULL ||
		    data->d_buf == NULL || sh.sh_addr < r->bias)
			continue;
		entry = strcmp(name, ".plt.got") == 0 && (sh.sh_entsize == 8 || sh.sh_entsize == 16) ?
		    sh.sh_entsize : 16;
		for (k = 0; k + entry <= data->d_size; k += entry) {
			const char *target = got_name(r, plt_slot(r->machine, (const unsigned char *)data->d_buf + k,
			    entry, sh.sh_addr + k));
			if (target != NULL && rec_elfinfo_add_symbol(r->info, target, "@plt", sh.sh_addr + k - r->bias,
			    entry) < 0)
				return -1;
		}
	}
	return 0;
}

int
rec_read_plt(struct dcfg_rec_elfinfo *info, Elf *elf, unsigned machine, uint64_t bias)
{
	struct plt_reader r = { .info = info, .elf = elf, .machine = machine, .bias = bias };
	int rc = read_plt(&r);

	free(r.got);
	return rc;
}
