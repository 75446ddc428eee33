/*
 * Usage and help texts made from a table (the kinds of dcfg-count --by,
 * the formats of dcfg-convert --to), so that the table is the one list of
 * names: lists joined as prose, wrapped as the help texts are.
 */
#ifndef DCFG_CLI_USAGE_H
#define DCFG_CLI_USAGE_H

#include <stddef.h>

/* Help lines are at most this many columns wide. */
#define DCFG_CLI_HELP_WIDTH 80

/* A text being made, cut at its size (a help text is a third of it). */
struct dcfg_cli_text {
	char buf[4096];
	size_t len;
};

/* Appends S. */
void dcfg_cli_text_add(struct dcfg_cli_text *t, const char *s);
/*
 * Appends ITEM of a list, after JOIN unless it is the first (JOIN NULL).
 * With INDENT >= 0 the line breaks before ITEM when ITEM, and the
 * punctuation of the JOIN after it (unless it is the LAST), would pass
 * DCFG_CLI_HELP_WIDTH: JOIN's trailing blanks are dropped and the next line
 * starts INDENT blanks in.
 */
void dcfg_cli_text_item(struct dcfg_cli_text *t, const char *join, const char *item, int last,
    int indent);

#endif
