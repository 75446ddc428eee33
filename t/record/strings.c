/* rep movsb and rep stosb in inline assembly, which the compiler cannot
 * drop or replace, and PLT calls into libc (memcpy, strlen, puts). */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void copy_bytes(void *dst, const void *src, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

__attribute__((noinline)) static void fill_bytes(void *dst, int c, size_t n)
{
	__asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
}

static char src[200], dst[200], buf[300];

int main(void)
{
	for (int i = 0; i < 150; i++)
		src[i] = (char)('a' + i % 26);
	copy_bytes(dst, src, 150);
	fill_bytes(dst + 40, '-', 33);
	fill_bytes(buf, 'x', 0);
	memcpy(buf, dst, 120);
	printf("%zu %.60s\n", strlen(buf), buf);
	return 0;
}
