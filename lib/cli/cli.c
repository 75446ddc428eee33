#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/tempfiles.h"

int
dcfg_cli_start(void)
{
	int fd;

	/*
	 * SIGPIPE stays ignored even when kill(1) sends it: a reader that went
	 * away is seen as EPIPE, a quiet stop with status 0, and a file being
	 * written is never read by a pipe. The signals that end a command
	 * remove its temporaries first (dcfg(7), OUTPUT FILES).
	 */
	signal(SIGPIPE, SIG_IGN);
	dcfg_temp_catch_signals();
	/* A file-size limit is a write error to report, not a silent kill. */
	signal(SIGXFSZ, SIG_IGN);
	/*
	 * A standard descriptor closed by the caller would be taken by the
	 * next file opened: the DCFG read as the stream, or an error message
	 * written into the -o file. /dev/null, opened the wrong way round,
	 * holds the place and still fails every read or write with EBADF.
	 */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			return DCFG_EXIT_USAGE;
	return DCFG_EXIT_OK;
}

/*
 * Names in messages are escaped where the message is made (dcfg_escape);
 * this is the net for what was not, the file name the user typed
 * included: a control byte, or a byte that is not UTF-8, is written as
 * dcfg_escape writes it, so that none reaches the terminal. A backslash
 * stays as it is, or an escaped name would be escaped twice.
 */
void
dcfg_cli_error(const char *prog, const struct dcfg_error *err)
{
	char buf[1024], shown[4 * sizeof buf];

	dcfg_error_format(err, buf, sizeof buf);
	dcfg_escape_message(shown, sizeof shown, buf);
	fprintf(stderr, "%s: %s\n", prog, shown);
}

void
dcfg_cli_warning(void *prog, const char *msg)
{
	char shown[4096];

	dcfg_escape_message(shown, sizeof shown, msg);
	fprintf(stderr, "%s: warning: %s\n", (const char *)prog, shown);
}

const char *
dcfg_cli_shown(char *buf, size_t size, const char *arg)
{
	dcfg_escape(buf, size, arg);
	return buf;
}

int
dcfg_cli_check_output(const char *prog, const char *out_path, const char *const *inputs,
    size_t n)
{
	struct dcfg_error err;

	if (dcfg_output_check_inputs(out_path, inputs, n, &err) == 0)
		return 0;
	dcfg_cli_error(prog, &err);
	return -1;
}

int
dcfg_cli_setup(struct dcfg_cli_io *io, const char *prog, const char *dcfg_path,
    unsigned keep, const char *out_path, enum dcfg_progress_mode mode)
{
	struct dcfg_error err;

	io->prog = prog;
	io->dcfg = NULL;
	io->out = NULL;
	dcfg_progress_init(&io->progress, prog, mode);
	if (dcfg_path) {
		struct dcfg_load_options lo = { .keep = keep, .progress = dcfg_progress_bytes,
		    .progress_ctx = &io->progress };
		dcfg_progress_file(&io->progress, NULL, dcfg_path, NULL);
		io->dcfg = dcfg_load(dcfg_path, &lo, &err);
		dcfg_progress_done(&io->progress);
		if (io->dcfg == NULL) {
			dcfg_cli_error(prog, &err);
			return -1;
		}
	}
	if ((io->out = malloc(sizeof *io->out)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto fail;
	}
	if (dcfg_output_open(io->out, out_path, &err) < 0) {
		dcfg_cli_error(prog, &err);
		goto fail;
	}
	return 0;
fail:
	free(io->out);
	io->out = NULL;
	dcfg_free(io->dcfg);
	io->dcfg = NULL;
	return -1;
}

int
dcfg_cli_finish(struct dcfg_cli_io *io, int rc, const struct dcfg_error *err,
    int partial_ok)
{
	struct dcfg_error close_err;
	int status = DCFG_EXIT_OK;

	dcfg_progress_end(&io->progress);
	if (rc < 0) {
		dcfg_cli_error(io->prog, err);
		status = DCFG_EXIT_USAGE;
		/* A file keeps its old content: only standard output shows what came before the error. */
		if (io->out->tmp || !partial_ok) {
			dcfg_cli_discard(io);
			return status;
		}
	}
	if (dcfg_output_close(io->out, &close_err) < 0 && status == DCFG_EXIT_OK) {
		dcfg_cli_error(io->prog, &close_err);
		status = DCFG_EXIT_USAGE;
	}
	free(io->out);
	dcfg_free(io->dcfg);
	return status;
}

void
dcfg_cli_discard(struct dcfg_cli_io *io)
{
	dcfg_progress_end(&io->progress);
	dcfg_output_discard(io->out);
	free(io->out);
	dcfg_free(io->dcfg);
}
