/* What the readers and writers of lib/regions share (regions.h says what it does). */
#ifndef DCFG_REGIONS_INTERNAL_H
#define DCFG_REGIONS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/dcfg.h>
#include <dcfg/error.h>
#include "common/output.h"
#include "regions.h"

/* SimPoint's answer: one chosen slice per cluster, in ascending cluster order once read. */
struct dcfg_rg_choice {
	uint64_t slice, cluster;
	double weight;
	unsigned long sp_line;      /* its line in t.simpoints, for messages */
};

struct dcfg_rg_answer {
	struct dcfg_rg_choice *c;
	size_t n, cap;
	uint32_t *labels;           /* the cluster of each slice (t.labels), or NULL */
	size_t n_labels, labels_cap;
	const char *sp_path, *labels_path;
};

/* A marker line (S: or M:) the regions use. */
struct dcfg_rg_marker {
	uint64_t pc, count, offset;
	int in_image;               /* 0: an M: line, or no image (no_image, offset 0x0) */
	char *image;                /* the image's basename, unescaped */
	char *source;               /* the basename of FILE:LINE, unescaped; "Unknown:0" */
	unsigned long line;
};

struct dcfg_rg_block {
	uint64_t id, start, end, instrs;
	uint64_t count;             /* its "block count:", or UINT64_MAX when the line has none */
	int in_vectors;             /* its id is in some T line */
	unsigned long line;
};

/* The ids met in the T lines: open addressing, id + 1 stored (0 is empty). */
struct dcfg_rg_idset {
	uint64_t *slot;
	uint64_t *sum;              /* each id's instructions in all the T lines, beside its slot */
	size_t cap, n;
};

/* A G: line's image (read for --check): where it is loaded, its basename. */
struct dcfg_rg_image {
	uint64_t low;
	char *name;
};

struct dcfg_rg_pair {
	uint64_t id, value;
};

/* The vector of a slice some region needs, as pairs[first .. first + n). */
struct dcfg_rg_kept {
	uint64_t slice;
	size_t first, n;
};

struct dcfg_rg_range {
	uint64_t lo, hi;            /* slices lo..hi, both included */
};

struct dcfg_rg_profile {
	const char *path;
	int has_tid;
	uint64_t tid;
	uint64_t *sums;             /* each slice's instructions, the sum of its T line */
	size_t n_slices, sums_cap;
	uint64_t n_markers;
	/* the markers the regions use: sorted indices (marker i is before slice i) */
	uint64_t *want;
	struct dcfg_rg_marker *m;
	size_t n_want;
	/* the slices whose vectors the relative counts need */
	struct dcfg_rg_range *ranges;
	size_t n_ranges;
	struct dcfg_rg_pair *pairs;
	size_t n_pairs, pairs_cap;
	struct dcfg_rg_kept *kept;
	size_t n_kept, kept_cap;
	struct dcfg_rg_block *blocks;     /* sorted by id once read */
	size_t n_blocks, blocks_cap;
	uint64_t total;             /* the sum of every T line */
	struct dcfg_rg_idset seen;
	/* dcfg-profile(1)'s first line: the DCFG (dcfg=CRC:BYTES), process and thread it is of */
	int has_head;
	uint32_t head_crc;
	uint64_t head_bytes, head_pid, head_tid;
	uint64_t max_id_sum;        /* the instructions of id 2^64 - 1, which the set cannot hold */
	int read_images;            /* set before reading: keep the G: lines' images */
	struct dcfg_rg_image *images;     /* sorted by low once read */
	size_t n_images, images_cap;
};

/* Tokens of a line split on blanks; each NUL-terminated in place. */
struct dcfg_rg_tok {
	char *s;
	size_t len;
	unsigned long col;          /* from 1 */
};

#define DCFG_RG_MAX_TOKENS 16

/* qsort's and bsearch's order of uint64_t values, ascending. */
int dcfg_rg_by_u64(const void *a, const void *b);
/* Splits LINE; fills at most DCFG_RG_MAX_TOKENS, returns how many there are. */
size_t dcfg_rg_split(char *line, struct dcfg_rg_tok *t);
/* Decimal digits below 2^64 (leading zeros allowed): 0, or -1. */
int dcfg_rg_dec(const char *s, size_t len, uint64_t *v);
/* 0x and 1 to 16 hex digits: 0, or -1. */
int dcfg_rg_hex(const char *s, size_t len, uint64_t *v);
/* A decimal fraction as SimPoint writes one: [-]digits[.digits][e[+-]digits]. */
int dcfg_rg_real(const char *s, size_t len, double *v);
/*
 * A name as the profile holds it (a word escaped as dcfg-stream(5) says),
 * unescaped into a new string; only its part after the last '/' when
 * BASENAME. NULL when out of memory.
 */
char *dcfg_rg_name(const char *s, int basename);

int dcfg_rg_answer_read(struct dcfg_rg_answer *a, const char *simpoints, const char *weights,
    const char *labels, struct dcfg_error *err);
void dcfg_rg_answer_free(struct dcfg_rg_answer *a);

/*
 * Reads the profile at PATH, keeping the markers WANT (N_WANT sorted
 * indices) and the vectors of the slices in RANGES (sorted, disjoint).
 */
int dcfg_rg_profile_read(struct dcfg_rg_profile *p, const char *path, struct dcfg_error *err);
void dcfg_rg_profile_free(struct dcfg_rg_profile *p);

/*
 * What the profile is of: its thread and, with --dcfg, the DCFG (checked
 * to be the one its first line names) and the process in it.
 */
struct dcfg_rg_source {
	uint64_t tid;                        /* P:, or --thread */
	const struct dcfg *d;                /* NULL: no --dcfg */
	const struct dcfg_process *process;  /* with D: the profile's process */
	const char *dcfg_path;               /* with D, for messages */
};

/*
 * Fills S from the profile P (read) and the options O: 0, or -1 with ERR
 * set when the thread is unknown, the DCFG is another profile's, or the
 * process is not in it (dcfg-regions(1), --dcfg).
 */
int dcfg_rg_source_of(struct dcfg_rg_source *s, const struct dcfg_rg_profile *p,
    const struct dcfg_regions_options *o, const char *dcfg_path, struct dcfg_error *err);

/*
 * The executions of each of the N PCs in each thread of S's process (S->d
 * set): (*EXEC)[i * threads + t], from the COUNT_PER_THREAD of the edges
 * entering every block that starts at PCS[i] or holds it; (*FOUND)[i] says
 * whether any block holds it. Both to free. 0, or -1 out of memory.
 */
int dcfg_rg_pc_executions(const struct dcfg_rg_source *s, const uint64_t *pcs, size_t n,
    uint64_t **exec, unsigned char **found, struct dcfg_error *err);

/*
 * 0 when the DCFG shows that the PC of each of the N markers (of the
 * profile at PATH) ran in S's thread alone, as often as the marker counts
 * at least; else -1 with ERR naming the marker, the other thread and its
 * executions, and WHY that matters. -1 too without a DCFG.
 */
int dcfg_rg_only_thread(const struct dcfg_rg_source *s, const struct dcfg_rg_marker *const *m,
    size_t n, const char *path, const char *why, struct dcfg_error *err);

#endif
