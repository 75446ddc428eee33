/*
 * The reader's buffer, lent to a stage's fast loop (stage.c) so that a run
 * of plain data lines costs no record each. Not in the public API: the
 * buffer belongs to the reader and moves when it reads again.
 */
#ifndef DCFG_READER_H
#define DCFG_READER_H

#include <dcfg/stream.h>

/*
 * The whole lines buffered and not yet read, [*P, *END) with END just past
 * a '\n', when no run is open (a run's lines are checked one by one). 0
 * when there are none: dcfg_stream_next reads on.
 */
int dcfg_stream_peek_lines(struct dcfg_stream *s, const char **p, const char **end);
/* The LINES lines of the peeked span before UPTO (the start of a line in it) are read. */
void dcfg_stream_skip_lines(struct dcfg_stream *s, const char *upto, unsigned long lines);
/* The number of the last line read. */
unsigned long dcfg_stream_lineno(const struct dcfg_stream *s);

#endif
