#include "usage.h"

#include <string.h>

void
dcfg_cli_text_add(struct dcfg_cli_text *t, const char *s)
{
	size_t n = strlen(s), room = sizeof t->buf - 1 - t->len;

	if (n > room)
		n = room;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* The columns taken on the text's last line. */
static size_t
column(const struct dcfg_cli_text *t)
{
	size_t i = t->len;

	while (i > 0 && t->buf[i - 1] != '\n')
		i--;
	return t->len - i;
}

/* JOIN without its trailing blanks: what ends a line broken after it. */
static size_t
join_ink(const char *join)
{
	size_t n = strlen(join);

	while (n > 0 && join[n - 1] == ' ')
		n--;
	return n;
}

void
dcfg_cli_text_item(struct dcfg_cli_text *t, const char *join, const char *item, int last,
    int indent)
{
	size_t need, after = last || join == NULL ? 0 : join_ink(join);
	char blanks[DCFG_CLI_HELP_WIDTH + 1];

	if (join == NULL) {
		dcfg_cli_text_add(t, item);
		return;
	}
	/* the punctuation after ITEM is the next item's JOIN: its own is taken as alike */
	need = column(t) + strlen(join) + strlen(item) + after;
	if (indent >= 0 && need > DCFG_CLI_HELP_WIDTH) {
		size_t ink = join_ink(join), k = (size_t)indent < sizeof blanks - 1 ?
		    (size_t)indent : sizeof blanks - 1;
		char head[64];
		if (ink >= sizeof head)
			ink = sizeof head - 1;
		memcpy(head, join, ink);
		head[ink] = '\0';
		dcfg_cli_text_add(t, head);
		dcfg_cli_text_add(t, "\n");
		memset(blanks, ' ', k);
		blanks[k] = '\0';
		dcfg_cli_text_add(t, blanks);
	} else {
		dcfg_cli_text_add(t, join);
	}
	dcfg_cli_text_add(t, item);
}
