/*
 * Conventions every command shares: how errors are printed, and the
 * setting up of the paired DCFG, the output and the progress meter
 * (progress.h).
 */
#ifndef DCFG_CLI_H
#define DCFG_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "dcfg/model.h"
#include <dcfg/error.h>
#include "common/output.h"
#include "common/progress.h"

/* Exit statuses of every command. */
#define DCFG_EXIT_OK     0
#define DCFG_EXIT_CHECK  1   /* the data failed a check */
#define DCFG_EXIT_USAGE  2   /* usage or input error */

/*
 * Call first in main, and return its status unless it is DCFG_EXIT_OK: a
 * closed pipe then shows up as EPIPE on write, to be told apart from real
 * write failures, instead of killing the process. DCFG_EXIT_USAGE when a
 * closed standard descriptor cannot be held with /dev/null: the command
 * must stop before it opens anything, or a file would take the place.
 */
int dcfg_cli_start(void);

/* Prints "PROG: FILE:LINE:COLUMN: message" on standard error. */
void dcfg_cli_error(const char *prog, const struct dcfg_error *err);
/*
 * A library warning callback: prints "PROG: warning: MSG" on standard
 * error, escaped as dcfg_cli_error's messages are. PROG is the command's
 * name, passed as the callback's context.
 */
void dcfg_cli_warning(void *prog, const char *msg);

/*
 * ARG (an option's value, as typed or globbed) escaped into BUF of SIZE
 * bytes as names are (dcfg_escape), for a usage message: no control byte
 * of it reaches the terminal. Returns BUF.
 */
const char *dcfg_cli_shown(char *buf, size_t size, const char *arg);
#define DCFG_CLI_SHOWN_MAX 256
/* The same in a buffer that lives as long as the statement's block. */
#define DCFG_CLI_SHOWN(arg) \
	dcfg_cli_shown((char[DCFG_CLI_SHOWN_MAX]){ 0 }, DCFG_CLI_SHOWN_MAX, (arg))

/*
 * Before OUT_PATH is opened: -1 after a message when it is one of the N
 * INPUTS (dcfg_output_check_inputs).
 */
int dcfg_cli_check_output(const char *prog, const char *out_path, const char *const *inputs,
    size_t n);

/* What a stage's main sets up around its work: the paired DCFG, the output. */
struct dcfg_cli_io {
	const char *prog;
	struct dcfg *dcfg;                /* from --dcfg, or NULL */
	struct dcfg_output *out;
	struct dcfg_progress progress;
};

/*
 * Starts the progress meter, loads DCFG_PATH (when not NULL) keeping
 * KEEP, and opens OUT_PATH (NULL: standard output). On failure it says
 * why and returns -1.
 */
int dcfg_cli_setup(struct dcfg_cli_io *io, const char *prog, const char *dcfg_path,
    unsigned keep, const char *out_path, enum dcfg_progress_mode mode);

/*
 * After the work returned RC (-1 with ERR set): reports the errors, closes
 * and frees everything, and returns the exit status. On standard output a
 * stream keeps what it wrote before an error (PARTIAL_OK) and a document
 * is dropped whole; a file is then not written at all (its old content
 * stays).
 */
int dcfg_cli_finish(struct dcfg_cli_io *io, int rc, const struct dcfg_error *err,
    int partial_ok);

/* After a failure already reported: frees everything, and writes nothing (an old file stays). */
void dcfg_cli_discard(struct dcfg_cli_io *io);

#endif
