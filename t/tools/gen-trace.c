/*
 * gen-trace EDGES [CHUNK_EDGES] [SEED]
 *
 * Writes to stdout a synthetic DCFG-trace (format 1.00, section 3) for
 * benchmarks and tests: one process (PROCESS_ID 4242), a small
 * STRING_DICTIONARY, a TRANSITION_TABLE of 1000 edges (ids 1000 + 7*i) and
 * THREAD_DATA with threads 0 and 1, which together hold EDGES edges in
 * chunks of CHUNK_EDGES (default 1000000) edges; thread 0 gets the odd one.
 * The output depends only on the arguments (SEED defaults to 1).
 *
 * Every edge's TRANSITION_CODEs form a complete prefix-free code ("" alone;
 * "0","1"; "00".."11"; "0","10","11"; "0","100".."111"), so any bit string
 * decodes, and the EDGE_ID_SEQUENCEs are pseudo-random bits. The generator
 * runs the decoder of 3.7.2 while it draws the bits, so each sequence holds
 * exactly the characters that EDGE_COUNT-1 edges need (the last one's
 * unused low bits are random). Now and then a run of symbols is drawn as a
 * repeat of a short body and written as "(M*BODY)", or drawn as the
 * expansion of a dictionary value and written as "<KEY>"; a run cut short
 * by the end of a chunk is written as what was actually used.
 *
 * Each edge's source block counts INSTRS_PER_EDGE instructions, so a
 * chunk's INSTR_COUNT is INSTRS_PER_EDGE * EDGE_COUNT and chunks are
 * contiguous per thread, from 0. A chunk's FIRST_EDGE_ID is the edge that
 * follows the previous chunk's last edge.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_EDGES 1000
#define MAX_ROWS 5
#define MAX_GROUP 3
#define INSTRS_PER_EDGE 5
#define PROCESS_ID 4242
#define EDGE_ID(i) (1000 + 7 * (i))

/* ---- PRNG (xorshift64*) ------------------------------------------- */

typedef struct {
	uint64_t s;
} rng;

static uint64_t rnd(rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(2685821657736338717);
}

static unsigned below(rng *r, unsigned n)
{
	return (unsigned)((rnd(r) >> 32) % n);
}

/* ---- output ------------------------------------------------------- */

typedef struct {
	char buf[1 << 16];
	size_t len;
} out;

static void die(const char *msg)
{
	fprintf(stderr, "gen-trace: %s\n", msg);
	exit(2);
}

static void flush(out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len)
		die("write error");
	o->len = 0;
}

static void put(out *o, char c)
{
	if (o->len == sizeof o->buf)
		flush(o);
	o->buf[o->len++] = c;
}

static void puts_(out *o, const char *s)
{
	while (*s)
		put(o, *s++);
}

static void putu(out *o, uint64_t v)
{
	char t[24];
	snprintf(t, sizeof t, "%" PRIu64, v);
	puts_(o, t);
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* ---- transition table --------------------------------------------- */

typedef struct {
	char code[4];
	int n;              /* ids in the group */
	int next[MAX_GROUP]; /* edge indexes */
} row;

typedef struct {
	int nrows;
	row rows[MAX_ROWS];
	/* decoding tree: node k has child[k][bit]; >= 0 another node,
	 * < 0 the leaf of row -(v+1). root is a node index or a leaf. */
	int root;
	int child[MAX_ROWS][2];
	int nnodes;
} edge;

static const char *const kinds[][MAX_ROWS] = {
	{ "" },
	{ "0", "1" },
	{ "00", "01", "10", "11" },
	{ "0", "10", "11" },
	{ "0", "100", "101", "110", "111" },
};
static const int kind_rows[] = { 1, 2, 4, 3, 5 };

/* Adds code c of row r to e's tree; dies unless the codes are prefix-free. */
static void tree_add(edge *e, const char *c, int r)
{
	int *slot = &e->root;
	for (;;) {
		if (*c == '\0') {
			if (*slot != -(MAX_ROWS + 1))
				die("internal: codes are not prefix-free");
			*slot = -(r + 1);
			return;
		}
		if (*slot == -(MAX_ROWS + 1)) {
			if (e->nnodes == MAX_ROWS)
				die("internal: tree too big");
			*slot = e->nnodes;
			e->child[e->nnodes][0] = -(MAX_ROWS + 1);
			e->child[e->nnodes][1] = -(MAX_ROWS + 1);
			e->nnodes++;
		} else if (*slot < 0) {
			die("internal: codes are not prefix-free");
		}
		slot = &e->child[*slot][*c - '0'];
		c++;
	}
}

static void build_table(edge *E, rng *r)
{
	int kind[NUM_EDGES];
	int i, j, k;

	for (i = 0; i < NUM_EDGES; i++) {
		unsigned p = below(r, 100);
		kind[i] = p < 15 ? 0 : p < 55 ? 1 : p < 75 ? 2 : p < 92 ? 3 : 4;
	}
	for (i = 0; i < NUM_EDGES; i++) {
		edge *e = &E[i];
		e->nrows = kind_rows[kind[i]];
		e->nnodes = 0;
		e->root = -(MAX_ROWS + 1);
		for (j = 0; j < e->nrows; j++) {
			row *w = &e->rows[j];
			unsigned p = below(r, 100);
			strcpy(w->code, kinds[kind[i]][j]);
			w->n = p < 80 ? 1 : p < 93 ? 2 : 3;
			for (k = 0; k < w->n; k++)
				w->next[k] = (int)below(r, NUM_EDGES);
			/* No cycle of edges that read no bits: a single
			 * successor is always followed by a branch. */
			if (kind[i] == 0)
				while (kind[w->next[w->n - 1]] == 0)
					w->next[w->n - 1] =
					    (int)below(r, NUM_EDGES);
			tree_add(e, w->code, j);
		}
		/* Complete: every internal node has two children. */
		for (j = 0; j < e->nnodes; j++)
			if (e->child[j][0] == -(MAX_ROWS + 1) ||
			    e->child[j][1] == -(MAX_ROWS + 1))
				die("internal: code is not complete");
	}
}

static void write_table(out *o, const edge *E, rng *r)
{
	int idx[NUM_EDGES * MAX_ROWS];
	int n = 0, i, j, k;

	for (i = 0; i < NUM_EDGES; i++)
		for (j = 0; j < E[i].nrows; j++)
			idx[n++] = i * MAX_ROWS + j;
	/* Rows in any order (3.5): shuffle them. */
	for (i = n - 1; i > 0; i--) {
		j = (int)below(r, (unsigned)i + 1);
		k = idx[i]; idx[i] = idx[j]; idx[j] = k;
	}
	puts_(o, "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]");
	for (i = 0; i < n; i++) {
		const row *w = &E[idx[i] / MAX_ROWS].rows[idx[i] % MAX_ROWS];
		puts_(o, ",\n [");
		putu(o, (uint64_t)EDGE_ID(idx[i] / MAX_ROWS));
		puts_(o, ",\"");
		puts_(o, w->code);
		puts_(o, "\",[");
		for (k = 0; k < w->n; k++) {
			if (k)
				put(o, ',');
			putu(o, (uint64_t)EDGE_ID(w->next[k]));
		}
		puts_(o, "]]");
	}
	puts_(o, "]");
}

/* ---- string dictionary -------------------------------------------- */

static const char *const dict[][2] = {
	{ "a", "bks2hD7kB+KDk87(6*AB)Aw3ABD9" },
	{ "b", "KkDk123(4*(5*a))45690D<a>7Fjdkpm" },
	{ "loop", "(8*Qw)" },
	{ "x+Y-9", "zz09+-" },
	{ "c", "Q<loop>(2*<x+Y-9>z)" },
};
#define NUM_DICT (sizeof dict / sizeof dict[0])

typedef struct {
	unsigned char *sym;
	size_t len, cap;
} symbuf;

static void sym_add(symbuf *s, unsigned char v)
{
	if (s->len == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->sym = realloc(s->sym, s->cap);
		if (!s->sym)
			die("out of memory");
	}
	s->sym[s->len++] = v;
}

static int b64val(char c)
{
	const char *p = strchr(b64, c);
	return c && p ? (int)(p - b64) : -1;
}

/* Expands s[0..n) per 3.7.1 into symbols (the dictionary here is small and
 * acyclic; depth guards against mistakes). Returns the end of what was
 * read: n, or the ')' that closes the caller's repeat. */
static size_t expand(const char *s, size_t n, symbuf *dst, int depth)
{
	size_t i = 0;
	if (depth > 20)
		die("internal: dictionary too deep");
	while (i < n) {
		char c = s[i];
		if (b64val(c) >= 0) {
			sym_add(dst, (unsigned char)b64val(c));
			i++;
		} else if (c == '(') {
			unsigned long m = strtoul(s + i + 1, NULL, 10);
			const char *star = strchr(s + i, '*');
			size_t start = (size_t)(star - s) + 1, end, t;
			symbuf body = { NULL, 0, 0 };
			end = start + expand(s + start, n - start, &body,
			    depth + 1);
			for (; m > 0; m--)
				for (t = 0; t < body.len; t++)
					sym_add(dst, body.sym[t]);
			free(body.sym);
			i = end + 1;
		} else if (c == ')') {
			return i;
		} else if (c == '<') {
			const char *gt = strchr(s + i, '>');
			size_t klen = (size_t)(gt - s) - i - 1, d;
			for (d = 0; d < NUM_DICT; d++)
				if (strlen(dict[d][0]) == klen &&
				    memcmp(dict[d][0], s + i + 1, klen) == 0)
					break;
			if (d == NUM_DICT)
				die("internal: unknown key");
			expand(dict[d][1], strlen(dict[d][1]), dst, depth + 1);
			i += klen + 2;
		} else {
			die("internal: bad dictionary value");
		}
	}
	return i;
}

/* ---- the bit source: draws symbols and writes the sequence ---------- */

enum { LITERAL, REPEAT, DICT };

typedef struct {
	out *o;
	rng *r;
	uint64_t pool;   /* random bits for literal symbols */
	int npool;       /* 6-bit symbols left in pool */
	unsigned sym;    /* current symbol */
	int nbits;       /* its unused bits */
	unsigned gap;    /* literal symbols until the next run */
	int mode;
	unsigned char body[4];
	unsigned blen;   /* repeat: body length */
	uint64_t reps;   /* repeat: planned repetitions */
	int key;         /* dict: which entry */
	uint64_t used;   /* symbols drawn in this run */
	symbuf dexp[NUM_DICT];
} source;

static void new_gap(source *s)
{
	s->gap = 32 + below(s->r, 2048);
}

/* Writes the run in progress as what was drawn of it. */
static void end_run(source *s)
{
	uint64_t i;
	if (s->mode == REPEAT) {
		uint64_t full = s->used / s->blen;
		unsigned rest = (unsigned)(s->used % s->blen), j;
		if (full >= 2) {
			put(s->o, '(');
			putu(s->o, full);
			put(s->o, '*');
			for (j = 0; j < s->blen; j++)
				put(s->o, b64[s->body[j]]);
			put(s->o, ')');
		} else if (full == 1) {
			for (j = 0; j < s->blen; j++)
				put(s->o, b64[s->body[j]]);
		}
		for (j = 0; j < rest; j++)
			put(s->o, b64[s->body[j]]);
	} else if (s->mode == DICT) {
		const symbuf *e = &s->dexp[s->key];
		if (s->used == e->len) {
			put(s->o, '<');
			puts_(s->o, dict[s->key][0]);
			put(s->o, '>');
		} else {
			for (i = 0; i < s->used; i++)
				put(s->o, b64[e->sym[i]]);
		}
	}
	s->mode = LITERAL;
	s->used = 0;
}

static unsigned draw(source *s)
{
	unsigned v;
	if (s->mode == LITERAL) {
		if (s->gap == 0) {
			new_gap(s);
			s->used = 0;
			if (below(s->r, 3) == 0) {
				s->mode = DICT;
				s->key = (int)below(s->r, NUM_DICT);
			} else {
				unsigned j;
				s->mode = REPEAT;
				s->blen = 1 + below(s->r, 4);
				for (j = 0; j < s->blen; j++)
					s->body[j] = (unsigned char)below(s->r, 64);
				s->reps = below(s->r, 8) == 0 ?
				    100 + below(s->r, 2000) : 2 + below(s->r, 40);
			}
		} else {
			s->gap--;
			if (s->npool == 0) {
				s->pool = rnd(s->r);
				s->npool = 10;
			}
			v = (unsigned)(s->pool & 63);
			s->pool >>= 6;
			s->npool--;
			put(s->o, b64[v]);
			return v;
		}
	}
	if (s->mode == REPEAT) {
		v = s->body[s->used % s->blen];
		if (++s->used == s->blen * s->reps)
			end_run(s);
		return v;
	}
	v = s->dexp[s->key].sym[s->used];
	if (++s->used == s->dexp[s->key].len)
		end_run(s);
	return v;
}

static inline int getbit(source *s)
{
	if (s->nbits == 0) {
		s->sym = draw(s);
		s->nbits = 6;
	}
	s->nbits--;
	return (int)((s->sym >> s->nbits) & 1);
}

/* Writes one chunk's EDGE_ID_SEQUENCE for count edges after *cur, running
 * the decoder; leaves in *cur the edge that follows the chunk's last. */
static void chunk_sequence(source *s, const edge *E, uint64_t count, int *cur)
{
	uint64_t done = 1;
	int c = *cur, next = -1;
	s->nbits = 0;
	while (done < count) {
		const edge *e = &E[c];
		int v = e->root;
		const row *w;
		int k;
		while (v >= 0)
			v = e->child[v][getbit(s)];
		w = &e->rows[-v - 1];
		for (k = 0; k < w->n && done < count; k++) {
			c = w->next[k];
			done++;
		}
		/* A group cut by the end of the chunk continues in the next. */
		if (done == count && k < w->n)
			next = w->next[k];
	}
	end_run(s);
	if (next < 0)
		next = E[c].rows[0].next[0];
	*cur = next;
}

/* ---- main --------------------------------------------------------- */

static uint64_t arg(const char *s, const char *what)
{
	char *end;
	unsigned long long v;
	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		goto bad;
	return (uint64_t)v;
bad:
	fprintf(stderr, "gen-trace: bad %s: %s\n", what, s);
	exit(2);
}

int main(int argc, char **argv)
{
	static edge E[NUM_EDGES];
	static out o;
	static source src;
	rng r;
	uint64_t edges, chunk = 1000000, seed = 1;
	size_t d;
	int t;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: gen-trace EDGES [CHUNK_EDGES] [SEED]\n");
		return 2;
	}
	edges = arg(argv[1], "EDGES");
	if (argc > 2)
		chunk = arg(argv[2], "CHUNK_EDGES");
	if (argc > 3)
		seed = arg(argv[3], "SEED");
	if (chunk == 0)
		die("CHUNK_EDGES must be at least 1");
	r.s = seed * UINT64_C(0x9E3779B97F4A7C15) ^ UINT64_C(0xD1B54A32D192ED03);
	if (r.s == 0)
		r.s = 1;
	build_table(E, &r);

	src.o = &o;
	src.r = &r;
	for (d = 0; d < NUM_DICT; d++)
		expand(dict[d][1], strlen(dict[d][1]), &src.dexp[d], 0);
	src.gap = below(&r, 16); /* a run early on, even in tiny traces */

	puts_(&o, "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[\n"
	    "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\","
	    "\"THREAD_DATA\"],\n[");
	putu(&o, PROCESS_ID);
	puts_(&o, ",\n{");
	for (d = 0; d < NUM_DICT; d++) {
		puts_(&o, d ? ",\"" : "\"");
		puts_(&o, dict[d][0]);
		puts_(&o, "\":\"");
		puts_(&o, dict[d][1]);
		put(&o, '"');
	}
	puts_(&o, "},\n");
	write_table(&o, E, &r);
	puts_(&o, ",\n[[\"THREAD_ID\",\"TRACE_DATA\"]");
	for (t = 0; t < 2; t++) {
		uint64_t left = t == 0 ? edges - edges / 2 : edges / 2;
		uint64_t pre = 0;
		int cur = (int)below(&r, NUM_EDGES);
		puts_(&o, ",\n [");
		putu(&o, (uint64_t)t);
		puts_(&o, ",[[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\","
		    "\"EDGE_COUNT\",\"FIRST_EDGE_ID\",\"EDGE_ID_SEQUENCE\"]");
		while (left > 0) {
			uint64_t n = left < chunk ? left : chunk;
			puts_(&o, ",\n  [");
			putu(&o, pre);
			put(&o, ',');
			putu(&o, n * INSTRS_PER_EDGE);
			put(&o, ',');
			putu(&o, n);
			put(&o, ',');
			putu(&o, (uint64_t)EDGE_ID(cur));
			puts_(&o, ",\"");
			chunk_sequence(&src, E, n, &cur);
			puts_(&o, "\"]");
			pre += n * INSTRS_PER_EDGE;
			left -= n;
		}
		puts_(&o, "]]");
	}
	puts_(&o, "]]]}\n");
	flush(&o);
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error");
	for (d = 0; d < NUM_DICT; d++)
		free(src.dexp[d].sym);
	return 0;
}
