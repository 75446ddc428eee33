/* What dcfg-record runs: the program, its architecture, QEMU, the plugin; and where it spools. */
#define _DEFAULT_SOURCE   /* realpath(3) */
#include "run.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PLUGIN_NAME "dcfg-record-plugin.so"

static char *
dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	return p ? memcpy(p, s, n) : NULL;
}

static int
is_executable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* NAME (no '/') in PATH's directories: allocated, or NULL (errno ENOENT or ENOMEM). */
static char *
search_path(const char *name)
{
	const char *dirs = getenv("PATH"), *at, *end;
	size_t len = strlen(name);
	char *buf;

	if (dirs == NULL)
		dirs = "/bin:/usr/bin";
	if ((buf = malloc(strlen(dirs) + len + 3)) == NULL)
		return NULL;
	for (at = dirs; ; at = end + 1) {
		size_t dl;
		if ((end = strchr(at, ':')) == NULL)
			end = at + strlen(at);
		dl = (size_t)(end - at);
		if (dl == 0)
			buf[dl++] = '.';
		else
			memcpy(buf, at, dl);
		buf[dl] = '/';
		memcpy(buf + dl + 1, name, len + 1);
		if (is_executable_file(buf))
			return buf;
		if (*end == '\0')
			break;
	}
	free(buf);
	errno = ENOENT;
	return NULL;
}

int
dcfg_rec_find_program(const char *name, char **path, struct dcfg_error *err)
{
	struct stat st;

	*path = NULL;
	if (*name == '\0')
		return dcfg_error_set(err, "PROGRAM", "an empty name is no program");
	if (strchr(name, '/') == NULL) {
		if ((*path = search_path(name)) == NULL)
			return dcfg_error_set(err, name, errno == ENOMEM ? "out of memory" :
			    "no such program on PATH");
		return 0;
	}
	if (stat(name, &st) < 0)
		return dcfg_error_set(err, name, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return dcfg_error_set(err, name, "not a program: not a regular file");
	if (access(name, X_OK) < 0)
		return dcfg_error_set(err, name, "not executable: %s", strerror(errno));
	if ((*path = dup_str(name)) == NULL)
		return dcfg_error_set(err, name, "out of memory");
	return 0;
}

static const char *
machine_name(unsigned m)
{
	switch (m) {
	case EM_386: return "i386";
	case EM_ARM: return "32-bit ARM";
	case EM_PPC64: return "PowerPC 64";
	case EM_S390: return "S/390";
	case EM_RISCV: return "RISC-V";
	case EM_MIPS: return "MIPS";
	case EM_SPARCV9: return "SPARC V9";
	case EM_LOONGARCH: return "LoongArch";
	}
	return NULL;
}

/* The 64-bit little-endian header's checks, once its identification is known to be ELF. */
static int
check_header(const unsigned char *h, size_t n, const char *name, enum dcfg_rec_arch *arch,
    struct dcfg_error *err)
{
	Elf64_Ehdr e;
	const char *m;

	if (h[EI_CLASS] != ELFCLASS64)
		return dcfg_error_set(err, name, "a 32-bit ELF program: dcfg-record runs 64-bit "
		    "x86-64 and aarch64 programs");
	if (h[EI_DATA] != ELFDATA2LSB)
		return dcfg_error_set(err, name, "a big-endian ELF program: dcfg-record runs "
		    "x86-64 and aarch64 programs");
	if (n < sizeof e)
		return dcfg_error_set(err, name, "an ELF file cut short in its header");
	memcpy(&e, h, sizeof e);
	if (e.e_type != ET_EXEC && e.e_type != ET_DYN)
		return dcfg_error_set(err, name, "an ELF file that is not a program (%s)",
		    e.e_type == ET_REL ? "an object file" : e.e_type == ET_CORE ? "a core dump" :
		    "of an unknown type");
	if (e.e_machine == EM_X86_64)
		*arch = DCFG_REC_X86_64;
	else if (e.e_machine == EM_AARCH64)
		*arch = DCFG_REC_AARCH64;
	else if ((m = machine_name(e.e_machine)) != NULL)
		return dcfg_error_set(err, name, "an ELF program for %s: dcfg-record runs x86-64 "
		    "and aarch64 programs", m);
	else
		return dcfg_error_set(err, name, "an ELF program for machine %u: dcfg-record runs "
		    "x86-64 and aarch64 programs", (unsigned)e.e_machine);
	return 0;
}

int
dcfg_rec_program_arch(const char *path, const char *name, enum dcfg_rec_arch *arch,
    struct dcfg_error *err)
{
	unsigned char h[sizeof(Elf64_Ehdr)];
	ssize_t n;
	size_t got = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return dcfg_error_set(err, name, "%s", strerror(errno));
	while (got < sizeof h && (n = read(fd, h + got, sizeof h - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return dcfg_error_set(err, name, "%s", strerror(e));
		}
		got += (size_t)n;
	}
	close(fd);
	if (got >= 2 && h[0] == '#' && h[1] == '!')
		return dcfg_error_set(err, name, "a script, not an ELF program: record its "
		    "interpreter running it (dcfg-record -- sh SCRIPT)");
	if (got < SELFMAG || memcmp(h, ELFMAG, SELFMAG) != 0)
		return dcfg_error_set(err, name, "not an ELF program");
	if (got <= EI_DATA)
		return dcfg_error_set(err, name, "an ELF file cut short in its header");
	return check_header(h, got, name, arch, err);
}

int
dcfg_rec_find_qemu(const char *option, enum dcfg_rec_arch arch, char **path,
    struct dcfg_error *err)
{
	const char *name = arch == DCFG_REC_AARCH64 ? "qemu-aarch64" : "qemu-x86_64";

	*path = NULL;
	if (option) {
		char why[sizeof err->message];
		if (dcfg_rec_find_program(option, path, err) == 0)
			return 0;
		memcpy(why, err->message, sizeof why);
		return dcfg_error_set(err, "--qemu", "%s: %s", option, why);
	}
	if ((*path = search_path(name)) != NULL)
		return 0;
	if (errno == ENOMEM)
		return dcfg_error_set(err, name, "out of memory");
	return dcfg_error_set(err, name, "not found on PATH: install Debian's qemu-user "
	    "(make deps does), or name a QEMU with --qemu");
}

/* PATH made absolute, allocated: -1 with ERR set (naming it as WHO) when it is no readable file. */
static int
plugin_at(const char *path, const char *who, char **out, struct dcfg_error *err)
{
	char buf[PATH_MAX];
	struct stat st;

	if (stat(path, &st) < 0)
		return dcfg_error_set(err, who, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) || access(path, R_OK) < 0)
		return dcfg_error_set(err, who, "%s: not a readable file", path);
	if (realpath(path, buf) == NULL)
		return dcfg_error_set(err, who, "%s: %s", path, strerror(errno));
	if ((*out = dup_str(buf)) == NULL)
		return dcfg_error_set(err, who, "out of memory");
	return 0;
}

/* BIN/REL, BIN the directory of the running command; -1 when there is none such file. */
static int
beside_self(const char *rel, char **out, struct dcfg_error *err)
{
	char self[PATH_MAX], cand[2 * PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		return -1;
	*slash = '\0';
	snprintf(cand, sizeof cand, "%s/%s", self, rel);
	if (access(cand, R_OK) < 0)
		return -1;
	return plugin_at(cand, "plugin", out, err);
}

int
dcfg_rec_find_plugin(const char *option, const char *installed, char **path,
    struct dcfg_error *err)
{
	const char *env = getenv(DCFG_REC_PLUGIN_ENV);

	*path = NULL;
	if (option)
		return plugin_at(option, "--plugin", path, err);
	if (env && *env)
		return plugin_at(env, DCFG_REC_PLUGIN_ENV, path, err);
	if (beside_self("../plugin/" PLUGIN_NAME, path, err) == 0 ||
	    beside_self("../lib/dcfg-tools/" PLUGIN_NAME, path, err) == 0)
		return 0;
	if (installed && access(installed, R_OK) == 0)
		return plugin_at(installed, "plugin", path, err);
	return dcfg_error_set(err, PLUGIN_NAME, "the recording plugin is not installed: "
	    "not beside the command nor at %s; name it with --plugin or $" DCFG_REC_PLUGIN_ENV,
	    installed ? installed : "its installed path");
}

int
dcfg_rec_spool_make(const char *prefix, char **spool, struct dcfg_error *err)
{
	const char *slash = strrchr(prefix, '/'), *base = slash ? slash + 1 : prefix;
	size_t dl = slash ? (size_t)(slash - prefix) + 1 : 0;
	char *tmpl, real[PATH_MAX];

	*spool = NULL;
	if ((tmpl = malloc(dl + strlen(base) + 32)) == NULL)
		return dcfg_error_set(err, prefix, "out of memory");
	memcpy(tmpl, prefix, dl);
	sprintf(tmpl + dl, ".%s.spool.XXXXXX", base);
	if (mkdtemp(tmpl) == NULL) {
		int e = errno;
		if (dl)
			tmpl[dl - 1] = '\0';
		dcfg_error_set(err, prefix, "cannot make a spool directory in %s: %s",
		    dl ? (dl == 1 ? "/" : tmpl) : ".", strerror(e));
		free(tmpl);
		return -1;
	}
	if (realpath(tmpl, real) == NULL || (*spool = dup_str(real)) == NULL) {
		dcfg_error_set(err, prefix, "%s: %s", tmpl, strerror(errno ? errno : ENOMEM));
		rmdir(tmpl);
		free(tmpl);
		return -1;
	}
	free(tmpl);
	return 0;
}
