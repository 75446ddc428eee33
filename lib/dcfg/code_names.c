/*
 * The public face of names.c: the names of code that every table writes,
 * for programs of their own (dcfg_code_name(3)), by the same rule.
 */
#include "names.h"

#include <stdlib.h>

struct dcfg_code_names {
	struct dcfg_names names;
};

struct dcfg_code_names *
dcfg_code_names_new(const struct dcfg *d, const struct dcfg_process *p)
{
	struct dcfg_code_names *cn = malloc(sizeof *cn);

	if (cn == NULL)
		return NULL;
	if (dcfg_names_init(&cn->names, d, p) < 0) {
		free(cn);
		return NULL;
	}
	return cn;
}

void
dcfg_code_names_free(struct dcfg_code_names *cn)
{
	if (cn == NULL)
		return;
	dcfg_names_free(&cn->names);
	free(cn);
}

size_t
dcfg_code_name(const struct dcfg_code_names *cn, uint64_t addr, char *buf, size_t size)
{
	struct dcfg_name nm;

	dcfg_name_at(&cn->names, addr, &nm);
	return dcfg_name_format(&nm, buf, size);
}

size_t
dcfg_escape_name(const char *name, char *buf, size_t size)
{
	return dcfg_escape(buf, size, name);
}
