/*
 * dcfg-check's work: a DCFG judged against the spec (section 2), and a
 * trace against the spec (section 3) and its DCFG. Findings are written
 * as they are found, as text ("SEVERITY: WHERE: WHAT") or JSON.
 *
 * An error is what the spec forbids or what leaves the data unusable; a
 * warning what the spec allows but calls wrong or uncommon; a note a fact
 * worth knowing that breaks no rule (such as an identity the format does
 * not promise and real writers do not keep). Notes never fail a check.
 */
#ifndef DCFG_CHECK_H
#define DCFG_CHECK_H

#include <stdint.h>

#include "dcfg/model.h"
#include "common/output.h"

enum dcfg_severity {
	DCFG_SEV_ERROR,
	DCFG_SEV_WARNING,
	DCFG_SEV_NOTE
};

struct dcfg_findings {
	struct dcfg_output *out;
	int json;
	uint64_t max;                 /* errors and warnings; 0: no limit */
	uint64_t errors, warnings, notes;
	int stopped;                  /* max was reached */
};

/* Records a finding; WHERE and WHAT are already formatted. */
void dcfg_finding(struct dcfg_findings *f, enum dcfg_severity sev, const char *where,
    const char *what);
/* The closing totals (and, for JSON, the end of the document). */
void dcfg_findings_end(struct dcfg_findings *f);

/* Every section 2 check. -1 when out of memory. */
int dcfg_check_dcfg(const struct dcfg *d, struct dcfg_findings *f);

/*
 * The trace checks, with D (or NULL: the trace alone). 0; -1 with ERR
 * set when the trace is unreadable.
 */
int dcfg_check_trace(const char *path, const struct dcfg *d, struct dcfg_findings *f,
    struct dcfg_error *err);

#endif
