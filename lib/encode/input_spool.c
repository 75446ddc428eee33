/* dcfg-encode's standard input made a file its passes can read again (input_spool.h). */
#include "input_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/tempfiles.h"

/*
 * A file the passes can read again: the path itself (*FD is -1), or
 * standard input (or a pipe) spooled into *FD, *SIZE bytes. The spool is
 * unlinked as soon as it is made, so that no exit, error or signal can
 * leave it behind in $TMPDIR: only the descriptor holds it.
 */
int
dcfg_encode_spool_input(const char *path, int *fd, uint64_t *size, struct dcfg_error *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536], tmp[4096];
	struct stat st;
	sigset_t saved;
	ssize_t n;
	int in, saved_errno;

	*fd = -1;
	*size = 0;
	if (path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	snprintf(tmp, sizeof tmp, "%s/dcfg-encode.XXXXXX", dir && *dir ? dir : "/tmp");
	/* made and unlinked as one step: no signal comes between */
	dcfg_temp_hold_signals(&saved);
	*fd = mkstemp(tmp);
	saved_errno = errno;
	if (*fd >= 0)
		unlink(tmp);
	dcfg_temp_release_signals(&saved);
	if (*fd < 0) {
		/* mkstemp has filled in the X's of a name it never made: name the template. */
		snprintf(tmp, sizeof tmp, "%s/dcfg-encode.XXXXXX", dir && *dir ? dir : "/tmp");
		return dcfg_error_set(err, tmp, "cannot make a temporary file: %s",
		    strerror(saved_errno));
	}
	in = path && strcmp(path, "-") != 0 ? open(path, O_RDONLY) : STDIN_FILENO;
	if (in < 0) {
		saved_errno = errno;
		close(*fd);
		*fd = -1;
		return dcfg_error_set(err, path, "%s", strerror(saved_errno));
	}
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(*fd, buf, (size_t)n) != n) {
			/* A failed read is the input's error; a failed write, the spool's. */
			int reading = n < 0;
			saved_errno = errno;
			close(*fd);
			*fd = -1;
			if (in != STDIN_FILENO)
				close(in);
			if (reading)
				return dcfg_error_set(err, path ? path : "-", "%s", strerror(saved_errno));
			return dcfg_error_set(err, path ? path : "-", "spooling to a temporary file: %s",
			    strerror(saved_errno));
		}
		*size += (uint64_t)n;
	}
	if (in != STDIN_FILENO)
		close(in);
	return 0;
}
