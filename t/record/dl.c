/* Calls a function of a shared object it opens with dlopen(): the path of
 * the object is the first argument. No dlclose(): callgrind writes the
 * costs of code that was unmapped before the program ended on line 0,
 * even with --keep-debuginfo=yes (valgrind 3.19). */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	int (*run)(int) = (int (*)(int))dlsym(h, "plug_run");
	if (!run)
		return 1;
	printf("plug %d\n", run(25));
	return 0;
}
