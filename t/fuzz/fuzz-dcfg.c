/* The JSON table layer and the DCFG loader, then what dcfg-info and dcfg-check do with a DCFG. */
#include "fuzz.h"

#include "check/check.h"
#include "dcfg/model.h"
#include "common/output.h"
#include "info/summary.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcfg_output out;
	struct dcfg_load_options lo = { .keep = DCFG_KEEP_ALL };
	struct dcfg_findings f = { 0 };
	struct dcfg_error err;
	struct dcfg *d;

	if ((d = dcfg_load(fuzz_file(data, size), &lo, &err)) == NULL)
		return 0;
	if (dcfg_output_open(&out, "/dev/null", &err) == 0) {
		dcfg_summary_write(&out, d, NULL, (int)(size & 1), "fuzz", &err);
		f.out = &out;
		f.max = 50;
		dcfg_check_dcfg(d, &f);
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
