#include "vec.h"

#include <stdint.h>
#include <stdlib.h>

int
dcfg_reserve(void **arr, size_t *cap, size_t need, size_t elsize)
{
	size_t want = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	if (need >= UINT32_MAX / 2 || need > SIZE_MAX / 2 / elsize)
		return -1;
	while (want < need)
		want *= 2;
	if ((p = realloc(*arr, want * elsize)) == NULL)
		return -1;
	*arr = p;
	*cap = want;
	return 0;
}
