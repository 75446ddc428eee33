/* Running the program under QEMU, and the signals meanwhile. */
#define _GNU_SOURCE   /* syscall(SYS_getdents64): the spool removed inside a signal handler */
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/*
 * Process-wide on purpose, as in common/tempfiles.c: a signal handler gets
 * no argument, so the child to pass a signal on to and the spool to
 * remove must be where it finds them. Only dcfg-record sets it, between
 * dcfg_rec_run and dcfg_rec_guard_end.
 */
static const int guarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define N_GUARDED (sizeof guarded / sizeof guarded[0])

static struct {
	atomic_int child;           /* the running QEMU's pid; 0 once it ended */
	atomic_int received;
	atomic_int has_spool;
	char spool[PATH_MAX];
	int installed[N_GUARDED];
	struct sigaction old[N_GUARDED];
} guard;

/* Async-signal-safe: system calls only, no allocation, no stdio. */
static void
remove_spool_now(void)
{
	char buf[4096];
	long n, at;
	int fd;

	if (!atomic_load(&guard.has_spool))
		return;
	if ((fd = open(guard.spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
			for (at = 0; at < n; ) {
				struct dirent64 *d = (struct dirent64 *)(buf + at);
				if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
					unlinkat(fd, d->d_name, 0);
				at += d->d_reclen;
			}
		close(fd);
	}
	rmdir(guard.spool);
}

static size_t
slot_of(int sig)
{
	size_t i;

	for (i = 0; i < N_GUARDED && guarded[i] != sig; i++)
		;
	return i;
}

static void
on_signal(int sig, siginfo_t *info, void *uc)
{
	int saved = errno, child = atomic_load(&guard.child);
	size_t i = slot_of(sig);

	if (child > 0) {
		/* A terminal's signal went to the program's process group: it has it already. */
		if (info == NULL || info->si_code != SI_KERNEL)
			kill(child, sig);
		atomic_store(&guard.received, sig);
		errno = saved;
		return;
	}
	remove_spool_now();
	if (i < N_GUARDED && (guard.old[i].sa_flags & SA_SIGINFO))
		guard.old[i].sa_sigaction(sig, info, uc);
	else if (i < N_GUARDED && guard.old[i].sa_handler != SIG_DFL &&
	    guard.old[i].sa_handler != SIG_IGN)
		guard.old[i].sa_handler(sig);
	else {
		/* die of it, delivered when the handler returns */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	errno = saved;
}

static void
guard_begin(const char *spool)
{
	struct sigaction sa;
	size_t i, len = strlen(spool);

	if (len < sizeof guard.spool) {
		memcpy(guard.spool, spool, len + 1);
		atomic_store(&guard.has_spool, 1);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < N_GUARDED; i++)
		sigaddset(&sa.sa_mask, guarded[i]);
	for (i = 0; i < N_GUARDED; i++) {
		guard.installed[i] = 0;
		/* one ignored when dcfg-record started (nohup) stays ignored, for the program too */
		if (sigaction(guarded[i], NULL, &guard.old[i]) < 0 ||
		    (!(guard.old[i].sa_flags & SA_SIGINFO) && guard.old[i].sa_handler == SIG_IGN))
			continue;
		guard.installed[i] = sigaction(guarded[i], &sa, NULL) == 0;
	}
}

void
dcfg_rec_guard_end(void)
{
	size_t i;

	atomic_store(&guard.child, 0);
	for (i = 0; i < N_GUARDED; i++)
		if (guard.installed[i]) {
			sigaction(guarded[i], &guard.old[i], NULL);
			guard.installed[i] = 0;
		}
	atomic_store(&guard.has_spool, 0);
}

static void
hold(sigset_t *saved)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < N_GUARDED; i++)
		sigaddset(&set, guarded[i]);
	sigprocmask(SIG_BLOCK, &set, saved);
}

void
dcfg_rec_inherited_signals(sigset_t *dfl)
{
	static const int kept[] = { SIGPIPE, SIGXFSZ };
	struct sigaction sa;
	size_t i;

	sigemptyset(dfl);
	for (i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (sigaction(kept[i], NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
		    sa.sa_handler != SIG_IGN)
			sigaddset(dfl, kept[i]);
}

/* A value of QEMU's option list: a comma is written twice. */
static char *
qemu_opt_value(char *at, const char *s)
{
	for (; *s; s++) {
		*at++ = *s;
		if (*s == ',')
			*at++ = ',';
	}
	return at;
}

static char *
plugin_arg(const struct dcfg_rec_run *r)
{
	size_t size = 2 * (strlen(r->plugin) + strlen(r->spool)) + 96;
	char *arg = malloc(size), *at;

	if (arg == NULL)
		return NULL;
	at = qemu_opt_value(arg, r->plugin);
	at = qemu_opt_value(at + sprintf(at, ",dir="), r->spool);
	if (r->has_skip)
		at += sprintf(at, ",skip=%" PRIu64, r->skip);
	if (r->has_length)
		at += sprintf(at, ",length=%" PRIu64, r->length);
	*at = '\0';
	return arg;
}

/* QEMU [-L PREFIX] -0 ARGV0 -plugin PLUGIN,dir=SPOOL[,skip=N][,length=N] PROGRAM ARGS... */
static char **
qemu_argv(const struct dcfg_rec_run *r, char *plugin)
{
	size_t n = 0, i;
	char **v;

	while (r->argv[n])
		n++;
	if ((v = calloc(n + 10, sizeof *v)) == NULL)
		return NULL;
	i = 0;
	v[i++] = (char *)r->qemu;
	/* Debian's aarch64 libraries, where its cross compiler's programs look for them */
	if (r->arch == DCFG_REC_AARCH64 && getenv("QEMU_LD_PREFIX") == NULL) {
		v[i++] = "-L";
		v[i++] = "/usr/aarch64-linux-gnu";
	}
	/* the program sees argv[0] as it was typed, not the path found */
	v[i++] = "-0";
	v[i++] = n ? r->argv[0] : (char *)r->program;
	v[i++] = "-plugin";
	v[i++] = plugin;
	v[i++] = (char *)r->program;
	for (n = 1; r->argv[0] && r->argv[n]; n++)
		v[i++] = r->argv[n];
	v[i] = NULL;
	return v;
}

static int
spawn(const struct dcfg_rec_run *r, char **argv, const sigset_t *mask, pid_t *pid)
{
	posix_spawnattr_t attr;
	sigset_t dfl;
	size_t i;
	int rc;

	if ((rc = posix_spawnattr_init(&attr)) != 0)
		return rc;
	/* the program gets the signals as dcfg-record got them: SIGPIPE at its default, not ignored */
	sigemptyset(&dfl);
	for (i = 0; i < N_GUARDED; i++)
		if (guard.installed[i])
			sigaddset(&dfl, guarded[i]);
	if (r->inherited_dfl) {
		if (sigismember(r->inherited_dfl, SIGPIPE))
			sigaddset(&dfl, SIGPIPE);
		if (sigismember(r->inherited_dfl, SIGXFSZ))
			sigaddset(&dfl, SIGXFSZ);
	}
	rc = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (rc == 0)
		rc = posix_spawnattr_setsigmask(&attr, mask);
	if (rc == 0)
		rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	if (rc == 0)
		rc = posix_spawn(pid, r->qemu, NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return rc;
}

static void
nap(void)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void
wait_for(const struct dcfg_rec_run *r, pid_t pid, struct dcfg_rec_end *end)
{
	int st = 0;
	pid_t got;

	for (;;) {
		got = waitpid(pid, &st, r->poll ? WNOHANG : 0);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			st = 0x7f00;   /* not ours to wait for: as if it had ended with 127 */
			break;
		}
		if (got == 0) {
			r->poll(r->poll_ctx, dcfg_rec_spool_bytes(r->spool));
			nap();
		}
	}
	atomic_store(&guard.child, 0);
	end->exited = WIFEXITED(st);
	end->status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	end->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	end->received = atomic_load(&guard.received);
}

int
dcfg_rec_run(const struct dcfg_rec_run *r, struct dcfg_rec_end *end, struct dcfg_error *err)
{
	char *plugin = plugin_arg(r), **argv = plugin ? qemu_argv(r, plugin) : NULL;
	sigset_t saved;
	pid_t pid;
	int rc;

	memset(end, 0, sizeof *end);
	atomic_store(&guard.received, 0);
	if (argv == NULL) {
		free(plugin);
		return dcfg_error_set(err, r->program, "out of memory");
	}
	/* held until the pid is known, so that none arrives with no child to pass it to */
	hold(&saved);
	guard_begin(r->spool);
	rc = spawn(r, argv, &saved, &pid);
	if (rc == 0)
		atomic_store(&guard.child, pid);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	free(argv);
	free(plugin);
	if (rc != 0)
		return dcfg_error_set(err, r->qemu, "cannot run QEMU: %s", strerror(rc));
	wait_for(r, pid, end);
	return 0;
}

uint64_t
dcfg_rec_spool_bytes(const char *spool)
{
	uint64_t sum = 0;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int fd;

	if ((dir = opendir(spool)) == NULL)
		return 0;
	fd = dirfd(dir);
	while ((d = readdir(dir)) != NULL)
		if (d->d_name[0] != '.' && fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			sum += (uint64_t)st.st_size;
	closedir(dir);
	return sum;
}

int
dcfg_rec_spool_remove(const char *spool)
{
	struct dirent *d;
	DIR *dir;
	int fd, rc = 0;

	if ((dir = opendir(spool)) == NULL)
		return errno == ENOENT ? 0 : -1;
	fd = dirfd(dir);
	while ((d = readdir(dir)) != NULL)
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0 &&
		    unlinkat(fd, d->d_name, 0) < 0 && errno != ENOENT)
			rc = -1;
	closedir(dir);
	if (rmdir(spool) < 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

const char *
dcfg_rec_signal_name(int sig, char *buf, size_t size)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGSTKFLT, "SIGSTKFLT" }, { SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" },
		{ SIGSTOP, "SIGSTOP" }, { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
		{ SIGTTOU, "SIGTTOU" }, { SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" },
		{ SIGXFSZ, "SIGXFSZ" }, { SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
		{ SIGWINCH, "SIGWINCH" }, { SIGIO, "SIGIO" }, { SIGPWR, "SIGPWR" },
		{ SIGSYS, "SIGSYS" },
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(buf, size, "signal %d", sig);
	return buf;
}
