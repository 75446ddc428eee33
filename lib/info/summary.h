/*
 * The per-process summary that dcfg-info prints (and that Intel's example
 * DCFG reader prints): sizes, and count/total/min/max of a few quantities.
 */
#ifndef DCFG_SUMMARY_H
#define DCFG_SUMMARY_H

#include <stdint.h>

#include "dcfg/model.h"
#include "common/output.h"

struct dcfg_stat {
	uint64_t count, total, min, max;
};

struct dcfg_summary {
	struct dcfg_stat static_instrs;   /* NUM_INSTRS, one sample per block */
	struct dcfg_stat executions;      /* incoming edge counts (else COUNT) per block */
	struct dcfg_stat dynamic_instrs;  /* NUM_INSTRS per block execution */
	struct dcfg_stat calls;           /* call-edge counts into each routine's entry */
	struct dcfg_stat iterations;      /* back-edge counts of each loop */
};

/* Needs everything kept. -1 with ERR set when out of memory or a total overflows. */
int dcfg_summarize(const struct dcfg *d, const struct dcfg_process *p,
    struct dcfg_summary *s, const char *file, struct dcfg_error *err);

/*
 * The whole report: the format version, then every process (or only
 * ONLY), as text or JSON. -1 with ERR set when a summary cannot be
 * computed; nothing of the report is written then.
 */
int dcfg_summary_write(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *only, int json, const char *file,
    struct dcfg_error *err);

void dcfg_summary_print_text(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, const struct dcfg_summary *s);
void dcfg_summary_print_json(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, const struct dcfg_summary *s);
void dcfg_print_version(struct dcfg_output *out, const struct dcfg *d, int json);

#endif
