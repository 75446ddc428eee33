#include "encode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compress.h"
#include "huffman.h"
#include "progress.h"
#include "stream.h"
#include "vec.h"

#define MAX_GROUP 16    /* ids merged into one NEXT_EDGE_IDS group */
#define HOT 4096        /* uses of a transition that make a group pay for its ids */
#define MAX_CODE 32

struct trans {                 /* an observed transition cur -> next */
	uint64_t key;              /* cur << 32 | next */
	uint64_t count;
	uint32_t code;             /* left-aligned */
	uint32_t group, group_len; /* its NEXT_EDGE_IDS, in the process's pool */
	uint8_t len;
};

struct eproc {
	const struct dcfg_process *dp;
	struct trans *trans;   size_t n_trans, cap_trans;
	uint32_t *slots;       size_t n_slots;    /* hash: trans index + 1; 0 empty */
	uint32_t *pool;        size_t n_pool, cap_pool;
	struct dcfg_dictionary dict;
};

struct enc {
	const struct dcfg_encode_options *o;
	struct dcfg_output *out;
	struct dcfg_error *err;
	const char *path, *name;
	int pass;                       /* 1 count, 2 measure, 3 write */
	struct eproc *procs;   size_t n_procs, cap_procs;
	struct eproc *p;                /* the current process */
	int in_thread, threads, chunks;
	uint64_t running;               /* PRECEDING of a chunk without a marker */
	int continuation;               /* the next chunk continues a split one */
	/* the chunk being read */
	uint32_t *edges;       size_t n, cap;
	int open, marker;
	uint64_t marker_preceding, marker_instrs, instrs;
	/* scratch for writing */
	char *chars;           size_t cap_chars;
	uint32_t *tokens;      size_t cap_tokens;
	uint64_t pass_base, pass_bytes;
	struct dcfg_progress *meter;    /* NULL: bytes through o->progress, if set */
	const struct dcfg_stream_record *r;   /* the last line read, for the meter */
};

static uint64_t
mix(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	return k ^ (k >> 33);
}

static struct trans *
find(const struct eproc *p, uint64_t key)
{
	size_t mask = p->n_slots - 1, i;
	uint32_t t;

	if (p->n_slots == 0)
		return NULL;
	for (i = mix(key) & mask; (t = p->slots[i]) != 0; i = (i + 1) & mask)
		if (p->trans[t - 1].key == key)
			return &p->trans[t - 1];
	return NULL;
}

static int
rehash(struct eproc *p, size_t size)
{
	uint32_t *s = calloc(size, sizeof *s);
	size_t i, j;

	if (s == NULL)
		return -1;
	for (i = 0; i < p->n_trans; i++) {
		for (j = mix(p->trans[i].key) & (size - 1); s[j]; j = (j + 1) & (size - 1))
			;
		s[j] = (uint32_t)(i + 1);
	}
	free(p->slots);
	p->slots = s;
	p->n_slots = size;
	return 0;
}

static int
count_transition(struct eproc *p, uint32_t cur, uint32_t next)
{
	uint64_t key = (uint64_t)cur << 32 | next;
	struct trans *t = find(p, key);
	size_t j;

	if (t) {
		t->count++;
		return 0;
	}
	if (dcfg_reserve((void **)&p->trans, &p->cap_trans, p->n_trans + 1, sizeof *p->trans) < 0)
		return -1;
	p->trans[p->n_trans++] = (struct trans){ .key = key, .count = 1 };
	if (2 * p->n_trans > p->n_slots)
		return rehash(p, p->n_slots ? 2 * p->n_slots : 16);
	for (j = mix(key) & (p->n_slots - 1); p->slots[j]; j = (j + 1) & (p->n_slots - 1))
		;
	p->slots[j] = (uint32_t)p->n_trans;
	return 0;
}

/* ---- the table of a process ---- */

static int
by_key(const void *a, const void *b)
{
	const struct trans *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The transitions leaving CUR: [*first, *first + count) in the sorted array. */
static size_t
successors(const struct eproc *p, uint32_t cur, size_t *first)
{
	uint64_t lo_key = (uint64_t)cur << 32;
	size_t lo = 0, hi = p->n_trans, start;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->trans[mid].key < lo_key)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < p->n_trans && p->trans[lo].key >> 32 == cur)
		lo++;
	*first = start;
	return lo - start;
}



static int
build_codes(struct eproc *p, size_t first, size_t n)
{
	uint64_t *freq = malloc(n * sizeof *freq), *scratch = malloc(4 * n * sizeof *scratch);
	uint8_t *len = malloc(n);
	size_t *order = malloc(n * sizeof *order);
	uint32_t *code = malloc(n * sizeof *code);
	size_t i, j;
	int rc = -1;

	if (!freq || !scratch || !len || !order || !code)
		goto out;
	for (i = 0; i < n; i++)
		freq[i] = p->trans[first + i].count;
	if (dcfg_huffman_lengths(freq, n, MAX_CODE, len, scratch) < 0)
		goto out;
	/* canonical order: by length, then by next edge id (the sorted order) */
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)   /* insertion sort: successors are few */
		for (j = i; j > 0 && len[order[j - 1]] > len[order[j]]; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	dcfg_huffman_codes(len, order, n, code);
	for (i = 0; i < n; i++) {
		p->trans[first + i].code = code[i];
		p->trans[first + i].len = len[i];
	}
	rc = 0;
out:
	free(freq);
	free(scratch);
	free(len);
	free(order);
	free(code);
	return rc;
}

/*
 * Codes for every edge's successors, and for each hot transition A -> B
 * the group B, C, D, ... following edges with a single successor. Those
 * cost no bits anyway: a group saves decoding steps, not bits, so it is
 * made only where that pays for the ids it adds to the table.
 */
static int
build_table(struct eproc *p)
{
	size_t i, first, n, k;

	if (p->n_trans > 1)   /* (qsort may not be given a null array) */
		qsort(p->trans, p->n_trans, sizeof *p->trans, by_key);
	if (rehash(p, p->n_slots ? p->n_slots : 16) < 0)
		return -1;
	for (i = 0; i < p->n_trans; i += n) {
		n = successors(p, (uint32_t)(p->trans[i].key >> 32), &first);
		if (n > 1 && build_codes(p, first, n) < 0)
			return -1;
	}
	for (i = 0; i < p->n_trans; i++) {
		struct trans *t = &p->trans[i];
		uint32_t cur = (uint32_t)t->key;
		if (dcfg_reserve((void **)&p->pool, &p->cap_pool, p->n_pool + MAX_GROUP,
		    sizeof *p->pool) < 0)
			return -1;
		t->group = (uint32_t)p->n_pool;
		p->pool[p->n_pool++] = cur;
		t->group_len = 1;
		while (t->count >= HOT && t->group_len < MAX_GROUP &&
		    successors(p, cur, &first) == 1) {
			uint32_t next = (uint32_t)p->trans[first].key;
			for (k = 0; k < t->group_len && p->pool[t->group + k] != next; k++)
				;
			if (k < t->group_len)
				break;    /* a cycle: the group would repeat itself */
			p->pool[p->n_pool++] = next;
			t->group_len++;
			cur = next;
		}
	}
	return 0;
}

/* ---- one chunk to Base64 ---- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* The chunk's EDGE_ID_SEQUENCE before compression; its length, or -1. */
static long
chunk_chars(struct enc *e)
{
	struct eproc *p = e->p;
	uint64_t acc = 0;
	unsigned nacc = 0;
	size_t i = 1, m = 0, k;
	uint32_t cur = e->edges[0];

	/* at most 32 bits an edge, 6 a character */
	if (dcfg_reserve((void **)&e->chars, &e->cap_chars, e->n * 6 + 8, 1) < 0)
		return -1;
	while (i < e->n) {
		const struct trans *t = find(p, (uint64_t)cur << 32 | e->edges[i]);
		if (t == NULL)   /* every transition was counted in the first pass */
			return -1;
		acc = acc << t->len | (t->len ? t->code >> (32 - t->len) : 0);
		nacc += t->len;
		while (nacc >= 6) {
			e->chars[m++] = b64[(acc >> (nacc - 6)) & 63];
			nacc -= 6;
		}
		/* the group's ids follow by construction; the chunk may end inside it */
		for (k = 0; k < t->group_len && i < e->n; k++, i++)
			cur = p->pool[t->group + k];
	}
	if (nacc > 0)
		e->chars[m++] = b64[(acc << (6 - nacc)) & 63];
	return (long)m;
}

/* ---- writing ---- */

static void
out_u64(struct enc *e, uint64_t v)
{
	dcfg_out_u64(e->out, v);
}

static void
write_table(struct enc *e, const struct eproc *p)
{
	size_t i, k;
	int b;

	dcfg_out_str(e->out, "[[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"]");
	for (i = 0; i < p->n_trans; i++) {
		const struct trans *t = &p->trans[i];
		dcfg_out_str(e->out, ",\n    [");
		out_u64(e, t->key >> 32);
		dcfg_out_str(e->out, ", \"");
		for (b = 0; b < t->len; b++)
			dcfg_out_char(e->out, (char)('0' + ((t->code >> (31 - b)) & 1)));
		dcfg_out_str(e->out, "\", [");
		for (k = 0; k < t->group_len; k++) {
			if (k)
				dcfg_out_str(e->out, ", ");
			out_u64(e, p->pool[t->group + k]);
		}
		dcfg_out_str(e->out, "]]");
	}
	dcfg_out_char(e->out, ']');
}

static void
write_chunk(struct enc *e, uint64_t preceding, uint64_t instrs)
{
	long m = 0;

	dcfg_out_str(e->out, ",\n        [");
	out_u64(e, preceding);
	dcfg_out_str(e->out, ", ");
	out_u64(e, instrs);
	dcfg_out_str(e->out, ", ");
	out_u64(e, e->n);
	dcfg_out_str(e->out, ", ");
	out_u64(e, e->n ? e->edges[0] : 0);
	dcfg_out_str(e->out, ", \"");
	if (e->n > 1 && (m = chunk_chars(e)) > 0 &&
	    dcfg_reserve((void **)&e->tokens, &e->cap_tokens, (size_t)m, sizeof *e->tokens) == 0)
		dcfg_compress(e->out, &e->p->dict, e->chars, (size_t)m, e->tokens);
	dcfg_out_str(e->out, "\"]");
}

/* ---- the walk over the stream, the same in every pass ---- */

static int
fail_at(struct enc *e, unsigned long line, const char *fmt, uint64_t v)
{
	char msg[200];

	snprintf(msg, sizeof msg, fmt, (unsigned long long)v);
	return dcfg_error_at(e->err, e->name, line, 1, "%s", msg);
}

static int
close_chunk(struct enc *e, int split)
{
	uint64_t preceding, instrs;

	if (!e->open)
		return 0;
	if (e->o->dcfg)
		instrs = e->instrs;
	else
		instrs = e->marker && !split && !e->continuation ? e->marker_instrs : 0;
	preceding = e->marker && !e->continuation ? e->marker_preceding : e->running;
	e->running = preceding + instrs;
	e->open = 0;
	e->continuation = split;
	if (e->pass == 1) {
		for (size_t i = 1; i < e->n; i++)
			if (count_transition(e->p, e->edges[i - 1], e->edges[i]) < 0)
				return dcfg_error_set(e->err, e->name, "out of memory");
	} else if (e->pass == 2) {
		long m = e->n > 1 ? chunk_chars(e) : 0;
		if (m < 0 || dcfg_dictionary_measure(&e->p->dict, e->chars, (size_t)m) < 0)
			return dcfg_error_set(e->err, e->name, "out of memory");
	} else {
		write_chunk(e, preceding, instrs);
	}
	return 0;
}

static void
open_chunk(struct enc *e, int marker, uint64_t preceding, uint64_t instrs)
{
	e->open = 1;
	e->n = 0;
	e->instrs = 0;
	e->marker = marker;
	if (marker) {
		e->continuation = 0;
		e->marker_preceding = preceding;
		e->marker_instrs = instrs;
	}
}

static void
close_thread(struct enc *e)
{
	if (!e->in_thread)
		return;
	if (e->pass == 3)
		dcfg_out_str(e->out, "]]");
	e->in_thread = 0;
}

static void
close_process(struct enc *e)
{
	if (e->p == NULL)
		return;
	if (e->pass == 3)
		dcfg_out_str(e->out, "]]");
	e->p = NULL;
}

static int
open_process(struct enc *e, uint64_t pid, unsigned long line, size_t index)
{
	struct eproc *p;

	if (e->pass == 1) {
		if (dcfg_reserve((void **)&e->procs, &e->cap_procs, e->n_procs + 1, sizeof *e->procs) < 0)
			return dcfg_error_set(e->err, e->name, "out of memory");
		p = &e->procs[e->n_procs++];
		memset(p, 0, sizeof *p);
		if (e->o->dcfg && (p->dp = dcfg_find_process(e->o->dcfg, pid)) == NULL)
			return fail_at(e, line, "process %llu is not in the DCFG", pid);
	}
	e->p = &e->procs[index];
	e->threads = 0;
	if (e->pass == 3) {
		dcfg_out_str(e->out, ",\n  [");
		out_u64(e, pid);
		dcfg_out_str(e->out, ",\n   ");
		dcfg_dictionary_write(e->out, &e->p->dict);
		dcfg_out_str(e->out, ",\n   ");
		write_table(e, e->p);
		dcfg_out_str(e->out, ",\n   [[\"THREAD_ID\", \"TRACE_DATA\"]");
	}
	return 0;
}

static void
open_thread(struct enc *e, uint64_t tid)
{
	e->in_thread = 1;
	e->running = 0;
	e->continuation = 0;
	e->chunks = 0;
	if (e->pass == 3) {
		dcfg_out_str(e->out, ",\n    [");
		out_u64(e, tid);
		dcfg_out_str(e->out, ", [[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", "
		    "\"EDGE_COUNT\", \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"]");
	}
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct enc *e = ctx;

	e->pass_bytes = bytes;
	if (e->meter)
		dcfg_progress_update(e->meter, bytes, e->r->lineno);
	else if (e->o->progress)
		e->o->progress(e->o->progress_ctx, e->pass_base + bytes);
}

static int
walk(struct enc *e)
{
	struct dcfg_stream_record r = { 0 };
	struct dcfg_stream *s;
	size_t procs = 0;
	uint64_t instrs;
	int rc;

	e->r = &r;
	/* standard input, spooled, is read from the spool: it has a size */
	dcfg_progress_file(e->meter, e->name, e->path, "lines");
	dcfg_progress_pass(e->meter, e->pass, 3);
	if ((s = dcfg_stream_open(e->path, e->name, e->err)) == NULL)
		return -1;
	dcfg_stream_set_progress(s, on_progress, e);
	e->p = NULL;
	e->in_thread = e->open = 0;
	while ((rc = dcfg_stream_next(s, &r, e->err)) > 0) {
		switch (r.kind) {
		case DCFG_STREAM_PROCESS:
			if (close_chunk(e, 0) < 0)
				goto fail;
			close_thread(e);
			close_process(e);
			if (open_process(e, r.value, r.lineno, procs++) < 0)
				goto fail;
			break;
		case DCFG_STREAM_THREAD:
			if (e->p == NULL) {
				fail_at(e, r.lineno, "a \"# thread\" line before \"# process\"", 0);
				goto fail;
			}
			if (close_chunk(e, 0) < 0)
				goto fail;
			close_thread(e);
			open_thread(e, r.value);
			break;
		case DCFG_STREAM_CHUNK:
			if (!e->in_thread) {
				fail_at(e, r.lineno, "a \"# chunk\" line before \"# thread\"", 0);
				goto fail;
			}
			if (close_chunk(e, 0) < 0)
				goto fail;
			open_chunk(e, 1, r.preceding, r.instrs);
			break;
		case DCFG_STREAM_EDGE:
			if (!e->in_thread) {
				fail_at(e, r.lineno, "an edge before \"# thread\"", 0);
				goto fail;
			}
			/* full: this edge starts the next piece (a chunk of exactly N is whole) */
			if (e->open && e->n == e->o->chunk_edges && close_chunk(e, 1) < 0)
				goto fail;
			if (!e->open)
				open_chunk(e, 0, 0, 0);
			if (e->o->dcfg) {
				const struct dcfg_edge *ed = dcfg_edge_by_id(e->o->dcfg, e->p->dp, r.edge);
				const struct dcfg_block *b;
				if (ed == NULL) {
					fail_at(e, r.lineno, "edge id %llu is not in the DCFG", r.edge);
					goto fail;
				}
				b = dcfg_block_by_node(e->o->dcfg, e->p->dp, ed->source);
				instrs = b ? b->num_instrs : 0;
				e->instrs += instrs;
			}
			if (dcfg_reserve((void **)&e->edges, &e->cap, e->n + 1, sizeof *e->edges) < 0) {
				dcfg_error_set(e->err, e->name, "out of memory");
				goto fail;
			}
			e->edges[e->n++] = r.edge;
			break;
		case DCFG_STREAM_RUN:
		case DCFG_STREAM_RUN_END:
			fail_at(e, r.lineno, "this command cannot honour runs: expand them first (dcfg-stream(5))", 0);
			goto fail;
		default:
			break;
		}
		if (e->pass == 3 && dcfg_output_failed(e->out))
			break;
	}
	if (rc < 0 || close_chunk(e, 0) < 0)
		goto fail;
	close_thread(e);
	close_process(e);
	e->pass_base += e->pass_bytes;
	dcfg_stream_close(s);
	return 0;
fail:
	dcfg_stream_close(s);
	return -1;
}

/* A file the passes can read again: the path itself, or standard input spooled. */
static int
spool(const char *path, char *tmp, size_t size, struct dcfg_error *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	struct stat st;
	ssize_t n;
	int fd;

	if (path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	snprintf(tmp, size, "%s/dcfg-encode.XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(tmp)) < 0) {
		/* mkstemp has filled in the X's of a name it never made: name the template. */
		int saved = errno;
		snprintf(tmp, size, "%s/dcfg-encode.XXXXXX", dir && *dir ? dir : "/tmp");
		dcfg_error_set(err, tmp, "cannot make a temporary file: %s", strerror(saved));
		tmp[0] = '\0';
		return -1;
	}
	int in = path && strcmp(path, "-") != 0 ? open(path, O_RDONLY) : STDIN_FILENO;
	if (in < 0) {
		int saved = errno;
		close(fd);
		unlink(tmp);
		tmp[0] = '\0';
		return dcfg_error_set(err, path, "%s", strerror(saved));
	}
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(fd, buf, (size_t)n) != n) {
			/* A failed read is the input's error; a failed write, the spool's. */
			int saved = errno, reading = n < 0;
			close(fd);
			unlink(tmp);
			tmp[0] = '\0';
			if (reading)
				return dcfg_error_set(err, path ? path : "-", "%s", strerror(saved));
			return dcfg_error_set(err, path ? path : "-", "spooling to a temporary file: %s",
			    strerror(saved));
		}
	}
	if (in != STDIN_FILENO)
		close(in);
	close(fd);
	return 1;
}

int
dcfg_encode(const char *path, const struct dcfg_encode_options *opt,
    struct dcfg_output *out, struct dcfg_error *err)
{
	struct enc *e = calloc(1, sizeof *e);
	char tmp[4096] = "";
	size_t i;
	int rc = -1;

	if (e == NULL)
		return dcfg_error_set(err, path, "out of memory");
	e->o = opt;
	e->out = out;
	e->err = err;
	e->meter = dcfg_progress_of(opt->progress, opt->progress_ctx);
	e->name = path ? path : "-";
	e->path = e->name;
	if (spool(path, tmp, sizeof tmp, err) < 0)
		goto done;
	if (tmp[0])
		e->path = tmp;
	for (e->pass = 1; e->pass <= 3; e->pass++) {
		if (e->pass == 3)
			dcfg_out_str(out, "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0,\n"
			    "\"PROCESSES\": [[\"PROCESS_ID\", \"STRING_DICTIONARY\", "
			    "\"TRANSITION_TABLE\", \"THREAD_DATA\"]");
		if (walk(e) < 0)
			goto done;
		for (i = 0; i < e->n_procs; i++) {
			if (e->pass == 1 && build_table(&e->procs[i]) < 0) {
				dcfg_error_set(err, e->name, "out of memory");
				goto done;
			}
			if (e->pass == 2 && dcfg_dictionary_choose(&e->procs[i].dict) < 0) {
				dcfg_error_set(err, e->name, "out of memory");
				goto done;
			}
		}
	}
	dcfg_out_str(out, "]}\n");
	rc = dcfg_output_failed(out) ? 1 : 0;
done:
	if (tmp[0])
		unlink(tmp);
	for (i = 0; i < e->n_procs; i++) {
		free(e->procs[i].trans);
		free(e->procs[i].slots);
		free(e->procs[i].pool);
		dcfg_dictionary_free(&e->procs[i].dict);
	}
	free(e->procs);
	free(e->edges);
	free(e->chars);
	free(e->tokens);
	free(e);
	return rc;
}
