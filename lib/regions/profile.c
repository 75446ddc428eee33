/*
 * The per-thread profile (dcfg-profile(1); any PinPoints profile with T,
 * S:/M: and Block id: lines): each slice's instructions, the markers and
 * vectors the regions need, and the blocks.
 */
#include "regions_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/textlines.h"
#include "common/vec.h"

struct reader {
	struct dcfg_rg_profile *p;
	const char *path;
	unsigned long line;
	size_t next_want, next_range;
	int in_blocks, ended;
	int has_dyn, max_id_seen;
	uint64_t dyn;
	unsigned long dyn_line, dyn_col;
};

static int
at(struct reader *r, unsigned long col, struct dcfg_error *err, const char *what)
{
	return dcfg_error_at(err, r->path, r->line, col, "%s", what);
}

static int
oom(struct reader *r, struct dcfg_error *err)
{
	return dcfg_error_set(err, r->path, "out of memory");
}

/* S: 0xPC COUNT IMAGE 0xLOW + 0xOFFSET [# FILE:LINE], or M: 0xPC COUNT ... */
static int
marker(struct reader *r, struct dcfg_rg_tok *t, size_t n, struct dcfg_error *err)
{
	struct dcfg_rg_profile *p = r->p;
	struct dcfg_rg_marker m = { .line = r->line };
	uint64_t idx = p->n_markers, low = 0, off = 0;
	int s = t[0].s[0] == 'S';

	if (r->in_blocks)
		return at(r, 1, err, "a marker after the Block id lines");
	if (p->n_markers != p->n_slices)
		return at(r, 1, err, p->n_slices == 0 ? "a second marker before the first T line" :
		    "a second marker after a T line");
	if (n < 2 || dcfg_rg_hex(t[1].s, t[1].len, &m.pc) < 0)
		return at(r, n < 2 ? t[0].col + t[0].len : t[1].col, err, "not a PC (0x...)");
	if (n < 3 || dcfg_rg_dec(t[2].s, t[2].len, &m.count) < 0 || m.count == 0)
		return at(r, n < 3 ? t[1].col + t[1].len : t[2].col, err,
		    "not an execution count (1 or more)");
	if (s) {
		if (n != 7 && n != 9)
			return at(r, n > 9 ? t[9].col : 1, err,
			    "an S: line has 7 or 9 words: S: 0xPC COUNT IMAGE 0xLOW + 0xOFFSET # FILE:LINE");
		if (dcfg_rg_hex(t[4].s, t[4].len, &low) < 0)
			return at(r, t[4].col, err, "not an image's low address (0x...)");
		if (t[5].len != 1 || t[5].s[0] != '+')
			return at(r, t[5].col, err, "\"+\" expected");
		if (dcfg_rg_hex(t[6].s, t[6].len, &off) < 0)
			return at(r, t[6].col, err, "not an offset (0x...)");
		if (m.pc < low || m.pc - low != off)
			return at(r, t[6].col, err, "the offset is not the PC minus the image's low address");
		if (n == 9 && (t[7].len != 1 || t[7].s[0] != '#'))
			return at(r, t[7].col, err, "\"#\" expected before FILE:LINE");
	}
	p->n_markers++;
	if (r->next_want >= p->n_want || p->want[r->next_want] != idx)
		return 0;
	m.in_image = s;
	m.offset = off;
	m.image = dcfg_rg_name(s ? t[3].s : "no_image", 1);
	m.source = dcfg_rg_name(s && n == 9 ? t[8].s : "Unknown:0", 1);
	if (m.image == NULL || m.source == NULL) {
		free(m.image);
		free(m.source);
		return oom(r, err);
	}
	p->m[r->next_want++] = m;
	return 0;
}

static int
keep_slice(struct reader *r, uint64_t slice)
{
	struct dcfg_rg_profile *p = r->p;

	while (r->next_range < p->n_ranges && p->ranges[r->next_range].hi < slice)
		r->next_range++;
	return r->next_range < p->n_ranges && p->ranges[r->next_range].lo <= slice;
}

static size_t
id_hash(uint64_t id, size_t cap)
{
	return (size_t)((id * UINT64_C(0x9e3779b97f4a7c15)) >> 17) & (cap - 1);
}

static int
idset_has(const struct dcfg_rg_idset *s, uint64_t id)
{
	size_t i;

	if (s->cap == 0)
		return 0;
	for (i = id_hash(id, s->cap); s->slot[i] != 0; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == id + 1)
			return 1;
	return 0;
}

/* Adds VALUE to ID's sum (ID below 2^64 - 1: the caller keeps that one apart). 0, or -1 out of memory. */
static int
idset_add(struct dcfg_rg_idset *s, uint64_t id, uint64_t value)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct dcfg_rg_idset g = { .cap = s->cap ? 2 * s->cap : 64 };
		g.slot = calloc(g.cap, sizeof *g.slot);
		g.sum = calloc(g.cap, sizeof *g.sum);
		if (g.slot == NULL || g.sum == NULL) {
			free(g.slot);
			free(g.sum);
			return -1;
		}
		for (i = 0; i < s->cap; i++)
			if (s->slot[i] != 0)
				idset_add(&g, s->slot[i] - 1, s->sum[i]);
		free(s->slot);
		free(s->sum);
		*s = g;
	}
	for (i = id_hash(id, s->cap); s->slot[i] != 0; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == id + 1)
			break;
	if (s->slot[i] == 0) {
		s->slot[i] = id + 1;
		s->n++;
	}
	s->sum[i] += value;   /* below the profile's total, which the reader keeps below 2^64 */
	return 0;
}

/* T:ID:VALUE :ID:VALUE ... (blanks anywhere between the parts) */
static int
vector(struct reader *r, char *s, struct dcfg_error *err)
{
	struct dcfg_rg_profile *p = r->p;
	uint64_t slice = p->n_slices, sum = 0, v[2];
	size_t value_at = 0;
	int keep = keep_slice(r, slice);
	size_t i = 1, first = p->n_pairs, k, n;

	if (r->in_blocks)
		return at(r, 1, err, "a T line after the Block id lines");
	if (p->n_markers != p->n_slices + 1)
		return at(r, 1, err, p->n_slices == 0 ? "no marker (S: or M: line) before the first T line" :
		    "the slice before has no end marker (S: or M: line)");
	for (;;) {
		while (s[i] == ' ' || s[i] == '\t')
			i++;
		if (s[i] == '\0')
			break;
		for (k = 0; k < 2; k++) {
			if (s[i] != ':')
				return at(r, i + 1, err, "\":\" expected");
			i++;
			while (s[i] == ' ' || s[i] == '\t')
				i++;
			for (n = 0; s[i + n] >= '0' && s[i + n] <= '9'; n++)
				;
			value_at = i;
			if (dcfg_rg_dec(s + i, n, &v[k]) < 0)
				return at(r, i + 1, err, k ? "not an instruction count below 2^64" :
				    "not a block id below 2^64");
			i += n;
			while (k == 0 && (s[i] == ' ' || s[i] == '\t'))
				i++;
		}
		if (sum > UINT64_MAX - v[1])
			return at(r, value_at + 1, err, "the slice's instructions pass 2^64");
		sum += v[1];
		if (v[0] == UINT64_MAX) {
			r->max_id_seen = 1;
			p->max_id_sum += v[1];
		} else if (idset_add(&p->seen, v[0], v[1]) < 0)
			return oom(r, err);
		if (keep) {
			if (dcfg_reserve((void **)&p->pairs, &p->pairs_cap, p->n_pairs + 1,
			    sizeof *p->pairs) < 0)
				return oom(r, err);
			p->pairs[p->n_pairs++] = (struct dcfg_rg_pair){ v[0], v[1] };
		}
	}
	if (i == 1)
		return at(r, 1, err, "an empty T line (SimPoint stops reading at one)");
	if (p->total > UINT64_MAX - sum)
		return at(r, 1, err, "the profile's instructions pass 2^64");
	p->total += sum;
	if (dcfg_reserve((void **)&p->sums, &p->sums_cap, p->n_slices + 1, sizeof *p->sums) < 0)
		return oom(r, err);
	p->sums[p->n_slices++] = sum;
	if (keep) {
		if (dcfg_reserve((void **)&p->kept, &p->kept_cap, p->n_kept + 1, sizeof *p->kept) < 0)
			return oom(r, err);
		p->kept[p->n_kept++] = (struct dcfg_rg_kept){ slice, first, p->n_pairs - first };
	}
	return 0;
}

/* Block id: ID 0xSTART:0xEND static instructions: N ... */
static int
block(struct reader *r, struct dcfg_rg_tok *t, size_t n, struct dcfg_error *err)
{
	struct dcfg_rg_profile *p = r->p;
	struct dcfg_rg_block b = { .line = r->line, .count = UINT64_MAX };
	char *colon;

	r->in_blocks = 1;
	if (n < 7 || strcmp(t[4].s, "static") != 0 || strcmp(t[5].s, "instructions:") != 0)
		return at(r, n < 3 ? 1 : t[n < 7 ? n - 1 : 4].col, err,
		    "Block id: ID 0xSTART:0xEND static instructions: N expected");
	if (dcfg_rg_dec(t[2].s, t[2].len, &b.id) < 0)
		return at(r, t[2].col, err, "not a block id");
	if ((colon = memchr(t[3].s, ':', t[3].len)) == NULL ||
	    dcfg_rg_hex(t[3].s, (size_t)(colon - t[3].s), &b.start) < 0 ||
	    dcfg_rg_hex(colon + 1, t[3].len - (size_t)(colon + 1 - t[3].s), &b.end) < 0 ||
	    b.end < b.start)
		return at(r, t[3].col, err, "not an address range 0xSTART:0xEND");
	if (dcfg_rg_dec(t[6].s, t[6].len, &b.instrs) < 0 || b.instrs == 0)
		return at(r, t[6].col, err, "not a number of static instructions (1 or more)");
	/* "block count: N": how often the thread entered it, which the vectors must show */
	if (n >= 10 && strcmp(t[7].s, "block") == 0 && strcmp(t[8].s, "count:") == 0 &&
	    dcfg_rg_dec(t[9].s, t[9].len, &b.count) < 0)
		return at(r, t[9].col, err, "not a block count");
	b.in_vectors = b.id == UINT64_MAX ? r->max_id_seen : idset_has(&p->seen, b.id);
	if (dcfg_reserve((void **)&p->blocks, &p->blocks_cap, p->n_blocks + 1, sizeof *p->blocks) < 0)
		return oom(r, err);
	p->blocks[p->n_blocks++] = b;
	return 0;
}

/* G: PATH LowAddress: 0xLOW LoadOffset: 0xOFFSET (a PATH of several words is joined by spaces) */
static int
image(struct reader *r, struct dcfg_rg_tok *t, size_t n, struct dcfg_error *err)
{
	struct dcfg_rg_profile *p = r->p;
	struct dcfg_rg_image im;
	char *c;

	if (n < 6 || n > DCFG_RG_MAX_TOKENS || strcmp(t[n - 4].s, "LowAddress:") != 0 ||
	    strcmp(t[n - 2].s, "LoadOffset:") != 0)
		return at(r, 1, err, "G: PATH LowAddress: 0xLOW LoadOffset: 0xOFFSET expected");
	if (dcfg_rg_hex(t[n - 3].s, t[n - 3].len, &im.low) < 0)
		return at(r, t[n - 3].col, err, "not an image's low address (0x...)");
	for (c = t[1].s + t[1].len; c < t[n - 5].s; c++)
		if (*c == '\0')
			*c = ' ';   /* a blank between the path's words, which the split made a NUL */
	if ((im.name = dcfg_rg_name(t[1].s, 1)) == NULL ||
	    dcfg_reserve((void **)&p->images, &p->images_cap, p->n_images + 1, sizeof *p->images) < 0) {
		free(im.name);
		return oom(r, err);
	}
	p->images[p->n_images++] = im;
	return 0;
}

static int
number_after(struct reader *r, struct dcfg_rg_tok *t, size_t n, size_t words, uint64_t *v,
    struct dcfg_error *err)
{
	if (n != words + 1 || dcfg_rg_dec(t[words].s, t[words].len, v) < 0)
		return at(r, n > words ? t[words].col : 1, err, "a number below 2^64 expected");
	return 0;
}

static int
is(struct dcfg_rg_tok *t, size_t n, const char *a, const char *b, const char *c)
{
	return n >= 1 && strcmp(t[0].s, a) == 0 && (b == NULL || (n >= 2 && strcmp(t[1].s, b) == 0)) &&
	    (c == NULL || (n >= 3 && strcmp(t[2].s, c) == 0));
}

/* dcfg=CRC:BYTES, CRC eight lowercase hex digits as dcfg-profile(1) writes them */
static int
dcfg_id(const char *s, size_t len, uint32_t *crc, uint64_t *bytes)
{
	size_t i;

	if (len < 10 || s[8] != ':' || dcfg_rg_dec(s + 9, len - 9, bytes) < 0)
		return -1;
	for (*crc = 0, i = 0; i < 8; i++) {
		unsigned d = (unsigned)(unsigned char)s[i];
		if (d >= '0' && d <= '9')
			d -= '0';
		else if (d >= 'a' && d <= 'f')
			d -= 'a' - 10;
		else
			return -1;
		*crc = *crc << 4 | d;
	}
	return 0;
}

/* # dcfg-profile 1 slice-size=N rule=R dcfg=CRC:BYTES process=PID thread=TID */
static int
head(struct reader *r, char *s, struct dcfg_error *err)
{
	struct dcfg_rg_tok t[DCFG_RG_MAX_TOKENS];
	struct dcfg_rg_profile *p = r->p;
	size_t n = dcfg_rg_split(s, t), i;
	int seen = 0;

	for (i = 3; i < n && i < DCFG_RG_MAX_TOKENS; i++) {
		if (strncmp(t[i].s, "dcfg=", 5) == 0) {
			if (dcfg_id(t[i].s + 5, t[i].len - 5, &p->head_crc, &p->head_bytes) < 0)
				return at(r, t[i].col, err, "not dcfg=CRC:BYTES (8 hex digits, decimal)");
			seen |= 1;
		} else if (strncmp(t[i].s, "process=", 8) == 0) {
			if (dcfg_rg_dec(t[i].s + 8, t[i].len - 8, &p->head_pid) < 0)
				return at(r, t[i].col, err, "not process=PID");
			seen |= 2;
		} else if (strncmp(t[i].s, "thread=", 7) == 0) {
			if (dcfg_rg_dec(t[i].s + 7, t[i].len - 7, &p->head_tid) < 0)
				return at(r, t[i].col, err, "not thread=TID");
			seen |= 4;
		}
	}
	if (seen != 7)
		return at(r, 1, err, "a dcfg-profile first line without dcfg=, process= or thread=");
	p->has_head = 1;
	return 0;
}

static int
line(struct reader *r, char *s, struct dcfg_error *err)
{
	struct dcfg_rg_tok t[DCFG_RG_MAX_TOKENS];
	struct dcfg_rg_profile *p = r->p;
	uint64_t v;
	size_t n;

	if (r->line == 1 && strncmp(s, "# dcfg-profile ", 15) == 0)
		return head(r, s, err);
	if (s[0] == '#')
		return 0;
	if (s[0] == 'T' && (s[1] == ':' || s[1] == ' ' || s[1] == '\t' || s[1] == '\0'))
		return r->ended ? at(r, 1, err, "a line after End of bb") : vector(r, s, err);
	if ((n = dcfg_rg_split(s, t)) == 0)
		return 0;
	if (r->ended)
		return at(r, t[0].col, err, "a line after End of bb");
	if (is(t, n, "S:", NULL, NULL) || is(t, n, "M:", NULL, NULL))
		return marker(r, t, n, err);
	if (is(t, n, "Block", "id:", NULL))
		return block(r, t, n, err);
	if (is(t, n, "P:", NULL, NULL)) {
		if (number_after(r, t, n, 1, &v, err) < 0)
			return -1;
		if (p->has_tid && v != p->tid)
			return at(r, t[1].col, err, "a second P: line with another thread id");
		p->has_tid = 1;
		p->tid = v;
		return 0;
	}
	if (is(t, n, "G:", NULL, NULL) && p->read_images)
		return image(r, t, n, err);
	if (is(t, n, "C:", NULL, NULL) || is(t, n, "G:", NULL, NULL))
		return 0;
	if (is(t, n, "Dynamic", "instruction", "count")) {
		r->has_dyn = 1;
		r->dyn_line = r->line;
		r->dyn_col = n > 3 ? t[3].col : 1;
		return number_after(r, t, n, 3, &r->dyn, err);
	}
	if (is(t, n, "Dynamic", "unfiltered", "instruction"))
		return number_after(r, t, n, 4, &v, err);
	if (is(t, n, "SliceSize:", NULL, NULL))
		return number_after(r, t, n, 1, &v, err);
	if (is(t, n, "End", "of", "bb") && n == 3) {
		r->ended = 1;
		return 0;
	}
	return at(r, t[0].col, err,
	    "not a line of a profile (T, S:, M:, P:, C:, G:, Block id:, Dynamic, SliceSize:, End of bb, #)");
}

static int
by_id(const void *a, const void *b)
{
	const struct dcfg_rg_block *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
by_low(const void *a, const void *b)
{
	const struct dcfg_rg_image *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

static int
finish(struct reader *r, struct dcfg_error *err)
{
	struct dcfg_rg_profile *p = r->p;
	size_t i;

	if (p->n_slices == 0)
		return dcfg_error_at(err, r->path, r->line + 1, 1, "no slice (T line): not a profile");
	if (p->has_head && p->has_tid && p->head_tid != p->tid)
		return dcfg_error_at(err, r->path, 1, 1, "thread=%llu, but the P: line says thread %llu",
		    (unsigned long long)p->head_tid, (unsigned long long)p->tid);
	if (r->has_dyn && r->dyn != p->total)
		return dcfg_error_at(err, r->path, r->dyn_line, r->dyn_col,
		    "the T lines add up to %llu instructions, not this",
		    (unsigned long long)p->total);
	if (p->n_blocks > 0)   /* qsort of no array is undefined */
		qsort(p->blocks, p->n_blocks, sizeof *p->blocks, by_id);
	if (p->n_images > 0)
		qsort(p->images, p->n_images, sizeof *p->images, by_low);
	for (i = 1; i < p->n_blocks; i++)
		if (p->blocks[i].id == p->blocks[i - 1].id)
			return dcfg_error_at(err, r->path,
			    p->blocks[i].line > p->blocks[i - 1].line ? p->blocks[i].line :
			    p->blocks[i - 1].line, 1, "block id %llu listed twice",
			    (unsigned long long)p->blocks[i].id);
	return 0;
}

int
dcfg_rg_profile_read(struct dcfg_rg_profile *p, const char *path, struct dcfg_error *err)
{
	struct reader r = { .p = p, .path = path };
	struct dcfg_textlines *tl;
	char *s;
	size_t len;
	int rc;

	p->path = path;
	if ((tl = dcfg_textlines_open(path, err)) == NULL)
		return -1;
	while ((rc = dcfg_textlines_next(tl, &s, &len, err)) > 0) {
		r.line = dcfg_textlines_lineno(tl);
		if ((rc = line(&r, s, err)) < 0)
			break;
	}
	dcfg_textlines_close(tl);
	return rc < 0 ? -1 : finish(&r, err);
}

void
dcfg_rg_profile_free(struct dcfg_rg_profile *p)
{
	size_t i;

	for (i = 0; i < p->n_want; i++) {
		free(p->m[i].image);
		free(p->m[i].source);
	}
	free(p->want);
	free(p->m);
	free(p->ranges);
	free(p->sums);
	free(p->pairs);
	free(p->kept);
	free(p->blocks);
	free(p->seen.slot);
	free(p->seen.sum);
	for (i = 0; i < p->n_images; i++)
		free(p->images[i].name);
	free(p->images);
	memset(p, 0, sizeof *p);
}
