#include "check.h"

#include <stdio.h>

static const char *const names[] = {
	[DCFG_SEV_ERROR] = "error",
	[DCFG_SEV_WARNING] = "warning",
	[DCFG_SEV_NOTE] = "note",
};

void
dcfg_finding(struct dcfg_findings *f, enum dcfg_severity sev, const char *where, const char *what)
{
	if (f->stopped)
		return;
	if (f->json) {
		dcfg_out_str(f->out, f->errors + f->warnings + f->notes ? ",\n  {\"severity\": \"" :
		    "{\"findings\": [\n  {\"severity\": \"");
		dcfg_out_str(f->out, names[sev]);
		dcfg_out_str(f->out, "\", \"where\": ");
		dcfg_out_json_string(f->out, where);
		dcfg_out_str(f->out, ", \"what\": ");
		dcfg_out_json_string(f->out, what);
		dcfg_out_char(f->out, '}');
	} else {
		/* Names are escaped in WHAT already; this keeps a stray byte off the terminal. */
		char shown[4 * 512];
		dcfg_out_str(f->out, names[sev]);
		dcfg_out_str(f->out, ": ");
		dcfg_escape_message(shown, sizeof shown, where);
		dcfg_out_str(f->out, shown);
		dcfg_out_str(f->out, ": ");
		dcfg_escape_message(shown, sizeof shown, what);
		dcfg_out_str(f->out, shown);
		dcfg_out_char(f->out, '\n');
	}
	if (sev == DCFG_SEV_NOTE) {
		/*
		 * Not counted by --max: "--max 1" asks whether anything is wrong,
		 * and a note, which every real file has, must not hide the answer.
		 */
		f->notes++;
		return;
	}
	if (sev == DCFG_SEV_WARNING)
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

/*
 * The text totals count errors and warnings only, so that a clean real
 * file still ends in "0 errors, 0 warnings"; JSON counts notes too.
 */
void
dcfg_findings_end(struct dcfg_findings *f)
{
	if (f->json) {
		dcfg_out_str(f->out, f->errors + f->warnings + f->notes ? "\n  ],\n" :
		    "{\"findings\": [],\n");
		dcfg_out_str(f->out, " \"errors\": ");
		dcfg_out_u64(f->out, f->errors);
		dcfg_out_str(f->out, ", \"warnings\": ");
		dcfg_out_u64(f->out, f->warnings);
		dcfg_out_str(f->out, ", \"notes\": ");
		dcfg_out_u64(f->out, f->notes);
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
