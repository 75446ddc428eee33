/*
 * A schema-driven walker over yajl's SAX callbacks for the DCFG family of
 * formats: objects with known keys, tables whose columns are found by the
 * header row's names (spec 1.2.2), integers that may be JSON numbers or
 * C-style strings (spec 1.2.1), and arrays of integers. Unknown keys and
 * columns are skipped, so newer files still load (spec 2.3).
 *
 * The caller describes the format once as a tree of const fields and gets
 * callbacks with each field's id, like yajl's own callbacks struct plus a
 * context pointer. Nesting is tracked on an explicit, bounded stack.
 */
#ifndef DCFG_JSON_H
#define DCFG_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>
#include "input.h"

enum dcfg_json_kind {
	DCFG_JSON_SKIP,       /* any value, ignored */
	DCFG_JSON_INT,        /* unsigned 64-bit integer: number or C-style string */
	DCFG_JSON_STRING,
	DCFG_JSON_INT_ARRAY,  /* array of integers */
	DCFG_JSON_OBJECT,     /* object whose keys are the schema's fields */
	DCFG_JSON_TABLE,      /* header row, then rows; columns are the schema's fields */
	DCFG_JSON_DICT        /* object of any keys with string values */
};

struct dcfg_json_schema;

struct dcfg_json_field {
	const char *name;                        /* key or column header */
	int id;                                  /* handed to the callbacks */
	enum dcfg_json_kind kind;
	const struct dcfg_json_schema *schema;   /* for objects and tables */
	int required;                            /* key must appear; column must be in header and row */
};

struct dcfg_json_schema {
	const struct dcfg_json_field *fields;
	int n_fields;                            /* at most 64 */
};

/*
 * A format described as const data, e.g.
 *   DCFG_JSON_SCHEMA(threads,
 *       DCFG_JSON_FIELD("THREAD_ID", TH_ID, DCFG_JSON_INT, NULL, 1),
 *       DCFG_JSON_FIELD("TRACE_DATA", TH_TRACE, DCFG_JSON_TABLE, &chunks, 1));
 * defines the static schema THREADS over a static array of its fields.
 */
#define DCFG_JSON_FIELD(name, id, kind, schema, req) { name, id, kind, schema, req }
#define DCFG_JSON_SCHEMA(name, ...) \
	static const struct dcfg_json_field name##_fields[] = { __VA_ARGS__ }; \
	static const struct dcfg_json_schema name = { name##_fields, \
	    (int)(sizeof name##_fields / sizeof name##_fields[0]) }

/* Return values of the callbacks. */
#define DCFG_JSON_OK    0
#define DCFG_JSON_DROP  1    /* from begin: skip this value unread */
#define DCFG_JSON_STOP  2    /* stop reading, without an error */
#define DCFG_JSON_ERROR (-1) /* after calling dcfg_json_fail() */

struct dcfg_json_handler {
	int (*begin)(void *ctx, int id);         /* object, table or integer array starts */
	int (*end)(void *ctx, int id);
	int (*row_begin)(void *ctx, int table_id);
	int (*row_end)(void *ctx, int table_id);
	int (*integer)(void *ctx, int id, uint64_t value);
	int (*string)(void *ctx, int id, const char *s, size_t len);
	/* A dictionary entry; KEY is valid only during the call. */
	int (*entry)(void *ctx, int id, const char *key, size_t key_len,
	    const char *value, size_t len);
	/* A table's header row is complete: see dcfg_json_column(). */
	int (*header)(void *ctx, int table_id);
	void (*progress)(void *ctx, uint64_t bytes); /* bytes of the file so far */
	/*
	 * What the reader reads (enum dcfg_kind, kind.h; 0: unsaid): input
	 * that starts with an edge stream's '#' is then reported as
	 * "this is an edge stream, not WANTS", also from a pipe.
	 */
	int wants;
};

struct dcfg_json;

struct dcfg_json *dcfg_json_new(const struct dcfg_json_field *root,
    const struct dcfg_json_handler *handler, void *ctx);
void dcfg_json_free(struct dcfg_json *j);

/*
 * Parses all of IN. Returns 0; 1 when a callback returned DCFG_JSON_STOP;
 * or -1 with ERR set to the offending token's place.
 */
int dcfg_json_parse(struct dcfg_json *j, struct dcfg_input *in,
    struct dcfg_error *err);

/*
 * For callbacks: records an error at the current token, prefixed by where
 * it is ("PROCESSES[1].PROCESS_DATA.EDGES[3].TARGET_NODE_ID: ..."). Returns
 * DCFG_JSON_ERROR.
 */
int dcfg_json_fail(struct dcfg_json *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Like dcfg_json_fail(), at a place taken earlier by dcfg_json_position(). */
int dcfg_json_fail_at(struct dcfg_json *j, unsigned long line,
    unsigned long column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Where the token being handled starts. */
void dcfg_json_position(struct dcfg_json *j, unsigned long *line,
    unsigned long *column);

/* Where the innermost object, table or array being read starts. */
void dcfg_json_value_position(struct dcfg_json *j, unsigned long *line,
    unsigned long *column);

/* Where the header row just read (during the header callback) starts. */
void dcfg_json_header_position(const struct dcfg_json *j, unsigned long *line,
    unsigned long *column);

/* In the innermost table, the header position of the column with ID, or -1. */
int dcfg_json_column(const struct dcfg_json *j, int id);

/* 1-based number of the data row being read in the innermost table. */
unsigned long dcfg_json_row(const struct dcfg_json *j);

/*
 * Integer syntax, shared with command-line parsing. A JSON number must be
 * a non-negative integer; a string may be decimal, 0x-hex or 0-octal, as in
 * C. Both fit in 64 bits. Return 0, or -1 with *why set.
 */
int dcfg_parse_json_number(const char *s, size_t len, uint64_t *value,
    const char **why);
int dcfg_parse_c_integer(const char *s, size_t len, uint64_t *value,
    const char **why);

#endif
