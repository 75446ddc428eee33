#include "info_table.h"

#include <stdio.h>
#include <stdlib.h>

/* NUM/DEN with two decimals, rounded half up, exactly: "2.89". BUF holds 48 bytes. */
static const char *
decimal(char *buf, unsigned __int128 num, unsigned __int128 den)
{
	unsigned __int128 hundredths = (num * 200 + den) / (den * 2), whole = hundredths / 100;
	char digits[48];
	int n = 0, k = 0;

	do
		digits[n++] = (char)('0' + (unsigned)(whole % 10));
	while ((whole /= 10) > 0);
	while (n > 0)
		buf[k++] = digits[--n];
	buf[k++] = '.';
	buf[k++] = (char)('0' + (unsigned)(hundredths % 100) / 10);
	buf[k++] = (char)('0' + (unsigned)(hundredths % 10));
	buf[k] = '\0';
	return buf;
}

/* ---- a DCFG's summary ---- */

static const struct dcfg_table_column stat_columns[] = {
	{ "statistic", DCFG_COLUMN_TEXT }, { "count", DCFG_COLUMN_NUMBER },
	{ "total", DCFG_COLUMN_NUMBER }, { "avg", DCFG_COLUMN_NUMBER },
	{ "min", DCFG_COLUMN_NUMBER }, { "max", DCFG_COLUMN_NUMBER },
};

/* A statistic with no samples has "-" for avg, min and max. */
static void
stat_row(struct dcfg_table *t, const char *name, const struct dcfg_stat *st)
{
	char buf[48];

	dcfg_table_text(t, name);
	dcfg_table_u64(t, st->count);
	dcfg_table_u64(t, st->total);
	if (st->count == 0) {
		dcfg_table_text(t, "-");
		dcfg_table_text(t, "-");
		dcfg_table_text(t, "-");
	} else {
		dcfg_table_text(t, decimal(buf, st->total, st->count));
		dcfg_table_u64(t, st->min);
		dcfg_table_u64(t, st->max);
	}
	dcfg_table_end_row(t);
}

static void
summary_section(struct dcfg_table *t, const struct dcfg_process *p, const struct dcfg_summary *s)
{
	dcfg_table_section(t);
	dcfg_table_meta_u64(t, "process", p->pid);
	dcfg_table_meta_u64(t, "threads", p->threads);
	if (p->has_instr_count)
		dcfg_table_meta_u64(t, "instructions", p->instr_count);
	else
		dcfg_table_meta_text(t, "instructions", "unknown");
	dcfg_table_meta_u64(t, "images", p->images.count);
	dcfg_table_meta_u64(t, "basic_blocks", p->blocks.count);
	dcfg_table_meta_u64(t, "routines", p->routines.count);
	dcfg_table_meta_u64(t, "loops", p->loops.count);
	dcfg_table_meta_u64(t, "edges", p->edges.count);
	dcfg_table_columns(t, stat_columns, sizeof stat_columns / sizeof stat_columns[0]);
	stat_row(t, "static_instructions_per_block", &s->static_instrs);
	stat_row(t, "executions_per_block", &s->executions);
	stat_row(t, "dynamic_instructions_per_block_execution", &s->dynamic_instrs);
	stat_row(t, "calls_per_routine", &s->calls);
	stat_row(t, "iterations_per_loop", &s->iterations);
}

static void
version_field(struct dcfg_table *t, int has, uint64_t major, uint64_t minor)
{
	char buf[48];

	if (!has) {
		dcfg_table_meta_text(t, "dcfg_version", "unknown");
		return;
	}
	snprintf(buf, sizeof buf, "%llu.%02llu", (unsigned long long)major,
	    (unsigned long long)minor);
	dcfg_table_meta_text(t, "dcfg_version", buf);
}

int
dcfg_info_table_summary(struct dcfg_table *t, const struct dcfg *d,
    const struct dcfg_process *only, const char *file, struct dcfg_error *err)
{
	struct dcfg_summary *s;
	uint64_t major = 0, minor = 0;
	size_t i;
	int has;

	/* All summaries first, so that a failure leaves no half report. */
	if ((s = calloc(d->n_processes + 1, sizeof *s)) == NULL)
		return dcfg_error_set(err, file, "out of memory");
	for (i = 0; i < d->n_processes; i++)
		if ((only == NULL || &d->processes[i] == only) &&
		    dcfg_summarize(d, &d->processes[i], &s[i], file, err) < 0) {
			free(s);
			return -1;
		}
	has = dcfg_file_version(d, &major, &minor);
	version_field(t, has, major, minor);
	for (i = 0; i < d->n_processes; i++)
		if (only == NULL || &d->processes[i] == only)
			summary_section(t, &d->processes[i], &s[i]);
	free(s);
	return 0;
}

/* ---- a DCFG-trace's summary ---- */

static const struct dcfg_table_column thread_columns[] = {
	{ "thread", DCFG_COLUMN_NUMBER }, { "chunks", DCFG_COLUMN_NUMBER },
	{ "edges", DCFG_COLUMN_NUMBER }, { "instructions", DCFG_COLUMN_NUMBER },
	{ "sequence_characters", DCFG_COLUMN_NUMBER }, { "bits_per_edge", DCFG_COLUMN_NUMBER },
};

/* 6 bits a character over the edges; "none" without edges. */
static const char *
bits(char *buf, const struct dcfg_trace_counts *c)
{
	if (c->edges == 0)
		return "none";
	return decimal(buf, (unsigned __int128)c->characters * 6, c->edges);
}

void
dcfg_info_table_trace(struct dcfg_table *t, const struct dcfg_trace_summary *s)
{
	char buf[48];
	size_t i, k;

	dcfg_table_meta_text(t, "kind", "DCFG-trace");
	version_field(t, s->has_version == 3, s->major_version, s->minor_version);
	for (i = 0; i < s->n_processes; i++) {
		const struct dcfg_trace_process_summary *p = &s->processes[i];
		dcfg_table_section(t);
		dcfg_table_meta_u64(t, "process", p->pid);
		dcfg_table_meta_u64(t, "threads", p->n_threads);
		dcfg_table_meta_u64(t, "chunks", p->total.chunks);
		dcfg_table_meta_u64(t, "edges", p->total.edges);
		dcfg_table_meta_u64(t, "instructions", p->total.instructions);
		dcfg_table_meta_u64(t, "sequence_characters", p->total.characters);
		dcfg_table_meta_text(t, "bits_per_edge", bits(buf, &p->total));
		dcfg_table_meta_u64(t, "dictionary_entries", p->dictionary_entries);
		dcfg_table_meta_u64(t, "transition_table_rows", p->table_rows);
		dcfg_table_columns(t, thread_columns, sizeof thread_columns / sizeof thread_columns[0]);
		for (k = 0; k < p->n_threads; k++) {
			const struct dcfg_trace_counts *c = &p->threads[k].counts;
			dcfg_table_u64(t, p->threads[k].tid);
			dcfg_table_u64(t, c->chunks);
			dcfg_table_u64(t, c->edges);
			dcfg_table_u64(t, c->instructions);
			dcfg_table_u64(t, c->characters);
			dcfg_table_text(t, bits(buf, c));
			dcfg_table_end_row(t);
		}
	}
}

/* ---- listings ---- */

static const struct dcfg_table_column routine_columns[] = {
	{ "routine", DCFG_COLUMN_NUMBER }, { "image", DCFG_COLUMN_NUMBER },
	{ "name", DCFG_COLUMN_TEXT }, { "executions", DCFG_COLUMN_NUMBER },
	{ "instructions", DCFG_COLUMN_NUMBER },
};

static const struct dcfg_table_column image_columns[] = {
	{ "image", DCFG_COLUMN_NUMBER }, { "file", DCFG_COLUMN_PATH },
	{ "blocks", DCFG_COLUMN_NUMBER }, { "routines", DCFG_COLUMN_NUMBER },
	{ "executions", DCFG_COLUMN_NUMBER }, { "instructions", DCFG_COLUMN_NUMBER },
};

static const struct dcfg_table_column loop_columns[] = {
	{ "loop", DCFG_COLUMN_NUMBER }, { "routine", DCFG_COLUMN_NUMBER },
	{ "name", DCFG_COLUMN_TEXT }, { "source", DCFG_COLUMN_PATH },
	{ "depth", DCFG_COLUMN_NUMBER }, { "innermost", DCFG_COLUMN_TEXT },
	{ "static", DCFG_COLUMN_NUMBER }, { "entries", DCFG_COLUMN_NUMBER },
	{ "iterations", DCFG_COLUMN_NUMBER }, { "instructions", DCFG_COLUMN_NUMBER },
};

void
dcfg_info_table_list_head(struct dcfg_table *t, const struct dcfg *d, enum dcfg_list_kind kind)
{
	char id[32];

	dcfg_table_meta_text(t, "list", kind == DCFG_LIST_ROUTINES ? "routines" :
	    kind == DCFG_LIST_IMAGES ? "images" : "loops");
	snprintf(id, sizeof id, "%08lx:%llu", (unsigned long)d->crc32, (unsigned long long)d->bytes);
	dcfg_table_meta_text(t, "dcfg", id);
}

void
dcfg_info_table_listing(struct dcfg_table *t, const struct dcfg_listing *l)
{
	const struct dcfg *d = l->d;
	size_t i;

	dcfg_table_section(t);
	dcfg_table_meta_u64(t, "process", l->p->pid);
	if (l->kind == DCFG_LIST_ROUTINES)
		dcfg_table_columns(t, routine_columns, sizeof routine_columns / sizeof routine_columns[0]);
	else if (l->kind == DCFG_LIST_IMAGES)
		dcfg_table_columns(t, image_columns, sizeof image_columns / sizeof image_columns[0]);
	else
		dcfg_table_columns(t, loop_columns, sizeof loop_columns / sizeof loop_columns[0]);
	for (i = 0; i < l->n; i++) {
		const struct dcfg_list_row *r = &l->rows[i];
		dcfg_table_u64(t, r->key);
		if (l->kind == DCFG_LIST_ROUTINES) {
			dcfg_table_u64(t, d->images[d->routines[r->index].image].id);
			dcfg_table_text(t, r->name);
		} else if (l->kind == DCFG_LIST_IMAGES) {
			dcfg_table_text(t, r->name);
			dcfg_table_u64(t, r->statik);
			dcfg_table_u64(t, r->routines);
		} else {
			dcfg_table_u64(t, d->routines[d->loops[r->index].routine].entry_node_id);
			dcfg_table_text(t, r->name);
			dcfg_table_text(t, r->source);
			dcfg_table_u64(t, r->depth);
			dcfg_table_text(t, r->innermost ? "yes" : "no");
			dcfg_table_u64(t, r->statik);
		}
		dcfg_table_u64(t, r->exec);
		if (l->kind == DCFG_LIST_LOOPS)
			dcfg_table_u64(t, r->iter);
		dcfg_table_u64(t, r->instr);
		dcfg_table_end_row(t);
	}
}
