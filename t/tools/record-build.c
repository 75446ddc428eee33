/*
 * record-build: dcfg_record_build() on a spool, without QEMU, for
 * t/record-build.bats.
 *
 *   record-build [--chunk N] [--program PATH] [--progress] SPOOL DCFG [TRACE]
 *
 * --progress prints each progress call as "progress DONE TOTAL" on
 * standard error. Exit 0 written, 2 an error ("record-build: message").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"

static void
show_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	fprintf(stderr, "progress %llu %llu\n", (unsigned long long)done,
	    (unsigned long long)total);
}

int
main(int argc, char **argv)
{
	struct dcfg_record_build_options o = { .chunk_instrs = 0 };
	struct dcfg_error err;
	char msg[1024];
	int i = 1;

	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc)
			o.chunk_instrs = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--program") == 0 && i + 1 < argc)
			o.program_path = argv[++i];
		else if (strcmp(argv[i], "--progress") == 0)
			o.progress = show_progress;
		else
			goto usage;
	}
	if (argc - i < 2 || argc - i > 3)
		goto usage;
	o.spool_dir = argv[i];
	o.dcfg_path = argv[i + 1];
	o.trace_path = argc - i == 3 ? argv[i + 2] : NULL;
	if (dcfg_record_build(&o, &err) < 0) {
		dcfg_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "record-build: %s\n", msg);
		return 2;
	}
	return 0;
usage:
	fputs("usage: record-build [--chunk N] [--program PATH] [--progress] SPOOL DCFG [TRACE]\n",
	    stderr);
	return 2;
}
