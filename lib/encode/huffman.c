#include "huffman.h"

#include <stdlib.h>
#include <string.h>

struct node {
	uint64_t freq;
	size_t index;
};

static int
by_freq(const void *a, const void *b)
{
	const struct node *x = a, *y = b;

	if (x->freq != y->freq)
		return x->freq < y->freq ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* One Huffman build (two queues over sorted leaves): the deepest length, or -1. */
static int
build(const uint64_t *freq, size_t n, uint8_t *len, uint64_t *scratch)
{
	struct node *leaves = malloc(n * sizeof *leaves);
	uint64_t *ifreq = scratch, *parent = scratch + n;   /* internal nodes; parents of all */
	size_t li = 0, ii = 0, ni = 0, i;
	unsigned deepest = 0;

	if (leaves == NULL)
		return -1;
	for (i = 0; i < n; i++)
		leaves[i] = (struct node){ freq[i], i };
	qsort(leaves, n, sizeof *leaves, by_freq);
	/* parent[] of leaf k (in sorted order) is at parent[k], of internal j at parent[n + j] */
	while (ni < n - 1) {
		size_t pick[2];
		for (int k = 0; k < 2; k++) {
			if (li < n && (ii >= ni || leaves[li].freq <= ifreq[ii]))
				pick[k] = li++;
			else
				pick[k] = n + ii++;
		}
		ifreq[ni] = (pick[0] < n ? leaves[pick[0]].freq : ifreq[pick[0] - n]) +
		    (pick[1] < n ? leaves[pick[1]].freq : ifreq[pick[1] - n]);
		if (ifreq[ni] < (pick[0] < n ? leaves[pick[0]].freq : ifreq[pick[0] - n]))
			ifreq[ni] = UINT64_MAX;   /* saturate: only the shape matters */
		parent[pick[0]] = parent[pick[1]] = ni;
		ni++;
	}
	/* depths of internal nodes: the root (last) is 0, each child one deeper */
	uint64_t *depth = scratch + 3 * n;
	depth[ni - 1] = 0;
	for (i = ni - 1; i-- > 0;)
		depth[i] = depth[parent[n + i]] + 1;
	for (i = 0; i < n; i++) {
		uint64_t d = depth[parent[i]] + 1;
		len[leaves[i].index] = d > 255 ? 255 : (uint8_t)d;
		if (d > deepest)
			deepest = d > 255 ? 255 : (unsigned)d;
	}
	free(leaves);
	return (int)deepest;
}

int
dcfg_huffman_lengths(const uint64_t *freq, size_t n, unsigned max_len,
    uint8_t *len, uint64_t *scratch)
{
	uint64_t *f = malloc(n * sizeof *f);
	size_t i;
	int deepest;

	if (f == NULL || (max_len < 64 && n > ((size_t)1 << max_len))) {
		free(f);
		return -1;
	}
	for (i = 0; i < n; i++)
		f[i] = freq[i] ? freq[i] : 1;
	/* all-equal frequencies give depth ceil(log2 n) <= max_len: this ends */
	while ((deepest = build(f, n, len, scratch)) > (int)max_len)
		for (i = 0; i < n; i++)
			f[i] = (f[i] >> 1) | 1;
	free(f);
	return deepest < 0 ? -1 : 0;
}

void
dcfg_huffman_codes(const uint8_t *len, const size_t *order, size_t n, uint32_t *code)
{
	uint64_t next = 0;
	unsigned prev = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned l = len[order[i]];
		next <<= l - prev;
		prev = l;
		code[order[i]] = l ? (uint32_t)(next << (32 - l)) : 0;
		next++;
	}
}
