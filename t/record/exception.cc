// A C++ exception thrown two calls deep and caught in main.
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) static int check(int x)
{
	if (x > 6)
		throw std::runtime_error("too big");
	return x * 2;
}

__attribute__((noinline)) static int walk(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += check(i);
	return s;
}

int main()
{
	int caught = 0, sum = walk(5);
	try {
		sum += walk(10);
	} catch (const std::runtime_error &e) {
		caught = 1;
		std::printf("caught %s\n", e.what());
	}
	std::printf("sum %d caught %d\n", sum, caught);
	return 0;
}
