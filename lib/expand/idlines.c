#include "idlines.h"

#include <string.h>

#include "common/digits.h"

_Static_assert(sizeof(struct dcfg_idline) == 16, "a line is copied as 16 bytes");
_Static_assert(DCFG_DIGITS_U32_MAX + 1 < sizeof ((struct dcfg_idline *)0)->text,
    "the longest line and its length fit in text");

static void
fill(struct dcfg_idline *s, uint32_t id)
{
	unsigned d = dcfg_digits_u32(id);

	dcfg_put_u32(s->text + d, id);
	s->text[d] = '\n';
	s->text[sizeof s->text - 1] = (char)(d + 1);
	s->id = id;
}

/* Every slot starts as the line of an id that maps to it: no slot is empty. */
void
dcfg_idlines_init(struct dcfg_idlines *l)
{
	uint32_t i;

	for (i = 0; i < DCFG_IDLINES_SLOTS; i++)
		fill(&l->slot[i], i);
}

void
dcfg_idlines_write(struct dcfg_idlines *l, struct dcfg_output *out, const uint32_t *ids,
    size_t n)
{
	char *buf = out->buf;
	size_t len = out->len, i;

	for (i = 0; i < n; i++) {
		uint32_t id = ids[i];
		struct dcfg_idline *s = &l->slot[id % DCFG_IDLINES_SLOTS];

		/* the copy writes a whole slot, past the line's end */
		if (sizeof out->buf - len < sizeof *s) {
			out->len = len;
			dcfg_output_flush(out);
			len = out->len;
		}
		if (s->id != id)
			fill(s, id);
		memcpy(buf + len, s, sizeof *s);
		len += (unsigned char)s->text[sizeof s->text - 1];
	}
	out->len = len;
}
