#include "required.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/vec.h"

void
dcfg_required_top(struct dcfg_required *r, struct dcfg_json *j)
{
	dcfg_json_position(j, &r->top_line, &r->top_column);
}

void
dcfg_required_saw(struct dcfg_required *r, enum dcfg_part part)
{
	if (part == DCFG_PART_PROCESS_DATA || part == DCFG_PART_IMAGES) {
		if (r->n_rows > 0)
			r->rows[r->n_rows - 1].parts |= part;
	} else {
		r->parts |= part;
	}
}

int
dcfg_required_row(struct dcfg_required *r, struct dcfg_json *j)
{
	struct dcfg_process_place *p;

	if (dcfg_reserve((void **)&r->rows, &r->cap_rows, r->n_rows + 1, sizeof *r->rows) < 0)
		return dcfg_json_fail(j, "too many processes, or out of memory");
	p = &r->rows[r->n_rows++];
	p->pid = 0;
	p->parts = 0;
	p->row = dcfg_json_row(j);
	dcfg_json_value_position(j, &p->row_line, &p->row_column);
	p->id_line = p->id_column = 0;
	return DCFG_JSON_OK;
}

void
dcfg_required_pid(struct dcfg_required *r, struct dcfg_json *j, uint64_t pid)
{
	struct dcfg_process_place *p = &r->rows[r->n_rows - 1];

	p->pid = pid;
	dcfg_json_position(j, &p->id_line, &p->id_column);
}

static int
by_pid_then_row(const void *a, const void *b)
{
	const struct dcfg_process_place *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* "MAJOR_VERSION, MINOR_VERSION or PROCESSES": the top-level parts MISSING names. */
static void
name_missing(unsigned missing, char *buf, size_t size)
{
	static const struct { unsigned part; const char *name; } top[] = {
		{ DCFG_PART_MAJOR, "MAJOR_VERSION" },
		{ DCFG_PART_MINOR, "MINOR_VERSION" },
		{ DCFG_PART_PROCESSES, "PROCESSES" },
	};
	size_t i, left = 0, len = 0;

	for (i = 0; i < sizeof top / sizeof top[0]; i++)
		left += (missing & top[i].part) != 0;
	buf[0] = '\0';
	for (i = 0; i < sizeof top / sizeof top[0] && len < size; i++) {
		if (!(missing & top[i].part))
			continue;
		left--;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", top[i].name,
		    left > 1 ? ", " : left == 1 ? " or " : "");
	}
}

/* Of the processes listed twice, the one whose second row comes first; NULL: none. */
static const struct dcfg_process_place *
listed_twice(struct dcfg_required *r, const struct dcfg_process_place **first)
{
	const struct dcfg_process_place *again = NULL;
	size_t i, group = 0;

	if (r->n_rows < 2)
		return NULL;
	qsort(r->rows, r->n_rows, sizeof *r->rows, by_pid_then_row);
	for (i = 1; i < r->n_rows; i++) {
		if (r->rows[i].pid != r->rows[group].pid) {
			group = i;
			continue;
		}
		if (i == group + 1 && (again == NULL || r->rows[i].row < again->row)) {
			again = &r->rows[i];
			*first = &r->rows[group];
		}
	}
	return again;
}

int
dcfg_required_verdict(struct dcfg_required *r, const char *file, struct dcfg_error *err)
{
	const struct dcfg_process_place *p, *first = NULL;
	unsigned missing = (DCFG_PART_MAJOR | DCFG_PART_MINOR | DCFG_PART_PROCESSES) & ~r->parts;
	char names[64];
	size_t i;

	if (missing) {
		name_missing(missing, names, sizeof names);
		return dcfg_error_at(err, file, r->top_line, r->top_column,
		    "this is not a DCFG: it has no %s", names);
	}
	for (i = 0; i < r->n_rows; i++) {
		p = &r->rows[i];
		if (!(p->parts & DCFG_PART_PROCESS_DATA))
			return dcfg_error_at(err, file, p->row_line, p->row_column,
			    "PROCESSES[%lu]: this is not a DCFG: process %llu has no PROCESS_DATA",
			    p->row, (unsigned long long)p->pid);
		if (!(p->parts & DCFG_PART_IMAGES))
			return dcfg_error_at(err, file, p->row_line, p->row_column,
			    "PROCESSES[%lu]: this is not a DCFG: process %llu's PROCESS_DATA has no IMAGES",
			    p->row, (unsigned long long)p->pid);
	}
	/* spec 2.7 and 3.3: a PID names the process, in the DCFG as in its trace */
	if ((p = listed_twice(r, &first)) != NULL)
		return dcfg_error_at(err, file, p->id_line, p->id_column,
		    "PROCESSES[%lu].PROCESS_ID: process %llu is listed twice (first at %lu:%lu): "
		    "a DCFG has one row a process", p->row, (unsigned long long)p->pid,
		    first->id_line, first->id_column);
	return 0;
}

void
dcfg_required_free(struct dcfg_required *r)
{
	free(r->rows);
	r->rows = NULL;
	r->n_rows = r->cap_rows = 0;
}
