/* Function pointers (indirect calls) and a switch that gcc -O2 compiles to
 * a jump table (t/record-valgrind.bats checks that with objdump). */
#include <stdio.h>

typedef int (*op_fn)(int, int);

__attribute__((noinline)) static int op_add(int a, int b) { return a + b; }
__attribute__((noinline)) static int op_sub(int a, int b) { return a - b; }
__attribute__((noinline)) static int op_mul(int a, int b) { return a * b; }
__attribute__((noinline)) static int op_xor(int a, int b) { return a ^ b; }

static op_fn const ops[] = { op_add, op_sub, op_mul, op_xor };

__attribute__((noinline)) static int classify(int c, int x)
{
	switch (c) {
	case 0: return x + 11;
	case 1: return x * 7 + 3;
	case 2: return x - 29;
	case 3: return x << 4;
	case 4: return x >> 2;
	case 5: return x * x + 1;
	case 6: return x ^ 77;
	case 7: return x / 3;
	case 8: return x | 5;
	default: return -x;
	}
}

int main(int argc, char **argv)
{
	(void)argv;
	int acc = argc;
	for (int i = 0; i < 40; i++) {
		op_fn f = ops[(i + argc) & 3];
		acc = f(acc, i) & 0xffff;
		acc += classify((acc + i) % 10, i);
	}
	printf("dispatch %d\n", acc);
	return 0;
}
