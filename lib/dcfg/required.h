/*
 * Internal: what makes JSON a DCFG (dcfg-check(1), "What a DCFG has").
 * Spec 2.2 calls most parts optional "as noted below"; what no note calls
 * optional and every reader needs is required: MAJOR_VERSION and
 * MINOR_VERSION (2.3), PROCESSES (2.7), and in each process row its
 * PROCESS_DATA (2.7) with an IMAGES table (2.8), which may be empty. EDGES
 * is not required: "the control-flow graph is optional" (2.2). A process
 * has one row: its PID (2.7) is the one name its trace rows have (3.3).
 *
 * The loader reports what it reads here and asks for the verdict once the
 * JSON is read whole, so that broken JSON (a truncated file, a second
 * value after the first) is reported as such first.
 */
#ifndef DCFG_REQUIRED_H
#define DCFG_REQUIRED_H

#include <stddef.h>
#include <stdint.h>

#include "common/json.h"

enum dcfg_part {
	DCFG_PART_MAJOR = 1,
	DCFG_PART_MINOR = 2,
	DCFG_PART_PROCESSES = 4,
	DCFG_PART_PROCESS_DATA = 8,    /* of the process row being read */
	DCFG_PART_IMAGES = 16          /* of the process row being read */
};

/* Where a process row and its PROCESS_ID are. */
struct dcfg_process_place {
	uint64_t pid;
	unsigned long row, row_line, row_column, id_line, id_column;
	unsigned parts;                /* DCFG_PART_PROCESS_DATA, DCFG_PART_IMAGES */
};

struct dcfg_required {
	unsigned parts;                /* the top-level DCFG_PART_* seen */
	unsigned long top_line, top_column;   /* of the top-level object */
	struct dcfg_process_place *rows;
	size_t n_rows, cap_rows;
};

/* The top-level object starts (its "{" is J's current token). */
void dcfg_required_top(struct dcfg_required *r, struct dcfg_json *j);

/* Part PART was read (in the process row being read, for a process's part). */
void dcfg_required_saw(struct dcfg_required *r, enum dcfg_part part);

/* A process row starts. DCFG_JSON_OK, or DCFG_JSON_ERROR when out of memory. */
int dcfg_required_row(struct dcfg_required *r, struct dcfg_json *j);

/* The process row being read has PROCESS_ID PID (its token is J's current one). */
void dcfg_required_pid(struct dcfg_required *r, struct dcfg_json *j, uint64_t pid);

/*
 * After the whole file was read: 0, or -1 with ERR set to the place in
 * FILE of what is missing or repeated.
 */
int dcfg_required_verdict(struct dcfg_required *r, const char *file, struct dcfg_error *err);

void dcfg_required_free(struct dcfg_required *r);

#endif
