/*
 * The reading loop: the input in chunks through yajl, and what is said of
 * input that is no JSON object at all, or empty. The walk is in json.c.
 */
#include "json_internal.h"

#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "kind.h"

/*
 * A reader that says what it wants is given something else when the data
 * does not start with an object: binary data, an array, a number (an edge
 * stream's '#' is told apart where yajl stops on it). Called with each
 * chunk of data until it sets *BEGUN: the first byte that is not white
 * space was seen.
 */
static int
starts_as_object(struct dcfg_json *j, const unsigned char *buf, size_t n, int *begun)
{
	unsigned long line = j->line, column = j->column;
	size_t i;

	for (i = 0; i < n && buf[i] != '\0' && strchr(" \t\r\n", buf[i]); i++) {
		column++;
		if (buf[i] == '\n') {
			line++;
			column = 1;
		}
	}
	if (i == n)
		return 1;
	*begun = 1;
	if (!j->h->wants || buf[i] == '{' || buf[i] == '#')
		return 1;
	dcfg_kind_error(j->err, j->file, line, column, DCFG_KIND_OTHER,
	    (enum dcfg_kind)j->h->wants);
	return 0;
}

int
dcfg_json_parse(struct dcfg_json *j, struct dcfg_input *in,
    struct dcfg_error *err)
{
	unsigned char *buf = malloc(CHUNK_SIZE);
	uint64_t total = 0;
	ssize_t n;
	yajl_status st;
	int begun = 0;

	j->err = err;
	j->file = dcfg_input_name(in);
	j->line = j->column = 1;
	if (buf == NULL)
		return dcfg_error_set(err, j->file, "out of memory");
	for (;;) {
		n = dcfg_input_read(in, buf, CHUNK_SIZE, err);
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		j->chunk = buf;
		j->scan_off = 0;
		j->scan_line = j->line;
		j->scan_column = j->column;
		if (!begun && !starts_as_object(j, buf, (size_t)n, &begun))
			goto fail;
		st = yajl_parse(j->yajl, buf, (size_t)n);
		if (st != yajl_status_ok && j->stopped && !j->failed) {
			free(buf);
			return 1;
		}
		if (st != yajl_status_ok) {
			if (!j->failed)
				dcfg_json_yajl_failure(j, (size_t)n);
			goto fail;
		}
		/* The chunk goes: the frames still open take their places in it now, in order. */
		for (int i = 0; i < j->depth; i++)
			dcfg_json_place(j, &j->frames[i]);
		dcfg_json_position_at(j, (size_t)n, &j->line, &j->column);
		total += (uint64_t)n;
		if (j->h->progress)
			j->h->progress(j->ctx, dcfg_input_raw_bytes(in));
	}
	j->chunk = NULL;
	if (total == 0 || (!begun && j->h->wants)) {
		if (j->h->wants)
			dcfg_kind_error(err, j->file, 0, 0, DCFG_KIND_EMPTY,
			    (enum dcfg_kind)j->h->wants);
		else
			dcfg_error_set(err, j->file, "empty input: no JSON value");
		goto fail;
	}
	if (yajl_complete_parse(j->yajl) != yajl_status_ok) {
		if (!j->failed) {
			j->tok = T_OTHER;
			j->tok_len = 0;
			dcfg_json_fail(j, "unexpected end of input: the JSON text is incomplete");
		}
		goto fail;
	}
	free(buf);
	return 0;
fail:
	free(buf);
	return -1;
}
