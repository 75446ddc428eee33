/* bzip2 compression of a finished plain file (bzip2out.h). */
#include "bzip2out.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC_BZ_CHUNK (256 * 1024)

/* Runs the compressor with ACTION until it has taken all its input (or finished). */
static int
pump(bz_stream *bz, int action, char *obuf, struct dcfg_output *out)
{
	int rc;

	do {
		bz->next_out = obuf;
		bz->avail_out = REC_BZ_CHUNK;
		rc = BZ2_bzCompress(bz, action);
		if (rc < 0)
			return -1;
		dcfg_out_bytes(out, obuf, REC_BZ_CHUNK - bz->avail_out);
	} while (action == BZ_FINISH ? rc != BZ_STREAM_END : bz->avail_in > 0);
	return 0;
}

int
rec_bzip2_file(const char *plain, struct dcfg_output *out, struct dcfg_error *err)
{
	bz_stream bz;
	char *ibuf = malloc(REC_BZ_CHUNK), *obuf = malloc(REC_BZ_CHUNK);
	int fd = -1, rc = -1;
	ssize_t n;

	memset(&bz, 0, sizeof bz);
	if (ibuf == NULL || obuf == NULL || BZ2_bzCompressInit(&bz, 9, 0, 0) != BZ_OK) {
		free(ibuf);
		free(obuf);
		return dcfg_error_set(err, plain, "out of memory");
	}
	if ((fd = open(plain, O_RDONLY | O_CLOEXEC)) < 0) {
		dcfg_error_set(err, plain, "%s", strerror(errno));
		goto done;
	}
	for (;;) {
		do
			n = read(fd, ibuf, REC_BZ_CHUNK);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			dcfg_error_set(err, plain, "%s", strerror(errno));
			goto done;
		}
		if (n == 0)
			break;
		bz.next_in = ibuf;
		bz.avail_in = (unsigned)n;
		if (pump(&bz, BZ_RUN, obuf, out) < 0)
			goto compress_failed;
	}
	if (pump(&bz, BZ_FINISH, obuf, out) < 0)
		goto compress_failed;
	rc = 0;
	goto done;
compress_failed:
	dcfg_error_set(err, plain, "bzip2 compression failed");
done:
	if (fd >= 0)
		close(fd);
	BZ2_bzCompressEnd(&bz);
	free(ibuf);
	free(obuf);
	return rc;
}
