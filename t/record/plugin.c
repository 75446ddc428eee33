/* The shared object that dl.c opens with dlopen(). */
__attribute__((noinline)) static int plug_step(int x)
{
	return x * 5 + 1;
}

int plug_run(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s ^= plug_step(i + s);
	return s;
}
