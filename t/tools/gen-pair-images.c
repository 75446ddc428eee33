/*
 * gen-pair: the images (main binary, libc, maybe libm, images of symbols
 * only), their routines' names and sources, and generate(), which fills
 * them with routines. Apart: long tables of real names, no CFG code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-pair.h"

/* ---- names ------------------------------------------------------------ */

static const char *const verbs[] = {
	"parse", "read", "write", "init", "free", "alloc", "hash", "find",
	"insert", "remove", "update", "compute", "check", "scan", "emit",
	"load", "store", "flush", "merge", "sort", "split", "encode", "decode",
	"visit", "build", "reset", "push", "pop", "lookup", "resize", "copy",
	"compare", "print", "format", "open", "close", "process", "handle",
	"apply", "validate", NULL
};
static const char *const nouns[] = {
	"header", "block", "buffer", "node", "table", "entry", "list", "tree",
	"token", "symbol", "record", "field", "config", "state", "cache",
	"chunk", "edge", "graph", "queue", "stack", "string", "file", "stream",
	"frame", "context", "packet", "index", "key", "value", "map", "range",
	"region", "page", "request", "reply", "event", "task", "options",
	"matrix", "vector", NULL
};
static const char *const libc_names[] = {
	"memcpy", "memmove", "memset", "memcmp", "strlen", "strcmp", "strncmp",
	"strchr", "strrchr", "strcpy", "strncpy", "strdup", "strtol", "strtoul",
	"atoi", "malloc", "free", "calloc", "realloc", "_int_malloc",
	"_int_free", "malloc_consolidate", "sysmalloc", "printf", "fprintf",
	"sprintf", "snprintf", "__vfprintf_internal", "fputs", "fwrite",
	"fread", "fgets", "fopen", "fclose", "fflush", "_IO_file_write",
	"_IO_file_xsputn", "_IO_do_write", "new_do_write", "__write", "__read",
	"__open64", "__close", "qsort", "msort_with_tmp", "bsearch", "getenv",
	"pthread_mutex_lock", "pthread_mutex_unlock", "__lll_lock_wait",
	"isatty", "__errno_location", "__strchrnul_avx2",
	"__memcpy_avx_unaligned_erms", "__memset_avx2_unaligned_erms",
	"__strlen_avx2", "__memcmp_avx2_movbe", "__strcmp_avx2", NULL
};
static const char *const libm_names[] = {
	"sin", "cos", "tan", "exp", "log", "pow", "sqrt", "floor", "ceil",
	"fmod", "atan2", "__sin_fma", "__cos_fma", "__ieee754_exp",
	"__ieee754_log", "__ieee754_pow", "__exp1", "__mpsin", "__branred",
	"__kernel_standard", "hypot", "cbrt", "log10", "log2", "expm1", "tanh",
	"sinh", "cosh", "asin", "acos", "atan", "lround", "rint", "trunc",
	"modf", "frexp", "ldexp", "erf", "lgamma", "tgamma", NULL
};
static const char *const main_sources[] = {
	"main.c", "parse.c", "lexer.c", "hash.c", "table.c", "buffer.c", "io.c",
	"util.c", "alloc.c", "graph.c", "sort.c", "config.c", "net.c",
	"worker.c", "log.c", "stats.c", NULL
};
static const char *const libc_sources[] = {
	"malloc/malloc.c", "stdio-common/vfprintf-internal.c", "libio/fileops.c",
	"libio/genops.c", "string/strlen.c", "stdlib/msort.c",
	"stdlib/strtol_l.c", "nptl/pthread_mutex_lock.c",
	"sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S",
	"sysdeps/unix/sysv/linux/write.c", NULL
};
static const char *const libm_sources[] = {
	"sysdeps/ieee754/dbl-64/e_exp.c", "sysdeps/ieee754/dbl-64/s_sin.c",
	"sysdeps/ieee754/dbl-64/e_log.c", "sysdeps/ieee754/dbl-64/e_pow.c",
	"math/w_pow_template.c", "sysdeps/ieee754/dbl-64/branred.c", NULL
};
static const char *const lib_words[] = {
	"lock", "unlock", "init", "fini", "alloc", "free", "find", "copy", "fill",
	"scan", "flush", "grow", "trim", "check", "slow", "fast", NULL
};

/* Names in use: an open-addressing hash set. */
static char **names_set;
static size_t names_cap, names_n;

static uint64_t
hash_str(const char *p)
{
	uint64_t h = UINT64_C(14695981039346656037);

	while (*p)
		h = (h ^ (unsigned char)*p++) * UINT64_C(1099511628211);
	return h;
}

static char **
name_slot(const char *s)
{
	size_t i = (size_t)hash_str(s) & (names_cap - 1);

	while (names_set[i] && strcmp(names_set[i], s) != 0)
		i = (i + 1) & (names_cap - 1);
	return &names_set[i];
}

static int
name_used(const char *s)
{
	return names_cap && *name_slot(s) != NULL;
}

static char *
name_add(const char *s)
{
	char **old = names_set, **slot;
	size_t i, oldcap = names_cap;

	if (2 * (names_n + 1) > names_cap) {
		names_cap = names_cap ? 2 * names_cap : 256;
		names_set = xrealloc(NULL, names_cap * sizeof *names_set);
		memset(names_set, 0, names_cap * sizeof *names_set);
		for (i = 0; i < oldcap; i++)
			if (old[i])
				*name_slot(old[i]) = old[i];
		free(old);
	}
	slot = name_slot(s);
	*slot = xrealloc(NULL, strlen(s) + 1);
	strcpy(*slot, s);
	names_n++;
	return *slot;
}

size_t
count_strs(const char *const *v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

static char *
make_name(const Img *im, int k)
{
	static const char *const sfx[] = { ".part.0", ".constprop.0", ".isra.0", ".cold" };
	char buf[96];
	int tries;

	if (im->lib && (size_t)k < count_strs(im->names) && !name_used(im->names[k]))
		snprintf(buf, sizeof buf, "%s", im->names[k]);
	else {
		for (tries = 0; ; tries++) {
			if (im->lib)
				snprintf(buf, sizeof buf, "__%s_%s%s",
				    im->names[below(&G, (uint32_t)count_strs(im->names))],
				    lib_words[below(&G, (uint32_t)count_strs(lib_words))],
				    tries > 20 ? "_1" : "");
			else
				snprintf(buf, sizeof buf, "%s_%s%s",
				    verbs[below(&G, (uint32_t)count_strs(verbs))],
				    nouns[below(&G, (uint32_t)count_strs(nouns))],
				    below(&G, 100) < 6 ? sfx[below(&G, 3)] : "");
			if (tries > 40)
				snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ".%d", k);
			if (!name_used(buf))
				break;
		}
	}
	return name_add(buf);
}

/* ---- generation ------------------------------------------------------- */

static uint32_t
draw_size(uint32_t left)
{
	uint32_t u = below(&G, 100), s;

	if (u < 45)
		s = between(&G, 1, 6);
	else if (u < 80)
		s = between(&G, 6, 20);
	else if (u < 95)
		s = between(&G, 20, 60);
	else
		s = between(&G, 60, 200);
	if (s > left)
		s = left;
	return s ? s : 1;
}

static const char *const main_plt[] = {
	"malloc", "free", "calloc", "realloc", "memcpy", "memset", "strlen",
	"strcmp", "printf", "fprintf", "puts", "fwrite", "fputc", "qsort",
	"getenv", "abort", "__stack_chk_fail", "pthread_create", "pthread_join",
	"sin", "cos", "exp", "log", "pow", "sqrt", "time", "localtime", NULL
};
static const char *const lib_plt[] = {
	"__tls_get_addr", "_dl_exception_create", "__tunable_get_val",
	"_dl_catch_exception", "_dl_signal_error", "_dl_find_dso_for_object",
	"__errno_location", "free", "malloc", "calloc", "memcpy", "memset", NULL
};
const char *const vdso_syms[] = {
	"__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_time",
	"__vdso_getcpu", "__vdso_clock_getres", "LINUX_2.6", NULL
};
static const char *const libdl_syms[] = {
	"_init", ".plt", "__cxa_finalize@plt", "free@plt", "dlopen", "dlclose",
	"dlsym", "dlvsym", "dlerror", "dladdr", "dladdr1", "dlinfo", "dlmopen",
	"_fini", NULL
};

/* The PLTs (".plt" and "NAME@plt": symbols without blocks, before the
 * code) of the main binary, libc and sometimes libm, each with
 * "__cxa_finalize@plt"; and 0 to 2 images of symbols only. */
static void
plt_and_symbol_images(void)
{
	int i, j;

	for (i = 0; i < nimg; i++) {
		const char *const *v = i == 0 ? main_plt : lib_plt;
		if (i == 2 && below(&G, 2))
			continue;
		img[i].plt[img[i].nplt++] = "__cxa_finalize";
		for (j = 0; v[j] && img[i].nplt < 16; j++)
			if (below(&G, 100) < 30)
				img[i].plt[img[i].nplt++] = v[j];
	}
	nsimg = (int)below(&G, 3);
	for (i = 0; i < nsimg; i++) {
		int dl = nsimg == 2 ? i : (int)below(&G, 2);
		simg[i].path = dl ? "/lib/x86_64-linux-gnu/libdl.so.2" : "[vdso]";
		simg[i].names = dl ? libdl_syms : vdso_syms;
	}
}

void
generate(uint32_t blocks)
{
	uint32_t lib_budget, main_budget, root_size, s;
	size_t used;
	int i, r, *forced = NULL, nf = 0, *rest = NULL, nr = 0;

	if (blocks < 24)
		blocks = 24;
	nimg = blocks >= 200 ? 2 + (int)below(&G, 2) : 2;
	lib_budget = blocks / 4 + below(&G, blocks / 10 + 1);
	root_size = 8 + blocks / 100;
	if (root_size > 200)
		root_size = 200;
	main_budget = blocks - lib_budget - 2 * root_size;
	/* compound statements and the roots' calls overshoot by about 5% */
	main_budget = main_budget > blocks / 20 ? main_budget - blocks / 20 : 0;

	/* images: 0 = main, 1 = libc, 2 = libm */
	img[0].path = "/home/dev/synth/build/prog";
	img[0].sources = main_sources;
	img[0].srcdir = "/home/dev/synth/src/";
	img[0].lib = 0;
	img[1].path = "/lib/x86_64-linux-gnu/libc.so.6";
	img[1].names = libc_names;
	img[1].sources = libc_sources;
	img[1].srcdir = "/usr/src/glibc-2.35/";
	img[1].lib = 1;
	img[2].path = "/lib/x86_64-linux-gnu/libm.so.6";
	img[2].names = libm_names;
	img[2].sources = libm_sources;
	img[2].srcdir = "/usr/src/glibc-2.35/";
	img[2].lib = 1;
	/* region DCFGs: libm may be loaded, and run in the whole program,
	 * but not in the region */
	img[2].dead = S.region && below(&G, 2);

	/* libraries first: each calls only itself */
	for (i = 1; i < nimg; i++) {
		uint32_t budget = nimg == 3 ? (i == 1 ? lib_budget * 2 / 3 : lib_budget / 3) : lib_budget;
		img[i].rt_first = (int)nrt;
		for (used = 0; used < budget; used += s) {
			s = draw_size(budget - (uint32_t)used);
			gen_routine(i, (int)s);
		}
		img[i].rt_n = (int)nrt - img[i].rt_first;
	}
	/* then the main binary's routines, then the two roots */
	main_first = (int)nrt;
	img[0].rt_first = main_first;
	for (used = 0; used < main_budget; used += s) {
		s = draw_size(main_budget - (uint32_t)used);
		gen_routine(0, (int)s);
	}
	for (r = 0; r < (int)nrt; r++)
		if (!rt[r].called && !rt[r].dead) {
			if (below(&G, 2)) {
				forced = xrealloc(forced, (size_t)(nf + 1) * sizeof *forced);
				forced[nf++] = r;
			}
		}
	worker_rt = gen_root(0, forced, nf, (int)root_size);
	for (r = 0; r < worker_rt; r++)
		if (!rt[r].called && !rt[r].dead) {
			rest = xrealloc(rest, (size_t)(nr + 1) * sizeof *rest);
			rest[nr++] = r;
		}
	main_rt = gen_root(0, rest, nr, (int)root_size);
	img[0].rt_n = (int)nrt - main_first;
	free(forced);
	free(rest);

	/* names: "_init" for a small routine of each image (as the same
	 * name in several images of real files), then the others' */
	for (i = 0; i < nimg; i++) {
		int k = 0, init = -1, seen = 0;
		for (r = img[i].rt_first; r < img[i].rt_first + img[i].rt_n; r++)
			if (!rt[r].root && rt[r].n <= 4 && below(&G, (uint32_t)++seen) == 0)
				init = r;
		if (init >= 0)
			rt[init].name = "_init";
		for (r = img[i].rt_first; r < img[i].rt_first + img[i].rt_n; r++) {
			if (r == main_rt || r == init)
				continue;
			if (r == worker_rt) {
				rt[r].name = "worker_main";
				continue;
			}
			rt[r].name = make_name(&img[i], k++);
		}
	}
	rt[main_rt].name = "main";
	plt_and_symbol_images();
}

