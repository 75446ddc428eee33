/*
 * The recorder's second half: a finished spool (spool.h) becomes the two
 * files dcfg-record writes, the DCFG and its DCFG-trace, both bzip2.
 * Memory is bounded by the program's code (its translation blocks,
 * blocks and edges), never by the run's length: the thread files are
 * streamed, twice (the DCFG's counts, then the trace).
 */
#ifndef DCFG_RECORD_RECORD_H
#define DCFG_RECORD_RECORD_H

#include <stdint.h>

#include <dcfg/error.h>

struct dcfg_record_build_options {
	const char *spool_dir;
	const char *dcfg_path;        /* the DCFG to write (bzip2) */
	const char *trace_path;       /* the DCFG-trace to write (bzip2); NULL: --no-trace */
	uint64_t chunk_instrs;        /* a trace chunk ends after this many instructions (--chunk-size) */
	/* bytes of thread files read of their total, on each pass; may be NULL */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/*
	 * The executable, as it was run: its image becomes IMAGE_ID 1 (matched
	 * by path, then by device and inode). NULL: the images keep the order
	 * the plugin found them in.
	 */
	const char *program_path;
};

/*
 * 0: both files written (the DCFG alone without trace_path); -1 with ERR
 * set, and nothing left under the final names. The spool is read, never
 * removed: the caller removes it (its temporaries are gone either way).
 */
int dcfg_record_build(const struct dcfg_record_build_options *o, struct dcfg_error *err);

#endif
