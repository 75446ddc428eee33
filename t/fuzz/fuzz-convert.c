/*
 * Every dcfg-convert format, fed a fuzzed DCFG. --to bolt reads a
 * function table made up here from the DCFG's own symbols and blocks (no
 * ELF), and its profile is checked: every block of the image that ran is
 * a run "F first last" of at least its count (blocks counted here, by the
 * edges into them, REP's repeats not).
 */
#include "fuzz.h"

#include <dirent.h>
#include <inttypes.h>
#include <string.h>

#include "convert/bolt.h"
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

/* What the made-up binary is made of: the DCFG, and bits of the input's size. */
struct made_up {
	const struct dcfg *d;
	size_t size;
};

/*
 * A function per symbol of the DCFG (one left out when the size says so,
 * for the refusal), code over every block (or half of it), a PLT section
 * at 0x20 and a load address at 0x400000 as the size's bits say.
 */
static int
made_up_functions(void *ctx, const char *binary, struct dcfg_bolt_functions *t,
    struct dcfg_error *err)
{
	const struct made_up *m = ctx;
	uint64_t end = 0;
	size_t i;

	(void)binary;
	for (i = 0; i < m->d->n_symbols; i++) {
		const struct dcfg_symbol *s = &m->d->symbols[i];
		const char *name = dcfg_string(m->d, s->name);
		if ((m->size & 8) && i == m->size % m->d->n_symbols)
			continue;
		if (dcfg_bolt_add_function(t, s->offset, s->size, name ? name : "", "", 0) < 0)
			return dcfg_error_set(err, "fuzz", "out of memory");
	}
	for (i = 0; i < m->d->n_blocks; i++)
		if (m->d->blocks[i].offset + m->d->blocks[i].size > end)
			end = m->d->blocks[i].offset + m->d->blocks[i].size;
	if (dcfg_bolt_add_function(t, 0, end, "everything", "", 0) < 0 ||
	    dcfg_bolt_add_code(t, 0, (m->size & 16) ? end / 2 : end + 1, 0) < 0 ||
	    ((m->size & 4) && dcfg_bolt_add_code(t, 0x20, 0x40, DCFG_BOLT_PLT) < 0) ||
	    dcfg_bolt_functions_finish(t) < 0)
		return dcfg_error_set(err, "fuzz", "out of memory");
	t->base = (m->size & 1) ? 0x400000 : 0;
	return 0;
}

/* The count of the run "F FROM TO" in the profile at PATH, 0 when it has none. */
static uint64_t
run_count(const char *path, uint64_t from, uint64_t to)
{
	FILE *f = fopen(path, "r");
	char kind;
	uint64_t a, b, n, found = 0;

	if (f == NULL)
		abort();
	while (fscanf(f, " %c %" SCNx64 " %" SCNx64 " %" SCNu64 "%*[^\n]", &kind, &a, &b, &n) == 4)
		if (kind == 'F' && a == from && b == to)
			found += n;
	fclose(f);
	return found;
}

/* Every block of the main image that ran, outside the PLT, is a run of at least its count. */
static void
check_bolt(const struct dcfg *d, const struct dcfg_convert_options *o, const char *path,
    size_t size)
{
	uint64_t base = (size & 1) ? 0x400000 : 0;
	const struct dcfg_process *p = o->has_pid ? dcfg_find_process(d, o->pid) : d->processes;
	const struct dcfg_image *im = dcfg_main_image(d, p);
	struct dcfg_bolt_functions t = { .n = 0 };
	struct made_up m = { d, size };
	struct dcfg_error err;
	uint32_t i, k;

	if (made_up_functions(&m, "", &t, &err) < 0)
		abort();
	for (k = 0; im != NULL && k < im->blocks.count; k++) {
		const struct dcfg_block *b = &d->blocks[im->blocks.first + k];
		uint64_t count = 0, last = b->offset + b->last_instr_offset;
		for (i = 0; i < p->edges.count; i++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + i];
			if (e->kind != DCFG_EDGE_REP && e->total > 0 &&
			    dcfg_block_by_node(d, p, e->target) == b)
				count = count > UINT64_MAX - e->total ? UINT64_MAX : count + e->total;
		}
		/* left out: in the PLT, or in no function (one nested in another hides it) */
		if (count == 0 || dcfg_bolt_in_plt(&t, b->offset) || dcfg_bolt_in_plt(&t, last) ||
		    dcfg_bolt_function_at(&t, b->offset) == DCFG_NONE ||
		    dcfg_bolt_function_at(&t, last) == DCFG_NONE)
			continue;
		if (run_count(path, base + b->offset, base + last) < count) {
			fprintf(stderr, "bolt: block %" PRIu32 " ran %" PRIu64 " times, its run "
			    "F %" PRIx64 " %" PRIx64 " has less\n", b->node_id, count,
			    base + b->offset, base + last);
			abort();
		}
	}
	dcfg_bolt_functions_free(&t);
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
	struct made_up made_up;
	char bolt_path[sizeof dir + 16];
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
	made_up.d = d;
	made_up.size = size;
	o.bolt_functions = made_up_functions;
	o.bolt_functions_ctx = &made_up;
	snprintf(bolt_path, sizeof bolt_path, "%s/bolt.pa", dir);
	for (i = 0; dcfg_format_at(i) != NULL; i++) {
		const struct dcfg_format *fmt = dcfg_format_at(i);
		int bolt = (fmt->uses & DCFG_FORMAT_IMAGE) != 0;
		if (dcfg_output_open(&out, bolt ? bolt_path : "/dev/null", &err) < 0)
			abort();
		o.out_dir = fmt->uses & DCFG_FORMAT_NEEDS_DIR ? dir : NULL;
		o.n_routines = o.n_nodes = 0;
		c = (struct dcfg_convert){ d, &o, &out };
		if (bolt) {
			/* written whole or not at all: the check reads what was written */
			if (fmt->run(&c, &err) == 0 && dcfg_output_close(&out, &err) == 0)
				check_bolt(d, &o, bolt_path, size);
			else
				dcfg_output_discard(&out);
			unlink(bolt_path);
			continue;
		}
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
