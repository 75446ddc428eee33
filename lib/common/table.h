/*
 * Tables for scripts and for people: one writer, four formats, so that
 * every command that prints a table prints it the same way.
 *
 *   tsv    the default: what scripts read today. A head line
 *          "# TOOL VERSION KEY=VALUE ...", a "# KEY TEXT" line per note,
 *          per section a "# KEY VALUE" line per section field, then
 *          "# COLUMN<tab>COLUMN..." and the rows, tab-separated.
 *   csv    RFC 4180: one header row, fields separated by commas, records
 *          ended by CRLF, a field quoted ("", doubled inside) only when it
 *          holds a comma, a quote or a line break; no '#' lines. The
 *          metadata are columns in front of the table's own, repeated on
 *          every row: tool, version, the head's keys, the notes' keys,
 *          the section's keys, then the columns. So all the sections of
 *          one document must have the same keys and columns (a section
 *          whose columns differ gets a header row of its own). A section
 *          without rows is one record whose own cells are empty, so that
 *          its fields are not lost.
 *   json   one document: {"tool":..,"version":..,KEY:VALUE..,"tables":[
 *          {SECTION KEY:VALUE..,"rows":[{COLUMN:CELL,..},..]},..],END NOTES}.
 *          Numbers are JSON numbers (jq reads them as doubles: exact below
 *          2^53), shares too (50.06); names are strings.
 *   table  aligned columns for people: numbers right-aligned, the cells of
 *          path columns shortened from the left at a '/' (".../worker.c:36")
 *          until a row fits WIDTH (the terminal's width when the output is
 *          one, else 80), never below ".../" and the last component; each
 *          section's rows are kept until it ends, to be measured.
 *
 * Names from the input are written in the form dcfg_out_escaped gives them
 * in every format (one line, no control byte), then CSV-quoted or
 * JSON-escaped on top: nothing forges a row, a field or an escape.
 *
 * A document is: dcfg_table_open; its head fields (dcfg_table_meta_*) and
 * notes; then per section (a process's table, say) dcfg_table_section, its
 * fields, dcfg_table_columns, and the rows, cell by cell, each ended by
 * dcfg_table_end_row; then dcfg_table_close. Writing a cell allocates
 * nothing and calls no printf (the table format keeps its cells in a
 * buffer that grows). A failure to allocate is sticky: dcfg_table_close
 * then returns -1.
 */
#ifndef DCFG_TABLE_H
#define DCFG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "output.h"

enum dcfg_table_format { DCFG_TABLE_TSV, DCFG_TABLE_CSV, DCFG_TABLE_JSON, DCFG_TABLE_TABLE,
	DCFG_TABLE_FORMATS };

/* The names --format takes, for messages: "tsv, csv, json or table". */
#define DCFG_TABLE_FORMAT_NAMES "tsv, csv, json or table"

/* The format named NAME (as --format takes it): 0, or -1 for none. */
int dcfg_table_format_parse(const char *name, enum dcfg_table_format *f);
const char *dcfg_table_format_name(enum dcfg_table_format f);

/* How the table format aligns a column (the other formats ignore it). */
enum dcfg_table_kind {
	DCFG_COLUMN_NUMBER,        /* right-aligned */
	DCFG_COLUMN_TEXT,          /* left-aligned, never shortened */
	DCFG_COLUMN_PATH           /* left-aligned, shortened from the left to fit */
};

struct dcfg_table_column {
	const char *name;          /* the column's name, as TSV's "#" line and CSV's header give it */
	enum dcfg_table_kind kind;
};

/* One piece of a cell made of several (dcfg_table_pieces). */
enum dcfg_table_piece_kind {
	DCFG_PIECE_TEXT,           /* S as it is: the caller's own text, or a name escaped already */
	DCFG_PIECE_NAME,           /* S, a name from the input: escaped */
	DCFG_PIECE_U64,            /* V in decimal */
	DCFG_PIECE_HEX             /* V as 0x... */
};

struct dcfg_table_piece {
	enum dcfg_table_piece_kind kind;
	const char *s;
	uint64_t v;
};

/* Where a note goes in TSV and JSON: after the head line, or after the last section. */
enum dcfg_table_place { DCFG_TABLE_HEAD, DCFG_TABLE_END };

/* A field of the head or of a section, kept until it is written (private). */
struct dcfg_table_field {
	size_t key, value;         /* offsets in the writer's pool */
	int number;                /* the value is a decimal number */
	int note;                  /* a note (its own TSV line), not a head word */
	enum dcfg_table_place place;
};

struct dcfg_table {
	struct dcfg_output *out;
	enum dcfg_table_format format;
	unsigned width;            /* the table format's width: set by open, may be changed */
	int failed;                /* out of memory: close returns -1 */
	/* private */
	char *pool; size_t n_pool, cap_pool;              /* keys and values */
	struct dcfg_table_field *fields; size_t n_fields, cap_fields;
	size_t n_head;             /* the fields before the first section's: the document's */
	int started;               /* the head is written */
	int sections;              /* begun so far */
	size_t rows;               /* rows in the current section */
	int columned;              /* its columns are given */
	size_t cell;               /* the next cell's column */
	const struct dcfg_table_column *cols; size_t n_cols;
	const struct dcfg_table_column *csv_cols; size_t n_csv_cols;   /* of CSV's last header row */
	char *prefix; size_t n_prefix, cap_prefix;        /* CSV: each row's metadata fields */
	/* the table format: the current section's cells, each NUL-terminated */
	char *cells; size_t n_cells, cap_cells;
	size_t *cell_at; size_t n_cell_at, cap_cell_at;
};

/*
 * Starts a document of TOOL (its head: "# TOOL VERSION") in format F on
 * OUT. WIDTH is the terminal's columns when OUT is a terminal, else 80.
 */
void dcfg_table_open(struct dcfg_table *t, struct dcfg_output *out, enum dcfg_table_format f,
    const char *tool, unsigned version);

/*
 * A field of the document's head (before the first section) or of the
 * current section (after dcfg_table_section, before dcfg_table_columns):
 * KEY=VALUE on TSV's head line, or "# KEY VALUE" for a section; a CSV
 * column; a JSON field. KEY is a plain word ([a-z_] and such). TEXT is the
 * caller's own (written as it is); a NAME from the input is escaped.
 */
void dcfg_table_meta_text(struct dcfg_table *t, const char *key, const char *text);
void dcfg_table_meta_name(struct dcfg_table *t, const char *key, const char *name);
void dcfg_table_meta_u64(struct dcfg_table *t, const char *key, uint64_t v);
/* A number with decimals, as dcfg_table_fixed writes it. */
void dcfg_table_meta_fixed(struct dcfg_table *t, const char *key, double v, unsigned decimals);
/*
 * A note of the document: in TSV its own line "# KEY TEXT", after the head
 * line or (PLACE END) after the last section; a CSV column; a JSON field,
 * after the tables for END. Notes of one key are one field, their texts
 * joined by newlines (TSV: one line each). Given before the first section.
 */
void dcfg_table_note(struct dcfg_table *t, const char *key, const char *text,
    enum dcfg_table_place place);

/* A new section: the previous one ends (the table format writes it out). */
void dcfg_table_section(struct dcfg_table *t);
/* The section's N columns (COLS stays valid until the section ends): its header is written. */
void dcfg_table_columns(struct dcfg_table *t, const struct dcfg_table_column *cols, size_t n);

/* The next cell of the row. */
void dcfg_table_u64(struct dcfg_table *t, uint64_t v);
void dcfg_table_text(struct dcfg_table *t, const char *s);   /* as it is (the caller's own, or escaped) */
void dcfg_table_name(struct dcfg_table *t, const char *s);   /* a name from the input: escaped */
/* PART of TOTAL in percent, two decimals, half up: "50.06" (0.00 when TOTAL is 0). */
void dcfg_table_share(struct dcfg_table *t, uint64_t part, uint64_t total);
/* V, finite, with DECIMALS decimals (at most 18), half away from 0: "-0.012300", never "-0". */
void dcfg_table_fixed(struct dcfg_table *t, double v, unsigned decimals);
/* One cell of N pieces: "worker_main+0x1c@libc.so.6", "FILE:LINE". */
void dcfg_table_pieces(struct dcfg_table *t, const struct dcfg_table_piece *p, size_t n);
void dcfg_table_end_row(struct dcfg_table *t);

/*
 * Ends the document (the last section, the END notes, JSON's closing brace)
 * and frees the writer; OUT stays open. 0, or -1 when memory ran out.
 */
int dcfg_table_close(struct dcfg_table *t);
/* Frees the writer without writing the rest (on an error). */
void dcfg_table_free(struct dcfg_table *t);

/* The share's digits into BUF (at least 24 bytes), NUL-terminated: its length. */
size_t dcfg_table_share_text(char *buf, uint64_t part, uint64_t total);
/* dcfg_table_fixed's digits into BUF (DCFG_TABLE_FIXED_MAX bytes), NUL-terminated: its length. */
#define DCFG_TABLE_FIXED_MAX 64
size_t dcfg_table_fixed_text(char *buf, double v, unsigned decimals);

#endif
