/*
 * dcfg-count --merge: the input is up to four tables (or files of
 * basic-block vectors), one after another, each ended by a line "%%"; each
 * goes into a file of its own, and the merge reads them all. --top comes
 * from the input's size. A merge reads text that may have been edited by
 * hand or cut short, so every way a file can break the format must be an
 * error, never a crash, a hang or a wrong count that wraps.
 */
#include "fuzz.h"

#include <string.h>

#include "count/count_merge.h"

#define FILES 4

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcfg_output out;
	struct dcfg_count_merge_options o = { .top = size % 4 };
	struct dcfg_error err;
	char *paths[FILES];
	size_t at = 0, n = 0;

	while (n < FILES && (at < size || n == 0)) {
		const uint8_t *end = NULL, *p;
		size_t len;
		/* a part ends at a line "%%" */
		for (p = data + at; p + 3 <= data + size; p++)
			if (p[0] == '%' && p[1] == '%' && p[2] == '\n' && (p == data + at || p[-1] == '\n')) {
				end = p;
				break;
			}
		len = (size_t)((end ? end : data + size) - (data + at));
		paths[n] = fuzz_put((int)n, data + at, len);
		n++;
		at += len + (end ? 3 : 0);
		if (end == NULL)
			break;
	}
	if (dcfg_output_open(&out, "/dev/null", &err) < 0)
		abort();
	dcfg_count_merge(paths, n, &o, &out, &err);
	dcfg_output_close(&out, &err);
	return 0;
}
