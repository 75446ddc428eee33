/*
 * The edge-stream reader, and the stages that read a stream (dcfg-edges,
 * dcfg-blocks, dcfg-count) against a fixed DCFG: the bundled sample, whose
 * edge ids a fuzzer finds in the seed streams.
 */
#include "fuzz.h"

#include "blocks.h"
#include "count.h"
#include "edges.h"
#include "stream.h"

#ifndef FUZZ_DATA
#define FUZZ_DATA "t/data"
#endif

static const struct dcfg *
sample(void)
{
	static struct dcfg *d;
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL };
	struct dcfg_error err;

	if (d == NULL && (d = dcfg_load(FUZZ_DATA "/sample/prog.dcfg.json.gz", &lo, &err)) == NULL) {
		fprintf(stderr, "fuzz-stream: %s: %s\n", err.file, err.message);
		abort();
	}
	return d;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcfg_output out;
	const char *path = fuzz_file(data, size);
	struct dcfg_count_options co = { .by = (enum dcfg_count_by)(size % 9) };
	struct dcfg_stream_record r;
	struct dcfg_stream *st;
	struct dcfg_stage s;
	struct dcfg_error err;

	if ((st = dcfg_stream_open(path, NULL, &err)) != NULL) {
		while (dcfg_stream_next(st, &r, &err) > 0)
			;
		dcfg_stream_close(st);
	}
	if (dcfg_output_open(&out, "/dev/null", &err) < 0)
		abort();
	s = (struct dcfg_stage){ .dcfg = sample(), .out = &out };
	dcfg_edges_run(&s, path, 0, &err);
	s = (struct dcfg_stage){ .dcfg = sample(), .out = &out };
	dcfg_blocks_run(&s, path, (int)(size & 1), &err);
	s = (struct dcfg_stage){ .dcfg = sample() };
	if (size & 2)
		co.bbv = 1000;
	dcfg_count_stream(&s, &out, path, &co, &err);
	dcfg_output_close(&out, &err);
	return 0;
}
