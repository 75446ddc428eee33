/* Every dcfg-convert format, fed a fuzzed DCFG. */
#include "fuzz.h"

#include <dirent.h>
#include <string.h>

#include "convert/convert.h"

static char dir[] = "/tmp/fuzz-convert.XXXXXX";

/* The DCPI files go to a directory of their own, removed at the end. */
static void
remove_dir(void)
{
	char path[sizeof dir + 300];
	struct dirent *e;
	DIR *dp = opendir(dir);

	while (dp && (e = readdir(dp)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (dp)
		closedir(dp);
	rmdir(dir);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int have_dir;
	static struct dcfg_output out;
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL };
	struct dcfg_convert_options o = { .dcfg_path = "fuzz", .creator = "fuzz" };
	struct dcfg_convert c;
	struct dcfg_error err;
	struct dcfg *d;
	size_t i;

	if (!have_dir) {
		if (mkdtemp(dir) == NULL)
			abort();
		atexit(remove_dir);
		have_dir = 1;
	}
	if ((d = dcfg_load(fuzz_file(data, size), &lo, &err)) == NULL)
		return 0;
	o.all_edges = (size >> 1) & 1;
	if (d->n_processes > 1) {
		o.has_pid = 1;
		o.pid = d->processes[size % d->n_processes].pid;
	}
	o.min_count = size % 3;
	o.keep_stubs = (int)(size >> 2) & 1;
	for (i = 0; dcfg_format_at(i) != NULL; i++) {
		const struct dcfg_format *fmt = dcfg_format_at(i);
		if (dcfg_output_open(&out, "/dev/null", &err) < 0)
			abort();
		o.out_dir = fmt->uses & DCFG_FORMAT_NEEDS_DIR ? dir : NULL;
		o.n_routines = o.n_nodes = 0;
		c = (struct dcfg_convert){ d, &o, &out };
		fmt->run(&c, &err);
		if (fmt->uses & DCFG_FORMAT_ROUTINE) {
			static const char *const routines[] = { "main", "0x3e8" };
			static const uint64_t nodes[] = { 1000, 1001 };
			o.routines = routines + (size & 1);
			o.n_routines = 1;
			fmt->run(&c, &err);
			/* several routines by block, with their stubs */
			o.nodes = nodes;
			o.n_nodes = 2;
			fmt->run(&c, &err);
		}
		dcfg_output_close(&out, &err);
	}
	dcfg_free(d);
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	return fuzz_mutate_json(data, size, max, seed, FUZZ_DCFG);
}
#endif
