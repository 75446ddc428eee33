/* setjmp/longjmp out of a nested call, and a signal handler entered by
 * raise() and by kill() of the process itself. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static jmp_buf env;
static volatile sig_atomic_t hits;

__attribute__((noinline)) static void on_signal(int sig)
{
	int s = 0;
	for (int i = 0; i < 10; i++)
		s += sig + i;
	hits += s & 1 ? 1 : 2;
}

__attribute__((noinline)) static void deep(int n)
{
	if (n == 0)
		longjmp(env, 3);
	deep(n - 1);
}

int main(void)
{
	volatile int rounds = 0;
	if (setjmp(env) < 3 || rounds < 3) {
		rounds++;
		if (rounds <= 3)
			deep(4);
	}
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	kill(getpid(), SIGUSR1);
	printf("rounds %d hits %d\n", (int)rounds, (int)hits);
	return 0;
}
