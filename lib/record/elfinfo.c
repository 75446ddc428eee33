/*
 * Symbols and source lines of an image's file, with elfutils. The
 * FILE_NAMES table that images and source files share.
 */
#include "elfinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>

#include "common/vec.h"
#include "elfplt.h"

static uint64_t
hash_name(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037u;   /* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static int
grow_slots(struct dcfg_rec_names *t)
{
	size_t n = t->n_slots ? t->n_slots * 2 : 64, i, k;
	uint32_t *slots = calloc(n, sizeof *slots);

	if (slots == NULL)
		return -1;
	for (i = 0; i < t->n; i++) {
		const char *s = t->names[i];
		for (k = hash_name(s, strlen(s)) & (n - 1); slots[k] != 0; k = (k + 1) & (n - 1))
			;
		slots[k] = (uint32_t)(i + 1);
	}
	free(t->slots);
	t->slots = slots;
	t->n_slots = n;
	return 0;
}

uint32_t
dcfg_rec_name_id(struct dcfg_rec_names *t, const char *name, size_t len)
{
	size_t k;
	char *copy;

	if ((t->n + 1) * 2 > t->n_slots && grow_slots(t) < 0)
		return 0;
	for (k = hash_name(name, len) & (t->n_slots - 1); t->slots[k] != 0; k = (k + 1) & (t->n_slots - 1)) {
		const char *s = t->names[t->slots[k] - 1];
		if (strncmp(s, name, len) == 0 && s[len] == '\0')
			return t->slots[k];
	}
	if (dcfg_reserve((void **)&t->names, &t->cap, t->n + 1, sizeof *t->names) < 0 ||
	    (copy = malloc(len + 1)) == NULL)
		return 0;
	memcpy(copy, name, len);
	copy[len] = '\0';
	t->names[t->n++] = copy;
	t->slots[k] = (uint32_t)t->n;
	return (uint32_t)t->n;
}

void
dcfg_rec_names_free(struct dcfg_rec_names *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* An image's file, open: BIAS is the address its offset 0 has in its own symbols and line tables. */
struct elf_file {
	int fd;
	Elf *elf;
	uint64_t bias;
	GElf_Half machine;
};

/* A line-table range, before it is cut at blocks. */
struct line_range {
	uint64_t start, end;       /* offsets from the load address */
	uint32_t file, line;
};

struct reader {
	struct dcfg_rec_elfinfo *info;
	struct dcfg_rec_names *names;
	const struct dcfg_rec_graph *g;
	const uint32_t *blocks;    /* the image's, by address */
	size_t n_blocks;
	uint64_t load;
	Elf *debug;                /* the separate debug file, or NULL */
	struct line_range *ranges;
	size_t n_ranges, ranges_cap;
};

int
rec_open_regular(const char *path)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;   /* said as "not a regular file" */
		return -1;
	}
	return fd;
}

/* 0 open; 1 not to be read (no such file, not ELF, nothing loadable): quietly no symbols. */
static int
open_elf(struct elf_file *f, const char *path)
{
	size_t n, i;
	GElf_Ehdr eh;

	f->elf = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE || (f->fd = rec_open_regular(path)) < 0)
		return 1;
	if ((f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(f->elf) != ELF_K_ELF || gelf_getehdr(f->elf, &eh) == NULL ||
	    elf_getphdrnum(f->elf, &n) != 0)
		return 1;
	f->machine = eh.e_machine;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(f->elf, (int)i, &ph) != NULL && ph.p_type == PT_LOAD) {
			f->bias = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return 1;
}

static void
close_elf(struct elf_file *f)
{
	if (f->elf != NULL)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

int
rec_elfinfo_add_symbol(struct dcfg_rec_elfinfo *info, const char *name, const char *suffix,
    uint64_t offset, uint64_t size)
{
	size_t len = strlen(name), slen = strlen(suffix);
	struct dcfg_rec_symbol *s;

	if (dcfg_reserve((void **)&info->symbols, &info->symbols_cap, info->n_symbols + 1,
	    sizeof *info->symbols) < 0 ||
	    dcfg_reserve((void **)&info->strings, &info->strings_cap, info->strings_len + len + slen + 1, 1) < 0)
		return -1;
	s = &info->symbols[info->n_symbols++];
	s->offset = offset;
	s->size = size;
	s->name = info->strings_len;
	memcpy(info->strings + info->strings_len, name, len);
	memcpy(info->strings + info->strings_len + len, suffix, slen + 1);
	info->strings_len += len + slen + 1;
	return 0;
}

static int
executable_section(Elf *elf, size_t index)
{
	Elf_Scn *scn = elf_getscn(elf, index);
	GElf_Shdr sh;

	return scn != NULL && gelf_getshdr(scn, &sh) != NULL && (sh.sh_flags & SHF_EXECINSTR);
}

/* The symbol table to read: .symtab, or .dynsym when the file has been stripped. */
static Elf_Scn *
symbol_table(Elf *elf, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dsh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, sh) == NULL)
			continue;
		if (sh->sh_type == SHT_SYMTAB)
			return scn;
		if (sh->sh_type == SHT_DYNSYM && dyn == NULL)
			dyn = scn, dsh = *sh;
	}
	if (dyn != NULL)
		*sh = dsh;
	return dyn;
}

static int read_symbol_table(struct reader *r, const struct elf_file *f, Elf *elf, Elf_Scn *scn,
    const GElf_Shdr *symsh);

/*
 * The symbols of .symtab, or of the separate debug file's .symtab when the
 * file has only .dynsym (Debian's ld.so), or of .dynsym.
 */
static int
read_symbols(struct reader *r, const struct elf_file *f)
{
	GElf_Shdr sh;
	Elf_Scn *scn = symbol_table(f->elf, &sh);

	if (scn != NULL && sh.sh_type == SHT_DYNSYM && r->debug != NULL) {
		GElf_Shdr dsh;
		Elf_Scn *dscn = symbol_table(r->debug, &dsh);
		if (dscn != NULL && dsh.sh_type == SHT_SYMTAB)
			return read_symbol_table(r, f, r->debug, dscn, &dsh);
	}
	return scn == NULL ? 0 : read_symbol_table(r, f, f->elf, scn, &sh);
}

int
rec_each_function_symbol(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t bias,
    int (*add)(void *ctx, const char *name, uint64_t offset, uint64_t size), void *ctx)
{
	Elf_Data *data;
	size_t i, n;

	if (sh->sh_entsize == 0 || (data = elf_getdata(scn, NULL)) == NULL)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;
		if (gelf_getsym(data, (int)i, &sym) == NULL)
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_value == 0 ||
		    sym.st_value < bias || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    !executable_section(elf, sym.st_shndx))
			continue;
		if ((name = elf_strptr(elf, sh->sh_link, sym.st_name)) == NULL || *name == '\0')
			continue;
		if (add(ctx, name, sym.st_value - bias, sym.st_size) < 0)
			return -1;
	}
	return 0;
}

static int
add_info_symbol(void *info, const char *name, uint64_t offset, uint64_t size)
{
	return rec_elfinfo_add_symbol(info, name, "", offset, size);
}

static int
read_symbol_table(struct reader *r, const struct elf_file *f, Elf *elf, Elf_Scn *scn,
    const GElf_Shdr *symsh)
{
	return rec_each_function_symbol(elf, scn, symsh, f->bias, add_info_symbol, r->info);
}

struct sorted_symbol {
	struct dcfg_rec_symbol s;
	const char *name;
};

static int
by_symbol(const void *a, const void *b)
{
	const struct sorted_symbol *x = a, *y = b;

	if (x->s.offset != y->s.offset)
		return x->s.offset < y->s.offset ? -1 : 1;
	if (x->s.size != y->s.size)
		return x->s.size < y->s.size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* By offset, then size, then name; a symbol that two tables or aliases give alike, once. */
static int
sort_symbols(struct dcfg_rec_elfinfo *info)
{
	struct sorted_symbol *v = malloc((info->n_symbols + 1) * sizeof *v);
	size_t i, n = 0;

	if (v == NULL)
		return -1;
	for (i = 0; i < info->n_symbols; i++)
		v[i] = (struct sorted_symbol){ info->symbols[i], info->strings + info->symbols[i].name };
	qsort(v, info->n_symbols, sizeof *v, by_symbol);
	for (i = 0; i < info->n_symbols; i++)
		if (n == 0 || by_symbol(&v[i - 1], &v[i]) != 0)
			info->symbols[n++] = v[i].s;
	info->n_symbols = n;
	free(v);
	return 0;
}

/*
 * PATH (LEN bytes) with "." components and doubled separators dropped,
 * lexically (".." is kept: the file system alone knows what it undoes),
 * into OUT (LEN + 2 bytes); the new length. An empty result is "." or "/".
 */
static size_t
normalise_path(const char *path, size_t len, char *out)
{
	size_t i = 0, n = 0;

	if (len > 0 && path[0] == '/')
		out[n++] = '/';
	while (i < len) {
		size_t start, part;
		while (i < len && path[i] == '/')
			i++;
		for (start = i; i < len && path[i] != '/'; i++)
			;
		part = i - start;
		if (part == 0 || (part == 1 && path[start] == '.'))
			continue;
		if (n > 0 && out[n - 1] != '/')
			out[n++] = '/';
		memcpy(out + n, path + start, part);
		n += part;
	}
	if (n == 0)
		out[n++] = '.';
	out[n] = '\0';
	return n;
}

/*
 * FILE_NAMES id of a line's source file SRC, as libdw gives it: joined
 * with the directory entry it names, which for entry 0 is the compilation
 * directory. Another entry's relative directory is relative to the
 * compilation directory (DWARF 4 and 5, 6.2.4), which libdw does not
 * join, so SRC is joined with COMP_DIR when relative and not already
 * under it. Debian builds with a relative COMP_DIR ("./elf"), and a name
 * that is still relative stays relative.
 */
static uint32_t
source_file_id(struct reader *r, const char *src, const char *comp_dir)
{
	size_t dlen = comp_dir != NULL ? strlen(comp_dir) : 0, slen = strlen(src), n;
	int join = src[0] != '/' && dlen > 0 &&
	    !(strncmp(src, comp_dir, dlen) == 0 && src[dlen] == '/');
	char *path = malloc(dlen + slen + 2), *norm = malloc(dlen + slen + 4);
	uint32_t id = 0;

	if (path != NULL && norm != NULL) {
		if (join) {
			memcpy(path, comp_dir, dlen);
			path[dlen] = '/';
			memcpy(path + dlen + 1, src, slen + 1);
		} else {
			memcpy(path, src, slen + 1);
		}
		n = normalise_path(path, strlen(path), norm);
		id = dcfg_rec_name_id(r->names, norm, n);
	}
	free(path);
	free(norm);
	return id;
}

/* Does [START, END) overlap a block that ran? The blocks are by address and do not overlap. */
static int
ran(const struct reader *r, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = r->n_blocks;

	while (lo < hi) {   /* the first block that ends after START */
		size_t mid = lo + (hi - lo) / 2;
		const struct dcfg_rec_block *b = &r->g->blocks[r->blocks[mid]];
		if (b->addr - r->load + b->size <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n_blocks && r->g->blocks[r->blocks[lo]].addr - r->load < end;
}

/* The ranges of a compilation unit's line table that overlap code that ran. */
static int
read_cu_lines(struct reader *r, const struct elf_file *f, Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	const char *src, *last_src = NULL;
	uint32_t file = 0;
	Dwarf_Lines *lines;
	size_t n, i;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return 0;
	for (i = 0; i + 1 < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i), *next = dwarf_onesrcline(lines, i + 1);
		Dwarf_Addr a, b;
		int lineno;
		bool end;
		if (l == NULL || next == NULL || dwarf_lineendsequence(l, &end) != 0 || end ||
		    dwarf_lineaddr(l, &a) != 0 || dwarf_lineaddr(next, &b) != 0 || b <= a || a < f->bias ||
		    dwarf_lineno(l, &lineno) != 0 || lineno <= 0 ||
		    !ran(r, a - f->bias, b - f->bias) || (src = dwarf_linesrc(l, NULL, NULL)) == NULL)
			continue;
		if (src != last_src && (file = source_file_id(r, src, comp_dir)) == 0)
			return -1;
		last_src = src;
		if (dcfg_reserve((void **)&r->ranges, &r->ranges_cap, r->n_ranges + 1, sizeof *r->ranges) < 0)
			return -1;
		r->ranges[r->n_ranges++] = (struct line_range){ a - f->bias, b - f->bias, file, (uint32_t)lineno };
	}
	return 0;
}

static int
read_dwarf_lines(struct reader *r, const struct elf_file *f, Elf *elf)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t header;
	int rc = 0;

	if (dw == NULL)
		return 0;
	while (rc == 0 && dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + header, &cu) != NULL)
			rc = read_cu_lines(r, f, &cu);
		off = next;
	}
	dwarf_end(dw);
	return rc;
}

/* Debug information installed apart, by build id (/usr/lib/debug/.build-id/xx/yyyy.debug). */
static void
open_debug(const struct elf_file *f, struct elf_file *debug)
{
	const void *id;
	ssize_t len = dwelf_elf_gnu_build_id(f->elf, &id), i;
	char path[512];
	size_t at;

	if (len < 2 || len > 64)
		return;
	at = (size_t)snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/",
	    ((const unsigned char *)id)[0]);
	for (i = 1; i < len; i++)
		at += (size_t)snprintf(path + at, sizeof path - at, "%02x", ((const unsigned char *)id)[i]);
	snprintf(path + at, sizeof path - at, ".debug");
	if ((debug->fd = rec_open_regular(path)) >= 0 &&
	    (debug->elf = elf_begin(debug->fd, ELF_C_READ_MMAP, NULL)) != NULL &&
	    elf_kind(debug->elf) != ELF_K_ELF) {
		elf_end(debug->elf);
		debug->elf = NULL;
	}
}

static int
by_start(const void *a, const void *b)
{
	const struct line_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/*
 * One SOURCE_DATA row per piece of a range inside a block, so that every
 * row lies wholly in one block (lib/dcfg/lines.h: such rows split a block
 * exactly), with the instructions whose first byte it holds. Ranges that
 * overlap are cut where the next begins. Pieces of one file and line that
 * follow each other in a block (a line table's rows for one line's
 * statements, or views) are one row: readers count rows.
 */
static int
cut_at_blocks(struct reader *r)
{
	struct dcfg_rec_elfinfo *info = r->info;
	size_t i, j = 0, n = 0;

	if (r->n_ranges > 1)
		qsort(r->ranges, r->n_ranges, sizeof *r->ranges, by_start);
	for (i = 0; i < r->n_ranges; i++) {
		if (i + 1 < r->n_ranges && r->ranges[i].end > r->ranges[i + 1].start)
			r->ranges[i].end = r->ranges[i + 1].start;
		if (r->ranges[i].end > r->ranges[i].start)
			r->ranges[n++] = r->ranges[i];
	}
	r->n_ranges = n;
	for (i = 0; i < r->n_blocks; i++) {
		const struct dcfg_rec_block *b = &r->g->blocks[r->blocks[i]];
		uint64_t start = b->addr - r->load, end = start + b->size, pos = start;
		uint32_t k = 0;
		size_t block_rows = info->n_rows;   /* the block's first row */
		struct dcfg_rec_source_row *prev;
		while (j > 0 && r->ranges[j - 1].end > start)
			j--;
		while (j < r->n_ranges && r->ranges[j].end <= start)
			j++;
		for (; j < r->n_ranges && r->ranges[j].start < end; j++) {
			const struct line_range *lr = &r->ranges[j];
			uint64_t lo = lr->start > start ? lr->start : start, hi = lr->end < end ? lr->end : end;
			uint32_t count = 0;
			for (; k < b->n_instrs && pos < hi; pos += r->g->insn_lengths[b->first_insn + k++])
				count += pos >= lo;
			if (count == 0)
				continue;
			if (info->n_rows > block_rows && (prev = &info->rows[info->n_rows - 1])->file == lr->file &&
			    prev->line == lr->line && prev->offset + prev->size == lo) {
				prev->size = (uint32_t)(hi - prev->offset);
				prev->n_instrs += count;
				continue;
			}
			if (dcfg_reserve((void **)&info->rows, &info->rows_cap, info->n_rows + 1, sizeof *info->rows) < 0)
				return -1;
			info->rows[info->n_rows++] = (struct dcfg_rec_source_row){ lr->file, lr->line, lo,
			    (uint32_t)(hi - lo), count };
		}
	}
	return 0;
}

int
dcfg_rec_elfinfo_read(struct dcfg_rec_elfinfo *info, const struct dcfg_rec_graph *g,
    uint32_t image, const uint32_t *blocks, size_t n, struct dcfg_rec_names *names,
    struct dcfg_error *err)
{
	const struct dcfg_rec_image *im = &g->images[image];
	struct reader r = { .info = info, .names = names, .g = g, .blocks = blocks, .n_blocks = n,
	    .load = im->load };
	struct elf_file f = { .fd = -1 }, debug = { .fd = -1 };
	int rc = 0;

	if (im->path != NULL && open_elf(&f, im->path) == 0) {
		open_debug(&f, &debug);
		r.debug = debug.elf;
		rc = read_symbols(&r, &f);
		if (rc == 0)
			rc = rec_read_plt(info, f.elf, f.machine, f.bias);
		if (rc == 0)
			rc = sort_symbols(info);
		if (rc == 0 && n > 0)
			rc = read_dwarf_lines(&r, &f, f.elf);
		if (rc == 0 && n > 0 && r.n_ranges == 0 && debug.elf != NULL)
			rc = read_dwarf_lines(&r, &f, debug.elf);
		if (rc == 0)
			rc = cut_at_blocks(&r);
	}
	close_elf(&debug);
	close_elf(&f);
	free(r.ranges);
	if (rc < 0)
		return dcfg_error_set(err, "dcfg-record", "reading %s: out of memory", im->path);
	return 0;
}

void
dcfg_rec_elfinfo_free(struct dcfg_rec_elfinfo *info)
{
	free(info->symbols);
	free(info->strings);
	free(info->rows);
	memset(info, 0, sizeof *info);
}
