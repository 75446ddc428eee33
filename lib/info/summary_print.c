#include "summary.h"

#include <stdlib.h>

/* total/count with two decimals, rounded half up, exactly (no floating point). */
static void
out_average(struct dcfg_output *out, const struct dcfg_stat *st)
{
	unsigned __int128 hundredths =
	    ((unsigned __int128)st->total * 200 + st->count) / ((unsigned __int128)st->count * 2);
	uint64_t whole = (uint64_t)(hundredths / 100);
	unsigned frac = (unsigned)(hundredths % 100);

	dcfg_out_u64(out, whole);
	dcfg_out_char(out, '.');
	dcfg_out_char(out, (char)('0' + frac / 10));
	dcfg_out_char(out, (char)('0' + frac % 10));
}

static void
text_stat(struct dcfg_output *out, const char *name, const struct dcfg_stat *st)
{
	dcfg_out_str(out, "  ");
	dcfg_out_str(out, name);
	dcfg_out_str(out, ": count ");
	dcfg_out_u64(out, st->count);
	if (st->count > 0) {
		dcfg_out_str(out, " total ");
		dcfg_out_u64(out, st->total);
		dcfg_out_str(out, " avg ");
		out_average(out, st);
		dcfg_out_str(out, " min ");
		dcfg_out_u64(out, st->min);
		dcfg_out_str(out, " max ");
		dcfg_out_u64(out, st->max);
	}
	dcfg_out_char(out, '\n');
}

static void
text_line(struct dcfg_output *out, const char *name, uint64_t v)
{
	dcfg_out_str(out, "  ");
	dcfg_out_str(out, name);
	dcfg_out_str(out, ": ");
	dcfg_out_u64(out, v);
	dcfg_out_char(out, '\n');
}

void
dcfg_print_version(struct dcfg_output *out, const struct dcfg *d, int json)
{
	uint64_t major, minor;

	if (!dcfg_file_version(d, &major, &minor)) {
		dcfg_out_str(out, json ? "null" : "unknown");
		return;
	}
	if (json)
		dcfg_out_char(out, '"');
	dcfg_out_u64(out, major);
	dcfg_out_char(out, '.');
	if (minor < 10)
		dcfg_out_char(out, '0');
	dcfg_out_u64(out, minor);
	if (json)
		dcfg_out_char(out, '"');
}

void
dcfg_summary_print_text(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, const struct dcfg_summary *s)
{
	uint32_t i;

	dcfg_out_str(out, "process: ");
	dcfg_out_u64(out, p->pid);
	dcfg_out_char(out, '\n');
	text_line(out, "threads", p->threads);
	dcfg_out_str(out, "  instructions: ");
	if (p->has_instr_count)
		dcfg_out_u64(out, p->instr_count);
	else
		dcfg_out_str(out, "unknown");
	dcfg_out_str(out, "\n  instructions per thread:");
	if (p->thread_instr_counts.first == DCFG_NONE)
		dcfg_out_str(out, " unknown");
	for (i = 0; p->thread_instr_counts.first != DCFG_NONE &&
	    i < p->thread_instr_counts.count; i++) {
		dcfg_out_char(out, ' ');
		dcfg_out_u64(out, d->counts[p->thread_instr_counts.first + i]);
	}
	dcfg_out_char(out, '\n');
	text_line(out, "images", p->images.count);
	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		const char *name = im->file_name_id == DCFG_NONE ? NULL :
		    dcfg_file_name(d, im->file_name_id);
		dcfg_out_str(out, "    image ");
		dcfg_out_u64(out, im->id);
		dcfg_out_str(out, ": load ");
		dcfg_out_hex(out, im->load_addr);
		dcfg_out_str(out, " size ");
		dcfg_out_u64(out, im->size);
		dcfg_out_str(out, " file ");
		if (name) {
			dcfg_out_escaped(out, name);
		} else if (im->file_name_id == DCFG_NONE) {
			dcfg_out_str(out, "(none)");
		} else {
			dcfg_out_str(out, "(id ");
			dcfg_out_u64(out, im->file_name_id);
			dcfg_out_char(out, ')');
		}
		dcfg_out_char(out, '\n');
	}
	text_line(out, "basic blocks", p->blocks.count);
	text_line(out, "routines", p->routines.count);
	text_line(out, "loops", p->loops.count);
	text_line(out, "edges", p->edges.count);
	text_stat(out, "static instructions per block", &s->static_instrs);
	text_stat(out, "executions per block", &s->executions);
	text_stat(out, "dynamic instructions per block execution", &s->dynamic_instrs);
	text_stat(out, "calls per routine", &s->calls);
	text_stat(out, "iterations per loop", &s->iterations);
}

static void
json_key(struct dcfg_output *out, const char *key)
{
	dcfg_out_char(out, '"');
	dcfg_out_str(out, key);
	dcfg_out_str(out, "\":");
}

static void
json_stat(struct dcfg_output *out, const char *key, const struct dcfg_stat *st)
{
	dcfg_out_char(out, ',');
	json_key(out, key);
	dcfg_out_str(out, "{\"count\":");
	dcfg_out_u64(out, st->count);
	dcfg_out_str(out, ",\"total\":");
	dcfg_out_u64(out, st->total);
	if (st->count == 0) {
		dcfg_out_str(out, ",\"avg\":null,\"min\":null,\"max\":null}");
		return;
	}
	dcfg_out_str(out, ",\"avg\":");
	out_average(out, st);
	dcfg_out_str(out, ",\"min\":");
	dcfg_out_u64(out, st->min);
	dcfg_out_str(out, ",\"max\":");
	dcfg_out_u64(out, st->max);
	dcfg_out_char(out, '}');
}

static void
json_count(struct dcfg_output *out, const char *key, uint64_t v)
{
	dcfg_out_char(out, ',');
	json_key(out, key);
	dcfg_out_u64(out, v);
}

void
dcfg_summary_print_json(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, const struct dcfg_summary *s)
{
	uint32_t i;

	dcfg_out_str(out, "{\"pid\":");
	dcfg_out_u64(out, p->pid);
	json_count(out, "threads", p->threads);
	dcfg_out_char(out, ',');
	json_key(out, "instructions");
	if (p->has_instr_count)
		dcfg_out_u64(out, p->instr_count);
	else
		dcfg_out_str(out, "null");
	dcfg_out_char(out, ',');
	json_key(out, "instructions_per_thread");
	if (p->thread_instr_counts.first == DCFG_NONE) {
		dcfg_out_str(out, "null");
	} else {
		dcfg_out_char(out, '[');
		for (i = 0; i < p->thread_instr_counts.count; i++) {
			if (i > 0)
				dcfg_out_char(out, ',');
			dcfg_out_u64(out, d->counts[p->thread_instr_counts.first + i]);
		}
		dcfg_out_char(out, ']');
	}
	dcfg_out_str(out, ",\"images\":[");
	for (i = 0; i < p->images.count; i++) {
		const struct dcfg_image *im = &d->images[p->images.first + i];
		const char *name = im->file_name_id == DCFG_NONE ? NULL :
		    dcfg_file_name(d, im->file_name_id);
		if (i > 0)
			dcfg_out_char(out, ',');
		dcfg_out_str(out, "{\"id\":");
		dcfg_out_u64(out, im->id);
		dcfg_out_str(out, ",\"load_addr\":\"");
		dcfg_out_hex(out, im->load_addr);
		dcfg_out_str(out, "\",\"size\":");
		dcfg_out_u64(out, im->size);
		dcfg_out_str(out, ",\"file_name\":");
		if (name)
			dcfg_out_json_string(out, name);
		else
			dcfg_out_str(out, "null");
		dcfg_out_char(out, '}');
	}
	dcfg_out_char(out, ']');
	json_count(out, "basic_blocks", p->blocks.count);
	json_count(out, "routines", p->routines.count);
	json_count(out, "loops", p->loops.count);
	json_count(out, "edges", p->edges.count);
	json_stat(out, "static_instructions_per_block", &s->static_instrs);
	json_stat(out, "executions_per_block", &s->executions);
	json_stat(out, "dynamic_instructions_per_block_execution", &s->dynamic_instrs);
	json_stat(out, "calls_per_routine", &s->calls);
	json_stat(out, "iterations_per_loop", &s->iterations);
	dcfg_out_char(out, '}');
}

int
dcfg_summary_write(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *only, int json, const char *file,
    struct dcfg_error *err)
{
	struct dcfg_summary *s;
	size_t i, shown = 0;

	/* All summaries first, so that a failure leaves no half report. */
	if ((s = calloc(d->n_processes + 1, sizeof *s)) == NULL)
		return dcfg_error_set(err, file, "out of memory");
	for (i = 0; i < d->n_processes; i++)
		if ((only == NULL || &d->processes[i] == only) &&
		    dcfg_summarize(d, &d->processes[i], &s[i], file, err) < 0) {
			free(s);
			return -1;
		}
	if (json) {
		dcfg_out_str(out, "{\"version\":");
		dcfg_print_version(out, d, 1);
		dcfg_out_str(out, ",\"processes\":[");
	} else {
		dcfg_out_str(out, "version: ");
		dcfg_print_version(out, d, 0);
		dcfg_out_char(out, '\n');
	}
	for (i = 0; i < d->n_processes && !dcfg_output_failed(out); i++) {
		if (only && &d->processes[i] != only)
			continue;
		if (json && shown++ > 0)
			dcfg_out_char(out, ',');
		if (json)
			dcfg_summary_print_json(out, d, &d->processes[i], &s[i]);
		else
			dcfg_summary_print_text(out, d, &d->processes[i], &s[i]);
	}
	if (json)
		dcfg_out_str(out, "]}\n");
	free(s);
	return 0;
}
