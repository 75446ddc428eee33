/*
 * table-write FORMAT [WIDTH] < SCRIPT: drives the table writer
 * (lib/common/table.h) for t/table.bats. Each line of SCRIPT is a call,
 * its words separated by tabs; in a word \xHH, \t, \n and \\ stand for
 * those bytes, so that names can hold any byte:
 *   open TOOL VERSION | meta KEY TEXT | metaname KEY NAME | metau KEY N
 *   metafixed KEY V DECIMALS
 *   note KEY TEXT | endnote KEY TEXT | section
 *   columns NAME:KIND...   (KIND: n number, t text, p path)
 *   u N | text S | name S | share PART TOTAL | fixed V DECIMALS | pieces (t:S|n:S|u:N|h:N)... | row
 * The document is closed at the end of the script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/table.h"

#define MAX_WORDS 32

static void
unescape(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] == 'x' && s[2] && s[3]) {
			char hex[3] = { s[2], s[3], 0 };
			*w++ = (char)strtoul(hex, NULL, 16);
			s += 4;
		} else if (s[0] == '\\' && (s[1] == 't' || s[1] == 'n' || s[1] == '\\')) {
			*w++ = s[1] == 't' ? '\t' : s[1] == 'n' ? '\n' : '\\';
			s += 2;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

int
main(int argc, char **argv)
{
	static struct dcfg_output out;
	static struct dcfg_table_column cols[MAX_WORDS];
	static char names[MAX_WORDS][64];
	struct dcfg_table t;
	struct dcfg_table_piece pieces[MAX_WORDS];
	struct dcfg_error err;
	enum dcfg_table_format f;
	char line[4096], *w[MAX_WORDS], *save;
	int n, i, opened = 0;

	if (argc < 2 || dcfg_table_format_parse(argv[1], &f) < 0) {
		fprintf(stderr, "usage: table-write %s [WIDTH] < SCRIPT\n", DCFG_TABLE_FORMAT_NAMES);
		return 2;
	}
	if (dcfg_output_open(&out, NULL, &err) < 0)
		return 2;
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		for (n = 0, save = NULL; n < MAX_WORDS &&
		    (w[n] = strtok_r(n ? NULL : line, "\t", &save)) != NULL; n++)
			unescape(w[n]);
		if (n == 0)
			continue;
		if (strcmp(w[0], "open") == 0 && n == 3) {
			dcfg_table_open(&t, &out, f, w[1], (unsigned)strtoul(w[2], NULL, 10));
			if (argc > 2)
				t.width = (unsigned)strtoul(argv[2], NULL, 10);
			opened = 1;
		} else if (!opened) {
			fprintf(stderr, "table-write: open first\n");
			return 2;
		} else if (strcmp(w[0], "meta") == 0 && n == 3) {
			dcfg_table_meta_text(&t, w[1], w[2]);
		} else if (strcmp(w[0], "metaname") == 0 && n == 3) {
			dcfg_table_meta_name(&t, w[1], w[2]);
		} else if (strcmp(w[0], "metafixed") == 0 && n == 4) {
			dcfg_table_meta_fixed(&t, w[1], strtod(w[2], NULL), (unsigned)strtoul(w[3], NULL, 10));
		} else if (strcmp(w[0], "metau") == 0 && n == 3) {
			dcfg_table_meta_u64(&t, w[1], strtoull(w[2], NULL, 10));
		} else if ((strcmp(w[0], "note") == 0 || strcmp(w[0], "endnote") == 0) && n == 3) {
			dcfg_table_note(&t, w[1], w[2], w[0][0] == 'e' ? DCFG_TABLE_END : DCFG_TABLE_HEAD);
		} else if (strcmp(w[0], "section") == 0) {
			dcfg_table_section(&t);
		} else if (strcmp(w[0], "columns") == 0) {
			for (i = 1; i < n; i++) {
				char *c = strrchr(w[i], ':');
				snprintf(names[i - 1], sizeof names[i - 1], "%.*s",
				    c ? (int)(c - w[i]) : (int)strlen(w[i]), w[i]);
				cols[i - 1].name = names[i - 1];
				cols[i - 1].kind = c && c[1] == 'n' ? DCFG_COLUMN_NUMBER :
				    c && c[1] == 'p' ? DCFG_COLUMN_PATH : DCFG_COLUMN_TEXT;
			}
			dcfg_table_columns(&t, cols, (size_t)(n - 1));
		} else if (strcmp(w[0], "u") == 0 && n == 2) {
			dcfg_table_u64(&t, strtoull(w[1], NULL, 10));
		} else if (strcmp(w[0], "text") == 0) {
			dcfg_table_text(&t, n > 1 ? w[1] : "");
		} else if (strcmp(w[0], "name") == 0) {
			dcfg_table_name(&t, n > 1 ? w[1] : "");
		} else if (strcmp(w[0], "share") == 0 && n == 3) {
			dcfg_table_share(&t, strtoull(w[1], NULL, 10), strtoull(w[2], NULL, 10));
		} else if (strcmp(w[0], "fixed") == 0 && n == 3) {
			dcfg_table_fixed(&t, strtod(w[1], NULL), (unsigned)strtoul(w[2], NULL, 10));
		} else if (strcmp(w[0], "pieces") == 0) {
			for (i = 1; i < n; i++) {
				char k = w[i][0];
				pieces[i - 1].kind = k == 'n' ? DCFG_PIECE_NAME : k == 'u' ? DCFG_PIECE_U64 :
				    k == 'h' ? DCFG_PIECE_HEX : DCFG_PIECE_TEXT;
				pieces[i - 1].s = w[i] + 2;
				pieces[i - 1].v = strtoull(w[i] + 2, NULL, 10);
			}
			dcfg_table_pieces(&t, pieces, (size_t)(n - 1));
		} else if (strcmp(w[0], "row") == 0) {
			dcfg_table_end_row(&t);
		} else {
			fprintf(stderr, "table-write: not a call: %s\n", w[0]);
			return 2;
		}
	}
	if (opened && dcfg_table_close(&t) < 0) {
		fprintf(stderr, "table-write: out of memory\n");
		return 1;
	}
	if (dcfg_output_close(&out, &err) < 0)
		return 1;
	return 0;
}
