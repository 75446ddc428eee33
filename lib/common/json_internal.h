/*
 * What json.c (the walk) and json_where.c (positions and messages) share:
 * the parser's state. Not part of the library's interface.
 */
#ifndef DCFG_JSON_INTERNAL_H
#define DCFG_JSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <yajl/yajl_parse.h>

#include "json.h"

#define MAX_FRAMES   48      /* deeper than any schema; frames follow the schema only */
#define MAX_SKIP     10000   /* nesting allowed inside skipped values */
#define MAX_COLUMNS  64
#define CHUNK_SIZE   (256 * 1024)
#define NO_COLUMN    0xff

enum frame_kind { F_OBJECT, F_TABLE, F_HEADER, F_ROW, F_INT_ARRAY, F_DICT };

struct frame {
	enum frame_kind kind;
	const struct dcfg_json_field *field;  /* the object, table or array itself */
	const struct dcfg_json_field *cur;    /* object: field of the current key */
	uint64_t seen;                        /* object: keys seen; table: columns in header */
	unsigned long count;                  /* table: data rows; header/row/array: values */
	unsigned ncols;                       /* table: header length */
	unsigned need;                        /* table: 1 + last position of a required column */
	unsigned long line, column;           /* where the frame's '[' or '{' is; line 0: not yet */
	size_t off;                           /* ... at OFF in the chunk (dcfg_json_place) */
	uint8_t colmap[MAX_COLUMNS];          /* table: header position -> field index; last */
	const struct dcfg_json_field *ints[MAX_COLUMNS];  /* table: the integer columns' fields */
};

enum token { T_OTHER, T_STRING, T_NUMBER };

struct dcfg_json {
	const struct dcfg_json_field *root;
	const struct dcfg_json_handler *h;
	void *ctx;
	yajl_handle yajl;
	struct frame frames[MAX_FRAMES];
	int depth;                 /* frames in use */
	struct frame *top;         /* the innermost, &frames[depth - 1]; NULL when depth is 0 */
	unsigned long skip;        /* > 0: inside a skipped container this deep */
	int got_root;

	const char *file;
	struct dcfg_error *err;
	int failed;
	int stopped;               /* a callback asked to stop */
	char *key;                 /* a dictionary's current key */
	size_t key_len, key_cap;

	/*
	 * Turning yajl's offsets into line:column: the place of the chunk's
	 * first byte, and a cursor that only moves forward within the chunk,
	 * so that finding every token's place costs one pass over the text.
	 */
	const unsigned char *chunk;
	unsigned long line, column;
	size_t scan_off;
	unsigned long scan_line, scan_column;
	unsigned long header_line, header_column;  /* of the header just read */
	unsigned long key_line, key_column;        /* of a dictionary's current key */
	int at_key;                /* errors of a dictionary entry are placed at its key */
	enum token tok;              /* kind of the token being handled */
	size_t tok_len;              /* its length when known (numbers, punctuation) */
};

/* Line and column of byte OFF of the chunk being parsed (a cursor that only moves forward). */
void dcfg_json_position_at(struct dcfg_json *j, size_t off, unsigned long *line,
    unsigned long *column);
/* Where the token being handled starts (a dictionary entry's errors: its key). */
void dcfg_json_token_position(struct dcfg_json *j, unsigned long *line, unsigned long *column);
/*
 * Sets F's line and column from its offset in the chunk. Frames are placed
 * only when asked or when the chunk is done, not as they open: most rows
 * close with no error, and never need a place.
 */
void dcfg_json_place(struct dcfg_json *j, struct frame *f);
/* An error about a whole row or header, placed at its opening bracket. */
int dcfg_json_fail_at_frame(struct dcfg_json *j, struct frame *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* yajl refused the chunk of LEN bytes: its message, placed at the bad token. */
int dcfg_json_yajl_failure(struct dcfg_json *j, size_t len);
/* What a token is, in a message: a string, a number, a literal; CONTAINER 1 an object, 2 an array. */
const char *dcfg_json_found_name(enum token tok, int container);
/* "expected KIND, found ..." for field FLD. */
int dcfg_json_wrong_type(struct dcfg_json *j, const struct dcfg_json_field *fld, enum token tok,
    int container);
/* Column name S (LEN bytes) of the header being read (json_header.c): 1 go on, 0 failed. */
int dcfg_json_header_name(struct dcfg_json *j, const char *s, size_t len);

#endif
