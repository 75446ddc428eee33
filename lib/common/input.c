#define _GNU_SOURCE   /* F_SETPIPE_SZ */
#include "input.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define RAW_SIZE (256 * 1024)
#define SLOTS 4
#define SLOT_SIZE (256 * 1024)

/*
 * Compressed input is decompressed by a thread of its own into a ring of
 * slots, so that decompression and parsing run on two cores at once.
 */
struct slot {
	unsigned char *data;
	ssize_t len;             /* bytes, 0 at the end, -1 with err set */
	uint64_t raw;            /* bytes read from the file when it was filled */
	int full;
	struct dcfg_error err;
};

struct ring {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct slot slots[SLOTS];
	int head, tail;          /* consumer's and producer's slot */
	size_t pos;              /* consumer's position in its slot */
	int stop;
};

struct dcfg_input {
	int fd;
	const char *name;
	enum dcfg_compression kind;
	unsigned char *raw;        /* compressed bytes read but not yet consumed */
	size_t raw_pos, raw_len;
	int eof;                   /* the file has no more raw bytes */
	uint64_t raw_read;         /* bytes read from the file (by the ring's thread, if any) */
	uint64_t raw_seen;         /* with a ring: raw of the slot last read from */
	int member_done;           /* the current gzip member / bzip2 stream ended */
	z_stream z;
	bz_stream bz;
	int z_live, bz_live;
	struct ring *ring;         /* NULL: read in the caller's thread */
	int summing;               /* dcfg_input_sum_start() was called */
	uint32_t crc;              /* CRC-32 (zlib's, gzip's) of the data read so far */
	uint64_t bytes;            /* the data read so far */
};

static ssize_t decompress(struct dcfg_input *in, void *buf, size_t size,
    struct dcfg_error *err);
static int start_ring(struct dcfg_input *in);

static int
refill(struct dcfg_input *in, struct dcfg_error *err)
{
	ssize_t n;

	if (in->raw_pos > 0) {
		memmove(in->raw, in->raw + in->raw_pos, in->raw_len - in->raw_pos);
		in->raw_len -= in->raw_pos;
		in->raw_pos = 0;
	}
	if (in->eof || in->raw_len == RAW_SIZE)
		return 0;
	/*
	 * The decompressor thread may be cancelled here, and only here: a
	 * reader that stops early must not wait for a pipe that stays open.
	 */
	if (in->ring)
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	do
		n = read(in->fd, in->raw + in->raw_len, RAW_SIZE - in->raw_len);
	while (n < 0 && errno == EINTR);
	if (in->ring)
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	if (n < 0)
		return dcfg_error_set(err, in->name, "%s", strerror(errno));
	if (n == 0)
		in->eof = 1;
	in->raw_len += (size_t)n;
	in->raw_read += (uint64_t)n;
	return 0;
}

/* Makes at least WANT unconsumed raw bytes available, unless the file ends first. */
static int
fill_at_least(struct dcfg_input *in, size_t want, struct dcfg_error *err)
{
	while (in->raw_len - in->raw_pos < want && !in->eof)
		if (refill(in, err) < 0)
			return -1;
	return 0;
}

static int
is_gzip(const unsigned char *p, size_t n)
{
	return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

static int
is_bzip2(const unsigned char *p, size_t n)
{
	return n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' &&
	    p[3] >= '1' && p[3] <= '9';
}

static int
start_member(struct dcfg_input *in, struct dcfg_error *err)
{
	if (in->kind == DCFG_GZIP) {
		int rc = in->z_live ? inflateReset(&in->z) :
		    inflateInit2(&in->z, 15 + 16);
		if (rc != Z_OK)
			return dcfg_error_set(err, in->name, "cannot start gzip decompression");
		in->z_live = 1;
	} else {
		if (in->bz_live)
			BZ2_bzDecompressEnd(&in->bz);
		in->bz_live = 0;
		memset(&in->bz, 0, sizeof in->bz);
		if (BZ2_bzDecompressInit(&in->bz, 0, 0) != BZ_OK)
			return dcfg_error_set(err, in->name, "cannot start bzip2 decompression");
		in->bz_live = 1;
	}
	in->member_done = 0;
	return 0;
}

static struct dcfg_input *start_input(struct dcfg_input *in, struct dcfg_error *err);

struct dcfg_input *
dcfg_input_open_fd(int fd, const char *name, struct dcfg_error *err)
{
	struct dcfg_input *in;

	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->raw = malloc(RAW_SIZE)) == NULL) {
		free(in);
		close(fd);
		dcfg_error_set(err, name, "out of memory");
		return NULL;
	}
	in->name = name;
	in->fd = fd;
	return start_input(in, err);
}

struct dcfg_input *
dcfg_input_open(const char *path, struct dcfg_error *err)
{
	struct dcfg_input *in;

	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->raw = malloc(RAW_SIZE)) == NULL) {
		free(in);
		dcfg_error_set(err, path, "out of memory");
		return NULL;
	}
	if (path == NULL || strcmp(path, "-") == 0) {
		in->name = "-";
		in->fd = STDIN_FILENO;
#ifdef F_SETPIPE_SZ
		fcntl(in->fd, F_SETPIPE_SZ, 1024 * 1024);   /* see output.c; fails harmlessly on files */
#endif
	} else {
		in->name = path;
		in->fd = open(path, O_RDONLY);
		if (in->fd < 0) {
			dcfg_error_set(err, path, "%s", strerror(errno));
			free(in->raw);
			free(in);
			return NULL;
		}
	}
	return start_input(in, err);
}

/* Tells the compression apart and starts decompressing. IN on success; else NULL, IN closed. */
static struct dcfg_input *
start_input(struct dcfg_input *in, struct dcfg_error *err)
{
	const unsigned char *p;
	size_t n;

	if (fill_at_least(in, 4, err) < 0)
		goto fail;
	p = in->raw;
	n = in->raw_len;
	if (is_gzip(p, n))
		in->kind = DCFG_GZIP;
	else if (is_bzip2(p, n))
		in->kind = DCFG_BZIP2;
	else
		in->kind = DCFG_PLAIN;
	if (in->kind != DCFG_PLAIN && start_member(in, err) < 0)
		goto fail;
	/* Without a thread (none to be had) the same work happens in read. */
	if (in->kind != DCFG_PLAIN)
		start_ring(in);
	return in;
fail:
	dcfg_input_close(in);
	return NULL;
}

/*
 * After one gzip member or bzip2 stream ends, another may follow
 * (concatenated files, pbzip2); anything else after it is an error.
 */
static int
next_member(struct dcfg_input *in, struct dcfg_error *err)
{
	const unsigned char *p;
	size_t n;

	if (fill_at_least(in, 4, err) < 0)
		return -1;
	p = in->raw + in->raw_pos;
	n = in->raw_len - in->raw_pos;
	if (n == 0)
		return 0;
	if ((in->kind == DCFG_GZIP && is_gzip(p, n)) ||
	    (in->kind == DCFG_BZIP2 && is_bzip2(p, n))) {
		if (start_member(in, err) < 0)
			return -1;
		return 1;
	}
	return dcfg_error_set(err, in->name, "trailing garbage after %s data",
	    in->kind == DCFG_GZIP ? "gzip" : "bzip2");
}

static ssize_t
read_gzip(struct dcfg_input *in, unsigned char *buf, size_t size,
    struct dcfg_error *err)
{
	int rc;

	for (;;) {
		if (in->member_done) {
			rc = next_member(in, err);
			if (rc <= 0)
				return rc;
		}
		if (in->raw_pos == in->raw_len && refill(in, err) < 0)
			return -1;
		in->z.next_in = in->raw + in->raw_pos;
		in->z.avail_in = (uInt)(in->raw_len - in->raw_pos);
		in->z.next_out = buf;
		in->z.avail_out = (uInt)(size > (1u << 30) ? (1u << 30) : size);
		rc = inflate(&in->z, Z_NO_FLUSH);
		in->raw_pos = in->raw_len - in->z.avail_in;
		size_t got = (size_t)(in->z.next_out - buf);
		if (rc == Z_STREAM_END)
			in->member_done = 1;
		else if (rc == Z_DATA_ERROR)
			return dcfg_error_set(err, in->name, "corrupt gzip data (%s)",
			    in->z.msg ? in->z.msg : "bad data");
		else if (rc == Z_MEM_ERROR)
			return dcfg_error_set(err, in->name, "out of memory in gzip decompression");
		else if (got == 0 && in->raw_pos == in->raw_len && in->eof)
			return dcfg_error_set(err, in->name, "unexpected end of file: the gzip data is truncated");
		if (got > 0)
			return (ssize_t)got;
	}
}

static ssize_t
read_bzip2(struct dcfg_input *in, unsigned char *buf, size_t size,
    struct dcfg_error *err)
{
	int rc;

	for (;;) {
		if (in->member_done) {
			rc = next_member(in, err);
			if (rc <= 0)
				return rc;
		}
		if (in->raw_pos == in->raw_len && refill(in, err) < 0)
			return -1;
		in->bz.next_in = (char *)in->raw + in->raw_pos;
		in->bz.avail_in = (unsigned)(in->raw_len - in->raw_pos);
		in->bz.next_out = (char *)buf;
		in->bz.avail_out = (unsigned)(size > (1u << 30) ? (1u << 30) : size);
		rc = BZ2_bzDecompress(&in->bz);
		in->raw_pos = in->raw_len - in->bz.avail_in;
		size_t got = (size_t)((unsigned char *)in->bz.next_out - buf);
		if (rc == BZ_STREAM_END)
			in->member_done = 1;
		else if (rc == BZ_DATA_ERROR || rc == BZ_DATA_ERROR_MAGIC)
			return dcfg_error_set(err, in->name, "corrupt bzip2 data");
		else if (rc == BZ_MEM_ERROR)
			return dcfg_error_set(err, in->name, "out of memory in bzip2 decompression");
		else if (rc != BZ_OK)
			return dcfg_error_set(err, in->name, "bzip2 decompression failed (code %d)", rc);
		else if (got == 0 && in->raw_pos == in->raw_len && in->eof)
			return dcfg_error_set(err, in->name, "unexpected end of file: the bzip2 data is truncated");
		if (got > 0)
			return (ssize_t)got;
	}
}

static ssize_t
read_plain(struct dcfg_input *in, unsigned char *buf, size_t size,
    struct dcfg_error *err)
{
	ssize_t n;

	if (in->raw_pos < in->raw_len) {
		size_t left = in->raw_len - in->raw_pos;
		if (left > size)
			left = size;
		memcpy(buf, in->raw + in->raw_pos, left);
		in->raw_pos += left;
		return (ssize_t)left;
	}
	if (in->eof)
		return 0;
	do
		n = read(in->fd, buf, size);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return dcfg_error_set(err, in->name, "%s", strerror(errno));
	if (n == 0)
		in->eof = 1;
	in->raw_read += (uint64_t)n;
	return n;
}

static void *
produce(void *arg)
{
	struct dcfg_input *in = arg;
	struct ring *r = in->ring;
	struct slot *s;
	ssize_t n;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	for (;;) {
		pthread_mutex_lock(&r->lock);
		while (r->slots[r->tail].full && !r->stop)
			pthread_cond_wait(&r->changed, &r->lock);
		if (r->stop) {
			pthread_mutex_unlock(&r->lock);
			return NULL;
		}
		s = &r->slots[r->tail];
		pthread_mutex_unlock(&r->lock);

		n = decompress(in, s->data, SLOT_SIZE, &s->err);

		pthread_mutex_lock(&r->lock);
		s->len = n;
		s->raw = in->raw_read;
		s->full = 1;
		r->tail = (r->tail + 1) % SLOTS;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
		if (n <= 0)
			return NULL;
	}
}

static void
free_ring(struct ring *r)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		free(r->slots[i].data);
	free(r);
}

static int
start_ring(struct dcfg_input *in)
{
	struct ring *r = calloc(1, sizeof *r);
	int i;

	if (r == NULL)
		return -1;
	for (i = 0; i < SLOTS; i++)
		if ((r->slots[i].data = malloc(SLOT_SIZE)) == NULL) {
			free_ring(r);
			return -1;
		}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	in->ring = r;
	if (pthread_create(&r->thread, NULL, produce, in) != 0) {
		in->ring = NULL;
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->changed);
		free_ring(r);
		return -1;
	}
	return 0;
}

static ssize_t
consume(struct dcfg_input *in, void *buf, size_t size, struct dcfg_error *err)
{
	struct ring *r = in->ring;
	struct slot *s = &r->slots[r->head];
	size_t n;

	pthread_mutex_lock(&r->lock);
	while (!s->full)
		pthread_cond_wait(&r->changed, &r->lock);
	pthread_mutex_unlock(&r->lock);
	in->raw_seen = s->raw;
	if (s->len <= 0) {           /* the last slot stays full: later reads say the same */
		if (s->len < 0)
			*err = s->err;
		return s->len;
	}
	n = (size_t)s->len - r->pos;
	if (n > size)
		n = size;
	memcpy(buf, s->data + r->pos, n);
	r->pos += n;
	if (r->pos == (size_t)s->len) {
		r->pos = 0;
		pthread_mutex_lock(&r->lock);
		s->full = 0;
		r->head = (r->head + 1) % SLOTS;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
	}
	return (ssize_t)n;
}

ssize_t
dcfg_input_read(struct dcfg_input *in, void *buf, size_t size,
    struct dcfg_error *err)
{
	ssize_t n;

	if (size == 0)
		return 0;
	n = in->ring ? consume(in, buf, size, err) : decompress(in, buf, size, err);
	if (in->summing && n > 0) {
		in->crc = (uint32_t)crc32_z(in->crc, buf, (size_t)n);
		in->bytes += (uint64_t)n;
	}
	return n;
}

void
dcfg_input_sum_start(struct dcfg_input *in)
{
	in->summing = 1;
	in->crc = (uint32_t)crc32_z(0, Z_NULL, 0);
	in->bytes = 0;
}

uint32_t
dcfg_input_sum(const struct dcfg_input *in, uint64_t *bytes)
{
	*bytes = in->bytes;
	return in->crc;
}

static ssize_t
decompress(struct dcfg_input *in, void *buf, size_t size,
    struct dcfg_error *err)
{
	switch (in->kind) {
	case DCFG_GZIP:
		return read_gzip(in, buf, size, err);
	case DCFG_BZIP2:
		return read_bzip2(in, buf, size, err);
	default:
		return read_plain(in, buf, size, err);
	}
}

const char *
dcfg_input_name(const struct dcfg_input *in)
{
	return in->name;
}

uint64_t
dcfg_input_raw_bytes(const struct dcfg_input *in)
{
	return in->ring ? in->raw_seen : in->raw_read;
}

enum dcfg_compression
dcfg_input_compression(const struct dcfg_input *in)
{
	return in->kind;
}

void
dcfg_input_close(struct dcfg_input *in)
{
	if (in == NULL)
		return;
	if (in->ring) {
		pthread_mutex_lock(&in->ring->lock);
		in->ring->stop = 1;
		pthread_cond_broadcast(&in->ring->changed);
		pthread_mutex_unlock(&in->ring->lock);
		pthread_cancel(in->ring->thread);
		pthread_join(in->ring->thread, NULL);
		pthread_mutex_destroy(&in->ring->lock);
		pthread_cond_destroy(&in->ring->changed);
		free_ring(in->ring);
	}
	if (in->z_live)
		inflateEnd(&in->z);
	if (in->bz_live)
		BZ2_bzDecompressEnd(&in->bz);
	if (in->fd != STDIN_FILENO && in->fd >= 0)
		close(in->fd);
	free(in->raw);
	free(in);
}
