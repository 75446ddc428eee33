/*
 * Which of the project's file kinds a file is: a DCFG, a DCFG-trace or an
 * edge stream, so that a command given one where it expects another says
 * so in words instead of failing on the first key it does not know.
 *
 * A DCFG is told by its top-level keys FILE_NAMES, EDGE_TYPES or
 * SPECIAL_NODES, or by a PROCESS_DATA column in its PROCESSES header; a
 * DCFG-trace by the STRING_DICTIONARY, TRANSITION_TABLE or THREAD_DATA
 * columns of its PROCESSES header; an edge stream by its '#' first line.
 * The JSON readers find these in their own pass (dcfg_kind_of_key() and
 * dcfg_kind_of_column() name them); a reader that has the first bytes
 * looks at them with dcfg_kind_sniff().
 */
#ifndef DCFG_KIND_H
#define DCFG_KIND_H

#include <stddef.h>

#include "error.h"

enum dcfg_kind {
	DCFG_KIND_UNKNOWN,   /* a JSON object with nothing that tells */
	DCFG_KIND_DCFG,
	DCFG_KIND_TRACE,
	DCFG_KIND_STREAM,
	DCFG_KIND_OTHER,     /* neither JSON nor an edge stream */
	DCFG_KIND_EMPTY      /* no data, or only white space */
};

/* "a DCFG", "a DCFG-trace", "an edge stream", ... */
const char *dcfg_kind_name(enum dcfg_kind kind);

/* The kind a top-level key marks, or DCFG_KIND_UNKNOWN. */
enum dcfg_kind dcfg_kind_of_key(const char *name, size_t len);

/* The kind a column of the PROCESSES header marks, or DCFG_KIND_UNKNOWN. */
enum dcfg_kind dcfg_kind_of_column(const char *name, size_t len);

/*
 * The kind of data that begins with BUF (decompressed), LEN bytes of it;
 * AT_END when there is no more. DCFG_KIND_UNKNOWN when LEN bytes of a JSON
 * object do not tell (or the JSON is malformed: its reader will say where).
 */
enum dcfg_kind dcfg_kind_sniff(const char *buf, size_t len, int at_end);

/*
 * Sets ERR to "this is FOUND, not WANTED (what to do)" at LINE:COLUMN (0:
 * no place) of FILE. Returns -1.
 */
int dcfg_kind_error(struct dcfg_error *err, const char *file, unsigned long line,
    unsigned long column, enum dcfg_kind found, enum dcfg_kind wanted);

/*
 * The kind of PATH (NULL or "-": standard input, which must be a file that
 * can be read again: else DCFG_KIND_UNKNOWN), from its first bytes, read
 * and decompressed afresh. -1 with ERR set when it cannot be read.
 */
int dcfg_kind_of_file(const char *path, enum dcfg_kind *kind, struct dcfg_error *err);

/*
 * A JSON reader failed on PATH with ERR at 1:1 (where an edge stream's '#'
 * stops the JSON parser): when PATH is an edge stream or another kind
 * than WANTED, ERR says so instead. ERR is left alone otherwise.
 */
void dcfg_kind_explain(const char *path, enum dcfg_kind wanted, struct dcfg_error *err);

#endif
