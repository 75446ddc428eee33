#include "kind.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

/* Enough for the PROCESSES header of any file a writer we know produces. */
#define SNIFF_SIZE (256 * 1024)

const char *
dcfg_kind_name(enum dcfg_kind kind)
{
	switch (kind) {
	case DCFG_KIND_DCFG: return "a DCFG";
	case DCFG_KIND_TRACE: return "a DCFG-trace";
	case DCFG_KIND_STREAM: return "an edge stream";
	case DCFG_KIND_OTHER: return "neither a JSON object nor an edge stream";
	case DCFG_KIND_EMPTY: return "empty";
	case DCFG_KIND_JSON: return "JSON of another kind";
	default: return "a DCFG or a DCFG-trace";
	}
}

static int
is(const char *name, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(name, word, len) == 0;
}

enum dcfg_kind
dcfg_kind_of_key(const char *name, size_t len)
{
	if (is(name, len, "FILE_NAMES") || is(name, len, "EDGE_TYPES") ||
	    is(name, len, "SPECIAL_NODES"))
		return DCFG_KIND_DCFG;
	return DCFG_KIND_UNKNOWN;
}

enum dcfg_kind
dcfg_kind_of_column(const char *name, size_t len)
{
	if (is(name, len, "PROCESS_DATA"))
		return DCFG_KIND_DCFG;
	if (is(name, len, "STRING_DICTIONARY") || is(name, len, "TRANSITION_TABLE") ||
	    is(name, len, "THREAD_DATA"))
		return DCFG_KIND_TRACE;
	return DCFG_KIND_UNKNOWN;
}

static int
space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * A JSON lexer just good enough to find the top-level keys and the
 * strings of the first row of PROCESSES. It gives up (JSON) on
 * anything odd: the real reader will report it, with its place.
 */
enum dcfg_kind
dcfg_kind_sniff(const char *buf, size_t len, int at_end)
{
	char stack[4];              /* the open containers, outermost first */
	int depth = 0, expect_key = 0, in_processes = 0, header_done = 0;
	size_t i = 0, start;
	enum dcfg_kind k;

	while (i < len && space(buf[i]))
		i++;
	if (i == len)
		return at_end ? DCFG_KIND_EMPTY : DCFG_KIND_UNKNOWN;
	if (buf[i] == '#')
		return DCFG_KIND_STREAM;
	if (buf[i] != '{')
		return DCFG_KIND_OTHER;
	for (; i < len; i++) {
		char c = buf[i];
		if (space(c) || c == ':' || (c == ',' && depth != 1))
			continue;
		if (c == ',') {
			expect_key = 1;
			continue;
		}
		if (c == '{' || c == '[') {
			if (depth == 3 && in_processes)
				header_done = 1;
			if (depth < (int)sizeof stack)
				stack[depth] = c;
			depth++;
			expect_key = c == '{' && depth == 1;
			continue;
		}
		if (c == '}' || c == ']') {
			if (--depth <= 0)
				return DCFG_KIND_JSON;
			if (depth == 2 && in_processes)
				header_done = 1;
			if (depth == 1)
				in_processes = 0;
			continue;
		}
		if (c != '"') {
			/* numbers and literals */
			while (i + 1 < len && !space(buf[i + 1]) && strchr(",]}", buf[i + 1]) == NULL)
				i++;
			continue;
		}
		for (start = ++i; i < len && buf[i] != '"'; i++)
			if (buf[i] == '\\')
				i++;
		if (i >= len)
			return at_end ? DCFG_KIND_JSON : DCFG_KIND_UNKNOWN;
		if (depth == 1 && expect_key) {
			expect_key = 0;
			if ((k = dcfg_kind_of_key(buf + start, i - start)) != DCFG_KIND_UNKNOWN)
				return k;
			in_processes = is(buf + start, i - start, "PROCESSES");
			header_done = 0;
		} else if (depth == 3 && in_processes && !header_done &&
		    stack[1] == '[' && stack[2] == '[') {
			if ((k = dcfg_kind_of_column(buf + start, i - start)) != DCFG_KIND_UNKNOWN)
				return k;
		}
	}
	return at_end ? DCFG_KIND_JSON : DCFG_KIND_UNKNOWN;
}

static const char *
hint(enum dcfg_kind found, enum dcfg_kind wanted)
{
	switch (found) {
	case DCFG_KIND_TRACE:
		return wanted == DCFG_KIND_STREAM ? "decode it with dcfg-expand first" :
		    "give it to dcfg-expand";
	case DCFG_KIND_DCFG:
		return wanted == DCFG_KIND_STREAM ? "give it with --dcfg" :
		    "the trace is the .trace.json file written with it";
	case DCFG_KIND_STREAM:
		return wanted == DCFG_KIND_TRACE ? "it is decoded already; dcfg-encode makes a trace of it" :
		    "give it as the stream, with the .dcfg.json file as --dcfg";
	default:
		return NULL;
	}
}

int
dcfg_kind_error(struct dcfg_error *err, const char *file, unsigned long line,
    unsigned long column, enum dcfg_kind found, enum dcfg_kind wanted)
{
	char msg[300];
	const char *h = hint(found, wanted);

	if (found == DCFG_KIND_OTHER || found == DCFG_KIND_EMPTY)
		snprintf(msg, sizeof msg, "this is not %s: it is %s",
		    dcfg_kind_name(wanted), dcfg_kind_name(found));
	else
		snprintf(msg, sizeof msg, "this is %s, not %s%s%s%s",
		    dcfg_kind_name(found), dcfg_kind_name(wanted),
		    h ? " (" : "", h ? h : "", h ? ")" : "");
	if (line == 0)
		return dcfg_error_set(err, file, "%s", msg);
	return dcfg_error_at(err, file, line, column, "%s", msg);
}

/* FROM_START: standard input from its first byte, else from where it is. */
static int
of_file(const char *path, int from_start, enum dcfg_kind *kind, struct dcfg_error *err)
{
	struct dcfg_input *in;
	char *buf;
	size_t have = 0;
	ssize_t n = 1;
	off_t at = 0;
	int std = path == NULL || strcmp(path, "-") == 0;

	*kind = DCFG_KIND_UNKNOWN;
	/* Standard input is looked at only when it can be put back. */
	if (std && (at = lseek(STDIN_FILENO, 0, SEEK_CUR)) < 0)
		return 0;
	if (std && from_start && lseek(STDIN_FILENO, 0, SEEK_SET) < 0)
		return 0;
	if ((buf = malloc(SNIFF_SIZE)) == NULL)
		return dcfg_error_set(err, std ? "-" : path, "out of memory");
	if ((in = dcfg_input_open(path, err)) == NULL) {
		free(buf);
		return -1;
	}
	while ((*kind = dcfg_kind_sniff(buf, have, n == 0)) == DCFG_KIND_UNKNOWN &&
	    n > 0 && have < SNIFF_SIZE)
		if ((n = dcfg_input_read(in, buf + have, SNIFF_SIZE - have, err)) > 0)
			have += (size_t)n;
	dcfg_input_close(in);
	free(buf);
	if (std && lseek(STDIN_FILENO, at, SEEK_SET) < 0)
		return dcfg_error_set(err, "-", "standard input cannot be read again");
	return n < 0 ? -1 : 0;
}

int
dcfg_kind_of_file(const char *path, enum dcfg_kind *kind, struct dcfg_error *err)
{
	return of_file(path, 0, kind, err);
}

void
dcfg_kind_explain(const char *path, enum dcfg_kind wanted, struct dcfg_error *err)
{
	struct dcfg_error mine;
	enum dcfg_kind kind;
	char file[sizeof err->file];

	if (err->line != 1 || err->column != 1)
		return;
	if (of_file(path, 1, &kind, &mine) < 0 || kind == wanted ||
	    (kind != DCFG_KIND_STREAM && kind != DCFG_KIND_DCFG && kind != DCFG_KIND_TRACE))
		return;
	memcpy(file, err->file, sizeof file);
	dcfg_kind_error(err, file, 1, 1, kind, wanted);
}

struct dcfg_kind_replay {
	pthread_t thread;
	pthread_mutex_t lock;
	struct dcfg_input *in;     /* the real standard input */
	char *buf;
	size_t len;                /* bytes of BUF still to replay */
	int fd;                    /* the write end of the new standard input */
	int done, failed;          /* under LOCK */
	int abandoned;             /* under LOCK: the command no longer waits, the thread frees R */
	struct dcfg_error err;
};

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void replay_free(struct dcfg_kind_replay *r);

static void *
replay(void *arg)
{
	struct dcfg_kind_replay *r = arg;
	struct dcfg_error err;
	sigset_t pipe_signal;
	ssize_t n = 0;
	int abandoned;

	/* A reader that stopped early closes its end: EPIPE, not a signal. */
	sigemptyset(&pipe_signal);
	sigaddset(&pipe_signal, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_signal, NULL);
	if (write_all(r->fd, r->buf, r->len) == 0)
		while ((n = dcfg_input_read(r->in, r->buf, SNIFF_SIZE, &err)) > 0 &&
		    write_all(r->fd, r->buf, (size_t)n) == 0)
			;
	/* Done before the end is seen, so that a reader at the end finds it so. */
	pthread_mutex_lock(&r->lock);
	r->done = 1;
	r->failed = n < 0;
	if (n < 0)
		r->err = err;
	abandoned = r->abandoned;
	pthread_mutex_unlock(&r->lock);
	close(r->fd);
	if (abandoned)
		replay_free(r);
	return NULL;
}

static void
replay_free(struct dcfg_kind_replay *r)
{
	if (r->in)
		dcfg_input_close(r->in);
	pthread_mutex_destroy(&r->lock);
	free(r->buf);
	free(r);
}

/* Errors of the real standard input, opened by another name, name it "-". */
static int
stdin_error(struct dcfg_error *err)
{
	snprintf(err->file, sizeof err->file, "-");
	return -1;
}

int
dcfg_kind_probe(const char *path, enum dcfg_kind *kind,
    struct dcfg_kind_replay **replay_out, struct dcfg_error *err)
{
	struct dcfg_kind_replay *r;
	char name[32];
	ssize_t n = 1;
	int fd, pipe_fds[2];

	*replay_out = NULL;
	if (!(path == NULL || strcmp(path, "-") == 0) || lseek(STDIN_FILENO, 0, SEEK_CUR) >= 0)
		return of_file(path, 0, kind, err);
	if ((r = calloc(1, sizeof *r)) == NULL || (r->buf = malloc(SNIFF_SIZE)) == NULL) {
		free(r);
		return dcfg_error_set(err, "-", "out of memory");
	}
	pthread_mutex_init(&r->lock, NULL);
	/* The real standard input by a name of its own, as fd 0 is to be the replay. */
	if ((fd = dup(STDIN_FILENO)) < 0) {
		replay_free(r);
		return dcfg_error_set(err, "-", "%s", strerror(errno));
	}
	snprintf(name, sizeof name, "/dev/fd/%d", fd);
	r->in = dcfg_input_open(name, err);
	close(fd);
	if (r->in == NULL) {
		replay_free(r);
		return stdin_error(err);
	}
	*kind = DCFG_KIND_UNKNOWN;
	while ((*kind = dcfg_kind_sniff(r->buf, r->len, n == 0)) == DCFG_KIND_UNKNOWN &&
	    n > 0 && r->len < SNIFF_SIZE)
		if ((n = dcfg_input_read(r->in, r->buf + r->len, SNIFF_SIZE - r->len, err)) > 0)
			r->len += (size_t)n;
	if (n < 0) {
		replay_free(r);
		return stdin_error(err);
	}
	if (pipe(pipe_fds) < 0 || dup2(pipe_fds[0], STDIN_FILENO) < 0) {
		replay_free(r);
		return dcfg_error_set(err, "-", "%s", strerror(errno));
	}
	close(pipe_fds[0]);
	r->fd = pipe_fds[1];
	if (pthread_create(&r->thread, NULL, replay, r) != 0) {
		close(r->fd);
		replay_free(r);
		return dcfg_error_set(err, "-", "cannot start a thread");
	}
	*replay_out = r;
	return 0;
}

int
dcfg_kind_replay_end(struct dcfg_kind_replay *r, struct dcfg_error *err)
{
	pthread_t thread;
	int done, failed;

	if (r == NULL)
		return 0;
	pthread_mutex_lock(&r->lock);
	done = r->done;
	failed = r->failed;
	/*
	 * The command stopped before the end. The thread may wait on a writer
	 * that never ends: it is left to end with the process, or, when it
	 * ends first, to free R itself (decided under the lock, so that R is
	 * freed once, by one of the two).
	 */
	if (!done)
		r->abandoned = 1;
	thread = r->thread;   /* R is the thread's to free from here on */
	pthread_mutex_unlock(&r->lock);
	if (!done) {
		close(STDIN_FILENO);
		pthread_detach(thread);
		return 0;
	}
	pthread_join(r->thread, NULL);
	if (failed) {
		*err = r->err;
		stdin_error(err);
	}
	replay_free(r);
	return failed ? -1 : 0;
}
