/*
 * The spill (spill.h): written by pass 2 through the usual output calls,
 * read back by pass 3 in blocks, each marked piece done as pass 3's walk
 * would have done it.
 */
#include "spill.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/vec.h"
#include "compress.h"

#define SPILL_READ_SIZE (256u * 1024)

struct dcfg_output *
dcfg_enc_spill_open(const char *dir, const char *name, struct dcfg_error *err)
{
	struct dcfg_output *s = calloc(1, sizeof *s);
	size_t len = strlen(dir);
	char *path = malloc(len + sizeof "/.encode-spill-XXXXXX");

	if (s == NULL || path == NULL) {
		free(s);
		free(path);
		dcfg_error_set(err, name, "out of memory");
		return NULL;
	}
	memcpy(path, dir, len);
	memcpy(path + len, "/.encode-spill-XXXXXX", sizeof "/.encode-spill-XXXXXX");
	s->fd = mkstemp(path);
	if (s->fd < 0) {
		dcfg_error_set(err, name, "making the encoder's spill in %s: %s", dir,
		    strerror(errno));
		free(path);
		free(s);
		return NULL;
	}
	unlink(path);
	free(path);
	s->name = "the encoder's spill";
	return s;
}

void
dcfg_enc_spill_close(struct dcfg_output *spill)
{
	if (spill == NULL)
		return;
	close(spill->fd);
	free(spill);
}

enum spill_state { LITERAL, DICTIONARY, CHARS };

struct reader {
	struct enc *e;
	enum spill_state state;
	uint64_t index;           /* DICTIONARY: the digits so far */
	size_t n_chars;           /* CHARS: the characters so far, in e->spilled */
};

static int
damaged(struct enc *e)
{
	return dcfg_error_set(e->err, e->name, "reading back the encoder's spill: it is damaged");
}

/* BUF[0..N) up to the end of the marked piece, or all: the bytes taken, or -1 with ERR set. */
static long
take_marked(struct reader *r, const char *buf, size_t n)
{
	struct enc *e = r->e;
	size_t i = 0;

	if (r->state == DICTIONARY) {
		for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
			if ((r->index = r->index * 10 + (uint64_t)(buf[i] - '0')) > e->n_procs)
				return damaged(e);
		if (i == n)
			return (long)i;
		if (buf[i] != ';' || r->index >= e->n_procs)
			return damaged(e);
		e->p = &e->procs[r->index];
		dcfg_dictionary_write(e->out, &e->p->dict);
		r->state = LITERAL;
		return (long)i + 1;
	}
	const char *end = memchr(buf, DCFG_SPILL_CHARS_END, n);
	size_t len = end ? (size_t)(end - buf) : n;
	if (dcfg_reserve((void **)&e->spilled, &e->cap_spilled, r->n_chars + len, 1) < 0)
		return dcfg_error_set(e->err, e->name, "out of memory");
	memcpy(e->spilled + r->n_chars, buf, len);
	r->n_chars += len;
	if (end == NULL)
		return (long)len;
	if (e->p == NULL)
		return damaged(e);
	if (dcfg_enc_write_chars(e, e->spilled, r->n_chars) < 0)
		return dcfg_error_set(e->err, e->name, "out of memory");
	r->state = LITERAL;
	return (long)len + 1;
}

/* BUF[0..N) of the spill. 0, -1 with ERR set. */
static int
take(struct reader *r, const char *buf, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (r->state != LITERAL) {
			long got = take_marked(r, buf + i, n - i);
			if (got < 0)
				return -1;
			i += (size_t)got;
			continue;
		}
		size_t j = i;
		while (j < n && (unsigned char)buf[j] > (unsigned char)DCFG_SPILL_CHARS_END)
			j++;
		dcfg_out_bytes(r->e->out, buf + i, j - i);
		if (j == n)
			break;
		if (buf[j] == DCFG_SPILL_DICTIONARY) {
			r->state = DICTIONARY;
			r->index = 0;
		} else if (buf[j] == DCFG_SPILL_CHARS) {
			r->state = CHARS;
			r->n_chars = 0;
		} else {
			return damaged(r->e);
		}
		i = j + 1;
	}
	return 0;
}

int
dcfg_enc_spill_replay(struct enc *e)
{
	struct reader r = { .e = e, .state = LITERAL };
	char *buf;
	ssize_t got;
	int rc = 0;

	dcfg_output_flush(e->spill);
	if (dcfg_output_failed(e->spill))
		return dcfg_error_set(e->err, e->name, "writing the encoder's spill: %s",
		    strerror(e->spill->error));
	if (lseek(e->spill->fd, 0, SEEK_SET) < 0)
		return dcfg_error_set(e->err, e->name, "rereading the encoder's spill: %s",
		    strerror(errno));
	if ((buf = malloc(SPILL_READ_SIZE)) == NULL)
		return dcfg_error_set(e->err, e->name, "out of memory");
	e->p = NULL;
	while (rc == 0 && !dcfg_output_failed(e->out)) {
		got = read(e->spill->fd, buf, SPILL_READ_SIZE);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			rc = dcfg_error_set(e->err, e->name, "rereading the encoder's spill: %s",
			    strerror(errno));
		if (got <= 0)
			break;
		rc = take(&r, buf, (size_t)got);
	}
	free(buf);
	if (rc == 0 && r.state != LITERAL && !dcfg_output_failed(e->out))
		rc = damaged(e);
	return rc;
}
