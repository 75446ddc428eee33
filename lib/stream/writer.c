#include "writer.h"

/* A literal's bytes without its NUL: no strlen on the per-line path. */
#define LITERAL(out, s) dcfg_out_bytes((out), (s), sizeof(s) - 1)

static void
word_line(struct dcfg_output *out, const char *lead, size_t len, uint64_t v)
{
	dcfg_out_bytes(out, lead, len);
	dcfg_out_u64(out, v);
	dcfg_out_char(out, '\n');
}

#define WORD_LINE(out, lead, v) word_line((out), (lead), sizeof(lead) - 1, (v))

void
dcfg_stream_write_header(struct dcfg_output *out, int version)
{
	if (version >= 2)
		LITERAL(out, "# dcfg-stream 2\n");
	else
		LITERAL(out, "# dcfg-stream 1\n");
}

void
dcfg_stream_write_fields(struct dcfg_output *out, const char *names)
{
	LITERAL(out, "# fields ");
	dcfg_out_str(out, names);
	dcfg_out_char(out, '\n');
}

void
dcfg_stream_write_fields_after(struct dcfg_output *out,
    const struct dcfg_stream_record *theirs, const char *names)
{
	if (theirs) {
		dcfg_out_bytes(out, theirs->line, theirs->len);
		dcfg_out_char(out, ' ');
	} else {
		LITERAL(out, "# fields edge ");
	}
	dcfg_out_str(out, names);
	dcfg_out_char(out, '\n');
}

void
dcfg_stream_write_process(struct dcfg_output *out, uint64_t pid)
{
	WORD_LINE(out, "# process ", pid);
}

void
dcfg_stream_write_thread(struct dcfg_output *out, uint64_t tid)
{
	WORD_LINE(out, "# thread ", tid);
}

void
dcfg_stream_write_chunk(struct dcfg_output *out, uint64_t preceding, uint64_t instrs,
    uint64_t edges)
{
	LITERAL(out, "# chunk ");
	dcfg_out_u64(out, preceding);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, instrs);
	dcfg_out_char(out, ' ');
	dcfg_out_u64(out, edges);
	dcfg_out_char(out, '\n');
}

void
dcfg_stream_write_run(struct dcfg_output *out, uint64_t count)
{
	WORD_LINE(out, "# run ", count);
}

void
dcfg_stream_write_run_end(struct dcfg_output *out)
{
	LITERAL(out, "# end run\n");
}

void
dcfg_stream_write_selection(struct dcfg_output *out, const struct dcfg_recorded_selection *s)
{
	LITERAL(out, "# selection");
	dcfg_recorded_selection_put(s, dcfg_put_output, out);
	dcfg_out_char(out, '\n');
}

void
dcfg_stream_write_trace(struct dcfg_output *out, uint32_t crc, uint64_t bytes)
{
	LITERAL(out, "# trace ");
	dcfg_out_crc_bytes(out, crc, bytes);
	dcfg_out_char(out, '\n');
}

void
dcfg_stream_write_record(struct dcfg_output *out, const struct dcfg_stream_record *r)
{
	dcfg_out_bytes(out, r->line, r->len);
	dcfg_out_char(out, '\n');
}
