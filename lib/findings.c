#include "check.h"

#include <stdio.h>

void
dcfg_finding(struct dcfg_findings *f, int warning, const char *where, const char *what)
{
	if (f->stopped)
		return;
	if (f->json) {
		dcfg_out_str(f->out, f->errors + f->warnings ? ",\n  {\"severity\": " :
		    "{\"findings\": [\n  {\"severity\": ");
		dcfg_out_str(f->out, warning ? "\"warning\"" : "\"error\"");
		dcfg_out_str(f->out, ", \"where\": ");
		dcfg_out_json_string(f->out, where);
		dcfg_out_str(f->out, ", \"what\": ");
		dcfg_out_json_string(f->out, what);
		dcfg_out_char(f->out, '}');
	} else {
		dcfg_out_str(f->out, warning ? "warning: " : "error: ");
		dcfg_out_str(f->out, where);
		dcfg_out_str(f->out, ": ");
		dcfg_out_str(f->out, what);
		dcfg_out_char(f->out, '\n');
	}
	if (warning)
		f->warnings++;
	else
		f->errors++;
	if (f->max && f->errors + f->warnings >= f->max)
		f->stopped = 1;
}

static void
count(struct dcfg_output *out, uint64_t n, const char *one, const char *many)
{
	dcfg_out_u64(out, n);
	dcfg_out_char(out, ' ');
	dcfg_out_str(out, n == 1 ? one : many);
}

void
dcfg_findings_end(struct dcfg_findings *f)
{
	if (f->json) {
		dcfg_out_str(f->out, f->errors + f->warnings ? "\n  ],\n" : "{\"findings\": [],\n");
		dcfg_out_str(f->out, " \"errors\": ");
		dcfg_out_u64(f->out, f->errors);
		dcfg_out_str(f->out, ", \"warnings\": ");
		dcfg_out_u64(f->out, f->warnings);
		dcfg_out_str(f->out, f->stopped ? ", \"stopped\": true}\n" : ", \"stopped\": false}\n");
		return;
	}
	count(f->out, f->errors, "error", "errors");
	dcfg_out_str(f->out, ", ");
	count(f->out, f->warnings, "warning", "warnings");
	if (f->stopped) {
		dcfg_out_str(f->out, " (stopped after ");
		dcfg_out_u64(f->out, f->max);
		dcfg_out_str(f->out, " findings)");
	}
	dcfg_out_char(f->out, '\n');
}
