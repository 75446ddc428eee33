/*
 * Edge ids written as lines, the body of dcfg-expand's output. A trace
 * runs the same few thousand edges again and again, so each id's line is
 * kept once formatted, in a direct-mapped table of slots, and written with
 * one fixed 16-byte copy: cheaper than formatting every id again, which
 * cost as much as decoding the trace (issue 25). An id whose slot holds
 * another is formatted in place (common/digits.h) and takes the slot.
 */
#ifndef DCFG_IDLINES_H
#define DCFG_IDLINES_H

#include <stddef.h>
#include <stdint.h>

#include "common/output.h"

#define DCFG_IDLINES_SLOTS 4096   /* 64 KiB: the hot edges of a real trace, in the L2 cache */

/* TEXT: the id's digits and '\n', then, in text[11], their length. */
struct dcfg_idline {
	char text[12];
	uint32_t id;
};

struct dcfg_idlines {
	struct dcfg_idline slot[DCFG_IDLINES_SLOTS];
};

void dcfg_idlines_init(struct dcfg_idlines *l);
/* IDS[0..N), one a line, into OUT. */
void dcfg_idlines_write(struct dcfg_idlines *l, struct dcfg_output *out, const uint32_t *ids,
    size_t n);

#endif
