#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

void
dcfg_cli_start(void)
{
	signal(SIGPIPE, SIG_IGN);
}

void
dcfg_cli_error(const char *prog, const struct dcfg_error *err)
{
	char buf[1024];

	dcfg_error_format(err, buf, sizeof buf);
	fprintf(stderr, "%s: %s\n", prog, buf);
}

void
dcfg_progress_init(struct dcfg_progress *pg, const char *prog,
    enum dcfg_progress_mode mode)
{
	pg->prog = prog;
	pg->on = mode == DCFG_PROGRESS_ON ||
	    (mode == DCFG_PROGRESS_AUTO && isatty(STDERR_FILENO));
	pg->shown = 0;
	pg->last = 0;   /* the first update is drawn at once, then once a second */
}

void
dcfg_progress_bytes(void *ctx, uint64_t bytes)
{
	struct dcfg_progress *pg = ctx;
	time_t now;

	if (!pg->on || (now = time(NULL)) == pg->last)
		return;
	pg->last = now;
	pg->shown = 1;
	fprintf(stderr, "\r%s: read %.1f MiB", pg->prog, (double)bytes / (1024.0 * 1024.0));
	fflush(stderr);
}

void
dcfg_progress_end(struct dcfg_progress *pg)
{
	if (pg->shown)
		fprintf(stderr, "\r%*s\r", 60, "");
	pg->shown = 0;
}
