/* 4 threads that run the same code on their own data; the output is
 * printed after the joins, so it does not depend on the schedule. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4

struct job { unsigned seed, result; };

__attribute__((noinline)) static unsigned mix(unsigned x)
{
	for (int i = 0; i < 50; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

static void *work(void *arg)
{
	struct job *j = arg;
	unsigned x = j->seed;
	for (int i = 0; i < 20; i++)
		x = mix(x);
	j->result = x;
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	struct job jobs[THREADS];
	for (int i = 0; i < THREADS; i++) {
		jobs[i].seed = (unsigned)i;
		if (pthread_create(&t[i], NULL, work, &jobs[i]) != 0)
			return 1;
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++)
		printf("thread %d: %u\n", i, jobs[i].result);
	return 0;
}
