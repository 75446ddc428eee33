/*
 * dcfg-record's first half: the program and its architecture, the QEMU
 * and the plugin to run it with, the spool directory the plugin writes,
 * and the run itself, with the signals dcfg-record receives meanwhile
 * passed on to it. The second half, the spool made into the outputs, is
 * record.h's.
 */
#ifndef DCFG_RECORD_RUN_H
#define DCFG_RECORD_RUN_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include <dcfg/error.h>
#include "graph.h"

/*
 * NAME found as execvp(3) finds a program: a name with a '/' as it is,
 * otherwise the first regular, executable file of that name in the
 * directories of PATH (unset: /bin:/usr/bin; an empty entry: the current
 * directory). *PATH is allocated. -1 with ERR set when there is none.
 */
int dcfg_rec_find_program(const char *name, char **path, struct dcfg_error *err);

/*
 * The architecture of the program at PATH, from its ELF header (NAME is
 * how ERR names it): -1 with ERR set for a script, a file that is not
 * ELF, or an ELF file that is not a 64-bit little-endian executable for
 * x86-64 or aarch64.
 */
int dcfg_rec_program_arch(const char *path, const char *name, enum dcfg_rec_arch *arch,
    struct dcfg_error *err);

/*
 * The QEMU that runs ARCH's programs: OPTION (--qemu; a name without a '/'
 * is looked for on PATH) or qemu-x86_64 / qemu-aarch64 on PATH. *PATH is
 * allocated.
 */
int dcfg_rec_find_qemu(const char *option, enum dcfg_rec_arch arch, char **path,
    struct dcfg_error *err);

/*
 * The plugin, the first of: OPTION (--plugin), $DCFG_RECORD_PLUGIN, then,
 * beside the running command (/proc/self/exe's directory BIN),
 * BIN/../plugin/dcfg-record-plugin.so (the build tree) and
 * BIN/../lib/dcfg-tools/dcfg-record-plugin.so (an installed tree moved
 * elsewhere), then INSTALLED (the path the build was configured with).
 * An option or variable that names a missing file is an error, not
 * passed over. *PATH is allocated and absolute.
 */
#define DCFG_REC_PLUGIN_ENV "DCFG_RECORD_PLUGIN"
int dcfg_rec_find_plugin(const char *option, const char *installed, char **path,
    struct dcfg_error *err);

/*
 * A new spool directory beside the files PREFIX names, so that the
 * outputs are renamed within one file system: DIR/.BASE.spool.XXXXXX,
 * made with mkdtemp(3). *SPOOL is allocated and absolute (the program may
 * change its directory; the plugin opens its files as it goes).
 */
int dcfg_rec_spool_make(const char *prefix, char **spool, struct dcfg_error *err);
/* The bytes of the spool's files so far. */
uint64_t dcfg_rec_spool_bytes(const char *spool);
/* Removes the spool's files and the directory; -1 (errno set) if anything stays. */
int dcfg_rec_spool_remove(const char *spool);

/*
 * Which of SIGPIPE and SIGXFSZ the command was started with at their
 * default action: call it before dcfg_cli_start ignores them, and give it
 * to the run, so that the program gets them as dcfg-record got them.
 */
void dcfg_rec_inherited_signals(sigset_t *dfl);

struct dcfg_rec_run {
	const char *qemu, *plugin, *spool;
	enum dcfg_rec_arch arch;
	const char *program;         /* the file to run */
	char *const *argv;           /* its arguments, argv[0] (the name as given) first */
	int has_skip, has_length;
	uint64_t skip, length;       /* the plugin's window, in instructions of a thread */
	const sigset_t *inherited_dfl;   /* from dcfg_rec_inherited_signals */
	/* called about five times a second while the program runs; may be NULL */
	void (*poll)(void *ctx, uint64_t spool_bytes);
	void *poll_ctx;
};

struct dcfg_rec_end {
	int exited, status;     /* exited: the program's exit status */
	int signal;             /* else the signal that killed it */
	int received;           /* the last of SIGINT, SIGTERM, SIGHUP, SIGQUIT sent to dcfg-record, or 0 */
};

/*
 * Runs QEMU with the plugin on the program, its standard input, output
 * and error those of dcfg-record, and waits for it. While it runs, the
 * signals above are passed on to it (but not those a terminal sent to
 * its whole process group, which the program got already), and
 * dcfg-record does not die of them. From then until
 * dcfg_rec_guard_end, they remove the spool before they do what they
 * did before (tempfiles.h: the outputs' temporaries). -1 with ERR set
 * when QEMU could not be started; the spool is then guarded too.
 */
int dcfg_rec_run(const struct dcfg_rec_run *r, struct dcfg_rec_end *end, struct dcfg_error *err);
/* The signals do what they did before dcfg_rec_run again; the spool is the caller's to remove. */
void dcfg_rec_guard_end(void);

/* "SIGSEGV" for SIGSEGV; "signal N" for one without a name here, in BUF. */
const char *dcfg_rec_signal_name(int sig, char *buf, size_t size);

#endif
