/*
 * dcfg-convert's formats: a table of writers, each a module of its own,
 * and what they share (choosing processes, inclusive costs from a trace,
 * one output or one file per process or thread in a directory).
 */
#ifndef DCFG_CONVERT_H
#define DCFG_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include <dcfg/error.h>
#include "common/output.h"
#include "profile.h"

struct dcfg_bolt_functions;

struct dcfg_convert_options {
	const char *dcfg_path, *trace_path, *out_dir, *cmd, *creator;
	/* dot: --routine NAME|ID and --node ID, as given; none of either: the call graph */
	const char *const *routines;
	const uint64_t *nodes;
	size_t n_routines, n_nodes;
	uint64_t pid;
	uint64_t cpuspeed;         /* dcpi: --cpuspeed, 0 unknown */
	uint64_t min_count;        /* dot: --min-count */
	int all_edges;             /* dot: --all-edges */
	int64_t epoch;             /* dcpi: seconds since 1970 (SOURCE_DATE_EPOCH or now) */
	int has_pid, separate_threads;
	int keep_stubs;            /* callgrind, webgrind, dot: --keep-stubs */
	/* bolt: --image NAME (NULL: the main image) and --binary FILE (NULL: the image's file) */
	const char *image, *binary;
	/*
	 * bolt: fills *FUNCTIONS (zeroed) from the file BINARY, through
	 * dcfg_bolt_add_function and dcfg_bolt_add_code, and finishes it
	 * (bolt.h). 0, or -1 with ERR. The command's: lib/convert reads no ELF.
	 */
	int (*bolt_functions)(void *ctx, const char *binary, struct dcfg_bolt_functions *functions,
	    struct dcfg_error *err);
	void *bolt_functions_ctx;
	void (*progress)(void *ctx, uint64_t bytes);
	void *progress_ctx;
	/* what the output leaves out, and why (MSG), for the caller to tell; may be NULL */
	void (*warning)(void *ctx, const char *msg);
	void *warning_ctx;
};

struct dcfg_convert {
	const struct dcfg *d;
	const struct dcfg_convert_options *o;
	struct dcfg_output *out;   /* standard output or -o; unused with out_dir */
};

/* What a format can use, beside --dcfg, -p and -o. */
enum {
	DCFG_FORMAT_TRACE    = 1 << 0,   /* --trace, --separate-threads, --cmd */
	DCFG_FORMAT_OUT_DIR  = 1 << 1,   /* --out-dir */
	DCFG_FORMAT_NEEDS_DIR = 1 << 2,  /* --out-dir is needed (and -o is not used) */
	DCFG_FORMAT_CPUSPEED = 1 << 3,   /* --cpuspeed */
	DCFG_FORMAT_ROUTINE  = 1 << 4,   /* --routine, --node, --min-count */
	DCFG_FORMAT_IMAGE    = 1 << 5    /* --image, --binary */
};

/*
 * The one list of formats (convert.c): --to, its help and its messages,
 * and the fuzzer read it.
 */
struct dcfg_format {
	const char *name;
	const char *about;               /* NULL, or what --help says of it in parentheses */
	unsigned uses;                   /* DCFG_FORMAT_* */
	/* 0; -1 with ERR (exit 2); -2 with ERR: the inputs disagree (exit 1). */
	int (*run)(const struct dcfg_convert *c, struct dcfg_error *err);
};

/* NULL for an unknown name. */
const struct dcfg_format *dcfg_format_find(const char *name);
/* The formats in the order --help lists them: the Ith, or NULL past the last. */
const struct dcfg_format *dcfg_format_at(size_t i);

/*
 * The processes to convert: the -p one, or all of them when MANY, or the
 * only one. *N gets how many; NULL with ERR on an error. The array is the
 * DCFG's own, or a pointer to the one.
 */
const struct dcfg_process *dcfg_convert_processes(const struct dcfg_convert *c,
    int many, size_t *n, struct dcfg_error *err);

/*
 * Writes through WRITE (0, or -1 with ERR set) either to c->out, or to
 * O->out_dir/NAME (refused when it is one of the inputs; written whole or
 * not at all, see dcfg_output_open). 0, or -1 with ERR.
 */
int dcfg_convert_file(const struct dcfg_convert *c, const char *name,
    int (*write)(struct dcfg_output *out, void *ctx, struct dcfg_error *err), void *ctx,
    struct dcfg_error *err);

/*
 * The profile formats: for each process, and each thread with
 * --separate-threads (else all threads summed), builds the profile (exact
 * inclusive costs with a trace, estimated without) and writes it through
 * WRITE to PREFIX.PID or PREFIX.PID-TT. THREAD is DCFG_ALL_THREADS for sums.
 */
typedef int (*dcfg_profile_writer)(struct dcfg_output *out, const struct dcfg_profile *pf,
    uint32_t thread, const struct dcfg_convert_options *o, struct dcfg_error *err);
int dcfg_convert_profiles(const struct dcfg_convert *c, const char *prefix,
    dcfg_profile_writer write, struct dcfg_error *err);

/* The per-format entry points, for the table. */
int dcfg_convert_callgrind(const struct dcfg_convert *c, struct dcfg_error *err);
int dcfg_convert_webgrind(const struct dcfg_convert *c, struct dcfg_error *err);
int dcfg_convert_dcpi(const struct dcfg_convert *c, struct dcfg_error *err);
int dcfg_convert_csi(const struct dcfg_convert *c, struct dcfg_error *err);
int dcfg_convert_dot(const struct dcfg_convert *c, struct dcfg_error *err);
int dcfg_convert_bolt(const struct dcfg_convert *c, struct dcfg_error *err);

#endif
