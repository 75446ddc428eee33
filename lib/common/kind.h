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

#include <dcfg/error.h>

enum dcfg_kind {
	DCFG_KIND_UNKNOWN,   /* nothing that tells yet: more bytes may */
	DCFG_KIND_JSON,      /* JSON with nothing that tells: its reader decides */
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
 * object do not tell yet; DCFG_KIND_JSON when no more will (the object
 * ended, or the JSON is malformed: its reader will say where).
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
 * stops the JSON parser) and has closed it: when PATH is an edge stream or
 * another kind than WANTED, ERR says so instead. ERR is left alone
 * otherwise, and always for standard input that cannot be read again.
 */
void dcfg_kind_explain(const char *path, enum dcfg_kind wanted, struct dcfg_error *err);

struct dcfg_kind_replay;

/*
 * The kind of PATH from its first bytes, for a command that reads PATH
 * next in the way the kind needs. Standard input that cannot be read
 * again (a pipe) is read by a thread that replays the bytes it looked at,
 * then the rest, on a new standard input: *REPLAY is then not NULL, and
 * dcfg_kind_replay_end() ends it. -1 with ERR set when PATH cannot be read.
 */
int dcfg_kind_probe(const char *path, enum dcfg_kind *kind,
    struct dcfg_kind_replay **replay, struct dcfg_error *err);

/*
 * After the command has read standard input (to its end, or not). -1 with
 * ERR set to the input's own error (a corrupt compressed stream, which the
 * command saw only as an early end) when there was one. NULL is a no-op.
 */
int dcfg_kind_replay_end(struct dcfg_kind_replay *r, struct dcfg_error *err);

#endif
