/*
 * dcfg-regions: the input is a profile, t.simpoints, t.weights and
 * (optionally) t.labels, one after another, each ended by a line "%%";
 * each goes into a file of its own. The format, the warmup factor,
 * --thread and --global-counts come from the input's size; the
 * looppoint-json and sde-control runs have the hand-made profile's DCFG,
 * t/data/regions/prog.dcfg.json, whose proof they need. Every way these
 * hand-editable files can break must be an error, never a crash, a hang
 * or a wrong region; and what is written must keep the readers' rules: the oracle
 * reads a region CSV back and checks that every data line has 16 fields,
 * none but the first holding a blank, a weight <= 1 and a relative count
 * no larger than the end's absolute count (abort: a finding). Then
 * --check's table (TSV): its BBV distance must be 0 to 2, and its last
 * line the summary.
 * FUZZ_REGIONS_SHOW=1 prints each CSV and table it checks, each refusal
 * of the CSV ("refused: ...") and of the other format ("refused (FORMAT):
 * ..."), and "written (FORMAT)" for the other format written.
 */
#include "fuzz.h"

#include <string.h>

#include "regions/regions.h"

#define FILES 4

static unsigned long long
number(const char *s)
{
	return strtoull(s, NULL, 10);
}

/* The oracle: the CSV in file FILES, line by line. */
static void
check_csv(void)
{
	static char buf[1 << 20];
	ssize_t n = pread(fuzz_put_file(FILES)->fd, buf, sizeof buf - 1, 0);
	char *line, *next, *f[17];
	int k;

	if (n < 0)
		abort();
	buf[n] = '\0';
	if (getenv("FUZZ_REGIONS_SHOW"))
		fputs(buf, stdout);
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next == NULL)
			abort();   /* a last line without its newline */
		*next++ = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		for (k = 0, f[0] = line; k < 16; k++) {
			char *comma = strchr(f[k], ',');
			if (comma == NULL)
				break;
			*comma = '\0';
			f[k + 1] = comma + 1;
		}
		if (k != 15 || strchr(f[15], ',') != NULL) {
			fprintf(stderr, "fuzz-regions: a data line with %d fields\n", k + 1);
			abort();
		}
		for (k = 1; k < 16; k++)
			if (strpbrk(f[k], " \t\r") != NULL || f[k][0] == '\0') {
				fprintf(stderr, "fuzz-regions: field %d is \"%s\"\n", k, f[k]);
				abort();
			}
		if (strtod(f[13], NULL) > 1 || number(f[11]) > number(f[10])) {
			fprintf(stderr, "fuzz-regions: weight %s, relative %s of %s\n", f[13], f[11], f[10]);
			abort();
		}
	}
}

/* The oracle of --check: the TSV in file FILES. */
static void
check_table(void)
{
	static char buf[1 << 20];
	ssize_t n = pread(fuzz_put_file(FILES)->fd, buf, sizeof buf - 1, 0);
	char *d, *last;

	if (getenv("FUZZ_REGIONS_SHOW") && n > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	if (n <= 0 || buf[n - 1] != '\n')
		abort();
	buf[n - 1] = '\0';
	last = strrchr(buf, '\n');
	if ((d = strstr(buf, "\n# bbv_distance ")) == NULL || last == NULL ||
	    strncmp(last + 1, "# summary thread ", 17) != 0 ||
	    !(strtod(d + 16, NULL) >= 0 && strtod(d + 16, NULL) <= 2.000001)) {
		fprintf(stderr, "fuzz-regions: a --check table without its distance or summary\n");
		abort();
	}
}

static void
run_check(const struct dcfg_regions_files *files, const struct dcfg_regions_options *o)
{
	static struct dcfg_output out;
	struct dcfg_regions_options c = *o;
	struct dcfg_error err;

	c.check = 1;
	c.warmup_factor = 0;
	c.table_format = DCFG_TABLE_TSV;
	if (dcfg_output_open(&out, fuzz_put(FILES, (const uint8_t *)"", 0), &err) < 0)
		abort();
	if (dcfg_regions_run(files, &c, &out, &err) < 0) {
		dcfg_output_discard(&out);
		return;
	}
	if (dcfg_output_close(&out, &err) < 0)
		abort();
	check_table();
}

/* The DCFG of the hand-made profile the seeds are made of, loaded once. */
static const struct dcfg *
regions_dcfg(void)
{
	static struct dcfg *d;

	return fuzz_dcfg_once(&d, FUZZ_DATA "/regions/prog.dcfg.json");
}

static void
run(const struct dcfg_regions_files *files, struct dcfg_regions_options *o,
    enum dcfg_regions_format format)
{
	static const char *const names[] = { "csv", "looppoint-json", "sde-control" };
	static struct dcfg_output out;
	struct dcfg_error err;
	uint64_t warmup = o->warmup_factor;
	int show = getenv("FUZZ_REGIONS_SHOW") != NULL;

	o->format = format;
	if (format == DCFG_REGIONS_SDE_CONTROL)
		o->warmup_factor = 0;
	if (dcfg_output_open(&out, fuzz_put(FILES, (const uint8_t *)"", 0), &err) < 0)
		abort();
	if (dcfg_regions_run(files, o, &out, &err) < 0) {
		if (show && format == DCFG_REGIONS_CSV)
			printf("refused: %s:%lu:%lu: %s\n", err.file, err.line, err.column, err.message);
		else if (show)
			printf("refused (%s): %s:%lu:%lu: %s\n", names[format], err.file, err.line,
			    err.column, err.message);
		dcfg_output_discard(&out);
	} else {
		if (dcfg_output_close(&out, &err) < 0)
			abort();
		if (format == DCFG_REGIONS_CSV)
			check_csv();
		else if (show)
			printf("written (%s)\n", names[format]);
	}
	o->warmup_factor = warmup;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* run() sets o.format: the format the size picks is kept apart */
	enum dcfg_regions_format picked = (enum dcfg_regions_format)(size % 3);
	struct dcfg_regions_options o = { .warmup_factor = size / 3 % 3, .has_thread = size / 9 % 2,
	    .thread = 3 };
	const char *names[FILES] = { NULL, NULL, NULL, NULL };
	struct dcfg_regions_files files;
	size_t at = 0, n = 0;

	while (n < FILES && (at < size || n < 3)) {
		const uint8_t *end = NULL, *p;
		size_t len;
		for (p = data + at; p + 3 <= data + size; p++)
			if (p[0] == '%' && p[1] == '%' && p[2] == '\n' && (p == data + at || p[-1] == '\n')) {
				end = p;
				break;
			}
		len = (size_t)((end ? end : data + size) - (data + at));
		names[n] = fuzz_put((int)n, data + at, len);
		n++;
		at += len + (end ? 3 : 0);
		if (end == NULL && n >= 3)
			break;
	}
	files = (struct dcfg_regions_files){ names[0], names[1], names[2], names[3], NULL };
	/* the CSV and --check, checked by the oracles; then the format the size picks, proven by the DCFG */
	run(&files, &o, DCFG_REGIONS_CSV);
	run_check(&files, &o);
	if (picked != DCFG_REGIONS_CSV) {
		o.dcfg = regions_dcfg();
		o.global_counts = picked == DCFG_REGIONS_SDE_CONTROL && size / 18 % 2;
		run(&files, &o, picked);
	}
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	return fuzz_mutate_lines(data, size, max, seed);
}
#endif
