/*
 * Lines of a text file, plain or compressed (input.h), one at a time, for
 * readers of dcfg-tools' own text outputs. A line may be long (a basic-block
 * vector), but never longer than DCFG_TEXT_LINE_MAX bytes.
 */
#ifndef DCFG_TEXTLINES_H
#define DCFG_TEXTLINES_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>

#define DCFG_TEXT_LINE_MAX ((size_t)1 << 28)

struct dcfg_textlines;

/* Opens PATH ("-": standard input). NULL with ERR set. */
struct dcfg_textlines *dcfg_textlines_open(const char *path, struct dcfg_error *err);
/*
 * 1 with the next line in *LINE (NUL-terminated, without its newline, valid
 * until the next call) and its length in *LEN; 0 at the end; -1 with ERR set
 * (a read error, a NUL byte, or a line over DCFG_TEXT_LINE_MAX).
 */
int dcfg_textlines_next(struct dcfg_textlines *t, char **line, size_t *len,
    struct dcfg_error *err);
/* The number of the line last returned, from 1. */
unsigned long dcfg_textlines_lineno(const struct dcfg_textlines *t);
const char *dcfg_textlines_name(const struct dcfg_textlines *t);
void dcfg_textlines_close(struct dcfg_textlines *t);

/*
 * The LEN bytes at S as a decimal number written by the tools: digits, no
 * leading zero, below 2^64. 0 with *V set, or -1.
 */
int dcfg_textlines_number(const char *s, size_t len, uint64_t *v);

#endif
