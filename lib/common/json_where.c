/*
 * Where the parser is, and its messages: yajl's byte offsets turned into
 * line:column in one forward pass, the path of keys and rows leading to a
 * value, and yajl's own errors placed at the token they are about.
 */
#include "json_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kind.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

/* The newlines in P[0..N): sixteen bytes at a time where SSE2 is. */
static unsigned long
count_newlines(const unsigned char *p, size_t n)
{
	unsigned long c = 0;
	size_t i = 0;

#if defined(__SSE2__) && defined(__x86_64__)
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (n - i >= 16) {
		size_t k, blocks = (n - i) / 16 > 255 ? 255 : (n - i) / 16;
		__m128i acc = zero, sum;
		for (k = 0; k < blocks; k++, i += 16)   /* each byte of ACC counts to 255 at most */
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)(p + i)), nl));
		sum = _mm_sad_epu8(acc, zero);
		c += (unsigned long)_mm_cvtsi128_si64(sum) +
		    (unsigned long)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
	}
#endif
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

static void
advance(unsigned long *line, unsigned long *column, const unsigned char *p,
    size_t n)
{
	const unsigned char *end = p + n, *q = end;

	while (q > p && q[-1] != '\n')   /* the last line starts at Q */
		q--;
	if (q == p) {
		*column += (unsigned long)n;
		return;
	}
	*line += count_newlines(p, (size_t)(q - p));
	*column = 1 + (unsigned long)(end - q);
}

/* Raw length of the string token ending just before OFF, when it is all in this chunk. */
static size_t
string_token_length(const unsigned char *chunk, size_t off)
{
	size_t i, slashes;

	if (off < 2 || chunk[off - 1] != '"')
		return 0;
	for (i = off - 1; i-- > 0;) {
		if (chunk[i] != '"')
			continue;
		for (slashes = 0; slashes < i && chunk[i - 1 - slashes] == '\\'; slashes++)
			;
		if (slashes % 2 == 0)
			return off - i;
	}
	return 0;
}

void
dcfg_json_position_at(struct dcfg_json *j, size_t off, unsigned long *line,
    unsigned long *column)
{
	if (j->chunk == NULL) {
		*line = j->line;
		*column = j->column;
		return;
	}
	if (off < j->scan_off) {   /* yajl moved back to a token's start */
		j->scan_off = 0;
		j->scan_line = j->line;
		j->scan_column = j->column;
	}
	advance(&j->scan_line, &j->scan_column, j->chunk + j->scan_off, off - j->scan_off);
	j->scan_off = off;
	*line = j->scan_line;
	*column = j->scan_column;
}

void
dcfg_json_token_position(struct dcfg_json *j, unsigned long *line, unsigned long *column)
{
	if (j->at_key) {
		*line = j->key_line;
		*column = j->key_column;
		return;
	}
	size_t off = j->chunk ? yajl_get_bytes_consumed(j->yajl) : 0;
	size_t len = j->tok_len, raw;

	/*
	 * A string's raw length, escapes included, when it starts in this
	 * chunk; one that began in an earlier chunk is taken as its decoded
	 * length and quotes (exact unless it holds escapes).
	 */
	if (j->tok == T_STRING && j->chunk && (raw = string_token_length(j->chunk, off)) > 0)
		len = raw;

	dcfg_json_position_at(j, off, line, column);
	/* Tokens never span lines, so the start is on the same line. */
	if (len > 0 && *column > len)
		*column -= len;
}

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Characters of numbers and literals. */
static int
is_word_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '+';
}

static size_t
append(char *buf, size_t size, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= size)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
	return n < 0 ? at : at + (size_t)n;
}

static size_t
format_path(const struct dcfg_json *j, char *buf, size_t size)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < j->depth; i++) {
		const struct frame *f = &j->frames[i];
		const struct frame *table = i > 0 ? &j->frames[i - 1] : NULL;
		switch (f->kind) {
		case F_OBJECT:
			if (f->cur)
				at = append(buf, size, at, "%s%s", at ? "." : "", f->cur->name);
			break;
		case F_TABLE:
			break;
		case F_HEADER:
			at = append(buf, size, at, "[header]");
			break;
		case F_ROW:
			at = append(buf, size, at, "[%lu]", table->count);
			if (f->count > 0 && f->count <= table->ncols &&
			    table->colmap[f->count - 1] != NO_COLUMN)
				at = append(buf, size, at, ".%s",
				    table->field->schema->fields[table->colmap[f->count - 1]].name);
			break;
		case F_INT_ARRAY:
			if (f->count > 0)
				at = append(buf, size, at, "[%lu]", f->count - 1);
			break;
		case F_DICT:
			break;
		}
	}
	return at;
}

static int
vfail_at(struct dcfg_json *j, unsigned long line, unsigned long column,
    const char *fmt, va_list ap)
{
	char path[256], msg[384];

	if (j->failed)
		return DCFG_JSON_ERROR;
	vsnprintf(msg, sizeof msg, fmt, ap);
	format_path(j, path, sizeof path);
	dcfg_error_at(j->err, j->file, line, column, "%s%s%s", path,
	    path[0] ? ": " : "", msg);
	j->failed = 1;
	return DCFG_JSON_ERROR;
}

int
dcfg_json_fail(struct dcfg_json *j, const char *fmt, ...)
{
	unsigned long line, column;
	va_list ap;
	int rc;

	dcfg_json_token_position(j, &line, &column);
	va_start(ap, fmt);
	rc = vfail_at(j, line, column, fmt, ap);
	va_end(ap);
	return rc;
}

int
dcfg_json_fail_at(struct dcfg_json *j, unsigned long line, unsigned long column,
    const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail_at(j, line, column, fmt, ap);
	va_end(ap);
	return rc;
}

void
dcfg_json_position(struct dcfg_json *j, unsigned long *line,
    unsigned long *column)
{
	dcfg_json_token_position(j, line, column);
}

void
dcfg_json_place(struct dcfg_json *j, struct frame *f)
{
	if (f->line != 0)
		return;
	/* As dcfg_json_token_position() for the one-byte token before OFF. */
	dcfg_json_position_at(j, f->off, &f->line, &f->column);
	if (f->column > 1)
		f->column--;
}

void
dcfg_json_value_position(struct dcfg_json *j, unsigned long *line,
    unsigned long *column)
{
	if (j->depth > 0)
		dcfg_json_place(j, &j->frames[j->depth - 1]);
	*line = j->depth > 0 ? j->frames[j->depth - 1].line : 1;
	*column = j->depth > 0 ? j->frames[j->depth - 1].column : 1;
}

void
dcfg_json_header_position(const struct dcfg_json *j, unsigned long *line,
    unsigned long *column)
{
	*line = j->header_line;
	*column = j->header_column;
}

int
dcfg_json_column(const struct dcfg_json *j, int id)
{
	const struct frame *t;
	unsigned pos;
	int i;

	for (i = j->depth - 1; i >= 0 && j->frames[i].kind != F_TABLE; i--)
		;
	if (i < 0)
		return -1;
	t = &j->frames[i];
	for (pos = 0; pos < t->ncols; pos++)
		if (t->colmap[pos] != NO_COLUMN &&
		    t->field->schema->fields[t->colmap[pos]].id == id)
			return (int)pos;
	return -1;
}

/* An error about a whole row or header, placed at its opening bracket. */
int
dcfg_json_fail_at_frame(struct dcfg_json *j, struct frame *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

int
dcfg_json_fail_at_frame(struct dcfg_json *j, struct frame *f, const char *fmt, ...)
{
	va_list ap;
	int rc;

	dcfg_json_place(j, f);
	va_start(ap, fmt);
	rc = vfail_at(j, f->line, f->column, fmt, ap);
	va_end(ap);
	return rc;
}

unsigned long
dcfg_json_row(const struct dcfg_json *j)
{
	int i;

	for (i = j->depth - 1; i >= 0; i--)
		if (j->frames[i].kind == F_TABLE)
			return j->frames[i].count;
	return 0;
}

/*
 * yajl's own message without its "parse error: " decoration, at the offset
 * yajl reports.
 */
int
dcfg_json_yajl_failure(struct dcfg_json *j, size_t len)
{
	unsigned char *msg = yajl_get_error(j->yajl, 0, j->chunk, len);
	const char *text = (const char *)msg, *colon;
	size_t off = yajl_get_bytes_consumed(j->yajl), start;
	char clean[200];
	int n;

	if ((colon = strstr(text, "error: ")) != NULL)
		text = colon + strlen("error: ");
	n = snprintf(clean, sizeof clean, "%s", text);
	yajl_free_error(j->yajl, msg);
	while (n > 0 && (clean[n - 1] == '\n' || clean[n - 1] == ' '))
		clean[--n] = '\0';
	j->tok = T_OTHER;
	j->tok_len = 0;
	/* yajl stops after the bad token, or at its start after whitespace. */
	if (off > 0 && off <= len && j->chunk[off - 1] == '"') {
		j->tok = T_STRING;
	} else if (off > 0 && off <= len && !is_space(j->chunk[off - 1])) {
		for (start = off - 1; start > 0 && is_word_char(j->chunk[start]) &&
		    is_word_char(j->chunk[start - 1]); start--)
			;
		j->tok_len = off - start;
	}
	/* Not JSON at all but an edge stream: say that, not where JSON broke. */
	if (j->h->wants && j->line == 1 && j->column == 1 && j->scan_off == 0) {
		for (start = 0; start < len && is_space(j->chunk[start]); start++)
			;
		if (start < len && j->chunk[start] == '#') {
			j->failed = 1;
			return dcfg_kind_error(j->err, j->file, 1, start + 1, DCFG_KIND_STREAM,
			    (enum dcfg_kind)j->h->wants);
		}
	}
	return dcfg_json_fail(j, "invalid JSON: %s", clean);
}

/* ---- what a value should have been ---- */

static const char *const kind_names[] = {
	[DCFG_JSON_SKIP] = "any value",
	[DCFG_JSON_INT] = "an integer",
	[DCFG_JSON_STRING] = "a string",
	[DCFG_JSON_INT_ARRAY] = "an array of integers",
	[DCFG_JSON_OBJECT] = "an object",
	[DCFG_JSON_TABLE] = "a table (an array of rows)",
	[DCFG_JSON_DICT] = "an object of strings",
};

const char *
dcfg_json_found_name(enum token tok, int container)
{
	if (container == 1)
		return "an object";
	if (container == 2)
		return "an array";
	return tok == T_STRING ? "a string" : tok == T_NUMBER ? "a number" :
	    "a literal (null, true or false)";
}

int
dcfg_json_wrong_type(struct dcfg_json *j, const struct dcfg_json_field *fld,
    enum token tok, int container)
{
	return dcfg_json_fail(j, "expected %s, found %s", kind_names[fld->kind],
	    dcfg_json_found_name(tok, container));
}
