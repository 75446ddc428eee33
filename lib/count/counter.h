/*
 * The counter of <dcfg/count.h>, opened up for dcfg-count's stream glue
 * (lib/cli/count_stream.c): it adds edges by their index in the DCFG,
 * which the stream reader has found already, and keeps each process's
 * table to write them all once the stream ends (count_table.c says why).
 */
#ifndef DCFG_COUNT_COUNTER_H
#define DCFG_COUNT_COUNTER_H

#include <stdint.h>

#include <dcfg/count.h>
#include "count_table.h"

struct dcfg_counter {
	const struct dcfg *d;
	const struct dcfg_process *p;
	const char *name;          /* the file errors name */
	struct dcfg_count_options opt;   /* by; top while a table is made */
	struct dcfg_count_table table;   /* its exec: per edge of d, this process's */
	/* per edge of d, for P's: the NUM_INSTRS of its source, what an execution costs */
	uint64_t *source_instrs;
	struct dcfg_count_thread *threads; size_t n_threads, cap_threads;
	size_t thread;             /* the current one, or n_threads before any is named */
	/*
	 * An edge's executions, or a thread's edges or instructions, went past
	 * 2^64 - 1. Each spoils only the tables made from it.
	 */
	int exec_overflow, thread_overflow;
	int from_dcfg;
	/* the table dcfg_counter_begin made: its rows, their cells' text */
	struct dcfg_counted_row *rows; size_t n_rows, cap_rows, next_row;
	char *text; size_t n_text, cap_text;
	size_t *text_at; size_t cap_text_at;
};

/* A counter of D for BY, of no process until dcfg_counter_restart names one. NULL: out of memory. */
struct dcfg_counter *dcfg_counter_open(const struct dcfg *d, enum dcfg_count_by by, const char *name);

/* Edge I of D (of the counter's process) executed W more times: the stream's hot path. */
static inline void
dcfg_counter_add_index(struct dcfg_counter *c, uint32_t i, uint64_t w)
{
	uint64_t *x = dcfg_tally_at(&c->table.exec, i);

	*x = dcfg_count_add(&c->exec_overflow, *x, w);
	if (c->thread < c->n_threads) {
		struct dcfg_count_thread *t = &c->threads[c->thread];
		int *of = &c->thread_overflow;
		t->edges = dcfg_count_add(of, t->edges, w);
		t->instrs = dcfg_count_add(of, t->instrs, dcfg_count_mul(of, w, c->source_instrs[i]));
	}
}

/*
 * Makes the process's table (cut to TOP) and keeps it, to be written with
 * the others by dcfg_counter_write. DCFG_COUNT_OK, or
 * DCFG_COUNT_OVERFLOW / DCFG_COUNT_NO_MEMORY with ERR set.
 */
int dcfg_counter_keep(struct dcfg_counter *c, uint64_t top, struct dcfg_error *err);
/* Writes the tables kept, a section each, and forgets them. */
void dcfg_counter_write(struct dcfg_counter *c, struct dcfg_table *w);

#endif
