#include "tempfiles.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/*
 * Process-wide on purpose: a signal handler gets no argument, so what it
 * must remove has to be where it can find it. Only commands switch it on
 * (the guide's one exception to "no global mutable state in lib/"). It
 * is a fixed array, so that the handler neither allocates nor takes a
 * lock: a slot's path is complete before the slot is marked in use, and
 * the handler reads only slots marked so.
 */
#define N_SLOTS 16

static struct {
	char path[PATH_MAX];
	atomic_int used;
} slots[N_SLOTS];
static int catching;
static pthread_t main_thread;

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void
remove_and_die(int sig)
{
	int i, saved = errno;

	/*
	 * A helper thread (a decompressor) has no signals held back: the main
	 * thread, which may be renaming a file at this moment, takes the
	 * signal once its step is whole.
	 */
	if (!pthread_equal(pthread_self(), main_thread)) {
		pthread_kill(main_thread, sig);
		errno = saved;
		return;
	}
	for (i = 0; i < N_SLOTS; i++)
		if (atomic_load(&slots[i].used))
			unlink(slots[i].path);
	/* Die of the signal itself, so that the caller's shell sees it; it is delivered on return. */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

void
dcfg_temp_catch_signals(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = remove_and_die;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	main_thread = pthread_self();
	catching = 1;
	for (i = 0; i < sizeof caught / sizeof caught[0]; i++) {
		struct sigaction old;
		/* A signal the caller's shell ignores (nohup, a background job's SIGINT) stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

void
dcfg_temp_hold_signals(sigset_t *saved)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaddset(&set, caught[i]);
	pthread_sigmask(SIG_BLOCK, &set, saved);
}

void
dcfg_temp_release_signals(const sigset_t *saved)
{
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

int
dcfg_temp_add(const char *path)
{
	size_t len = strlen(path);
	int i;

	if (!catching)
		return -1;
	if (len >= sizeof slots[0].path)
		return -1;
	for (i = 0; i < N_SLOTS; i++)
		if (!atomic_load(&slots[i].used)) {
			memcpy(slots[i].path, path, len + 1);
			atomic_store(&slots[i].used, 1);
			return i;
		}
	return -1;
}

void
dcfg_temp_forget(int slot)
{
	if (slot >= 0 && slot < N_SLOTS)
		atomic_store(&slots[slot].used, 0);
}
