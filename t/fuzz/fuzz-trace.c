/*
 * The DCFG-trace reader with the transition tables and the sequence
 * decoder behind it; the summary dcfg-info makes of a trace without
 * decoding it; and the look at the first bytes that tells the kinds apart.
 */
#include "fuzz.h"

#include "kind.h"
#include "output.h"
#include "trace.h"
#include "trace_summary.h"

/* Inputs may claim any EDGE_COUNT; a run stops after this many edges. */
#define MAX_EDGES 200000

struct run {
	uint64_t edges;
	uint32_t ids[1024];
};

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	(void)ctx;
	(void)t;
	return pid == 7 ? DCFG_TRACE_SKIP : DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct run *r = ctx;
	ssize_t n;

	if (dcfg_chunk_info(c)->index == 3)
		return DCFG_TRACE_OK;   /* a chunk left undecoded, as --from-icount does */
	while ((n = dcfg_chunk_next(c, r->ids, sizeof r->ids / sizeof r->ids[0])) > 0)
		if ((r->edges += (uint64_t)n) > MAX_EDGES)
			return DCFG_TRACE_STOP;
	if (n == 0 && dcfg_chunk_info(c)->index == 1) {
		dcfg_chunk_rewind(c);
		while ((n = dcfg_chunk_next(c, r->ids, 7)) > 0)
			if ((r->edges += (uint64_t)n) > MAX_EDGES)
				return DCFG_TRACE_STOP;
	}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct dcfg_trace_handler h = {
		.process = on_process,
		.chunk = on_chunk,
	};
	static struct dcfg_output out;
	struct dcfg_trace_summary_options so = { .only_pid = size & 1, .pid = 1 };
	struct dcfg_trace_summary ts;
	struct run r = { 0 };
	struct dcfg_error err;
	const char *path = fuzz_file(data, size);

	dcfg_trace_read(path, &h, &r, &err);
	if (dcfg_trace_summarize(path, &so, &ts, &err) == 0) {
		if (dcfg_output_open(&out, "/dev/null", &err) < 0)
			abort();
		dcfg_trace_summary_write(&out, &ts, (int)(size & 2));
		dcfg_output_close(&out, &err);
		dcfg_trace_summary_free(&ts);
	}
	dcfg_kind_sniff((const char *)data, size, 1);
	dcfg_kind_sniff((const char *)data, size / 2, 0);
	return 0;
}

#ifdef FUZZ_MUTATOR
#include "mutate.h"

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	return fuzz_mutate_json(data, size, max, seed, FUZZ_TRACE);
}
#endif
