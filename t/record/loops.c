/* Nested loops with known trip counts, recursion and PLT calls into libc
 * (printf, puts). Portable C: t/record-aarch64.bats cross-compiles it.
 * inner() runs 7 times per call, middle() 5 x 7, outer() 3 x 5 x 7;
 * fib(12) calls itself 464 times (465 calls in all). */
#include <stdio.h>

__attribute__((noinline)) static unsigned inner(unsigned x)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 7; k++)
		s += (x ^ k) * 3u;
	return s;
}

__attribute__((noinline)) static unsigned middle(unsigned x)
{
	unsigned s = 0;
	for (unsigned j = 0; j < 5; j++)
		for (unsigned k = 0; k < 7; k++)
			s += inner(x + j * k);
	return s;
}

__attribute__((noinline)) static unsigned outer(void)
{
	unsigned s = 0;
	for (unsigned i = 0; i < 3; i++)
		s ^= middle(i);
	return s;
}

__attribute__((noinline)) static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
	printf("outer %u\n", outer());
	printf("fib %u\n", fib(12));
	puts("done");
	return 0;
}
