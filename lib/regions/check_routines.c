/*
 * dcfg-regions --check --dcfg: each routine's share of the run and of the
 * projection. A block of the profile is placed by its Block id line's
 * address, at which the DCFG must have a block in the profile's process
 * (the T lines' ids may be dense, never DCFG node ids); its routine is the
 * DCFG's.
 */
#include "regions_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg/model.h"

/* The DCFG's block that the profile's block ID is, or -1 with ERR set. */
static int
dcfg_block(const struct dcfg_rg_source *src, const struct dcfg_rg_profile *p, uint64_t id,
    const struct dcfg_block **out, struct dcfg_error *err)
{
	const struct dcfg_rg_block *b = dcfg_rg_block_of(p, id);
	const struct dcfg_block *db;

	if (b == NULL)
		return dcfg_error_set(err, p->path, "block %llu of the T lines has no Block id line, "
		    "which --dcfg needs to find it in %s", (unsigned long long)id, src->dcfg_path);
	db = dcfg_block_at(src->d, src->process, b->start);
	if (db == NULL || db->addr != b->start)
		return dcfg_error_at(err, p->path, b->line, 1, "block %llu at 0x%llx: process %llu of "
		    "%s has no block there", (unsigned long long)id, (unsigned long long)b->start,
		    (unsigned long long)src->process->pid, src->dcfg_path);
	*out = db;
	return 0;
}

/* The touched routines (and the code of none, last) as rows. */
static int
rows(struct dcfg_rg_routines *rt, const struct dcfg_rg_source *src, struct dcfg_rg_share *acc,
    size_t n_acc)
{
	size_t i;

	if ((rt->r = calloc(n_acc, sizeof *rt->r)) == NULL)
		return -1;
	for (i = 0; i < n_acc; i++) {
		if (acc[i].instrs == 0 && acc[i].projected == 0)
			continue;
		rt->r[rt->n] = acc[i];
		if (i + 1 < n_acc) {
			uint32_t entry = src->d->routines[i].entry_node_id;
			rt->r[rt->n].id = entry;
			rt->r[rt->n].what = dcfg_block_by_node(src->d, src->process, entry);
		} else {
			rt->r[rt->n].id = UINT64_MAX;   /* after every routine, by the rows' order */
		}
		rt->n++;
	}
	return 0;
}

int
dcfg_rg_routines_of(struct dcfg_rg_routines *rt, const struct dcfg_rg_source *src,
    const struct dcfg_rg_profile *p, const struct dcfg_rg_share *blocks, size_t n,
    double projected, struct dcfg_error *err)
{
	size_t n_acc = src->d->n_routines + 1, i;
	struct dcfg_rg_share *acc;
	int rc = -1;

	memset(rt, 0, sizeof *rt);
	if ((acc = calloc(n_acc, sizeof *acc)) == NULL)
		return dcfg_error_set(err, p->path, "out of memory");
	for (i = 0; i < n; i++) {
		const struct dcfg_block *db = NULL;
		size_t r;
		if (dcfg_block(src, p, blocks[i].id, &db, err) < 0)
			goto done;
		r = db->routine == DCFG_NONE ? n_acc - 1 : db->routine;
		acc[r].instrs += blocks[i].instrs;
		acc[r].projected += blocks[i].projected;
	}
	if (rows(rt, src, acc, n_acc) < 0 || dcfg_names_init(&rt->names, src->d, src->process) < 0) {
		dcfg_error_set(err, p->path, "out of memory");
		goto done;
	}
	rt->has_names = 1;
	qsort(rt->r, rt->n, sizeof *rt->r, dcfg_rg_share_order);
	dcfg_rg_share_errors(rt->r, rt->n, p->total, projected, &rt->distance, &rt->worst);
	rc = 0;
done:
	free(acc);
	return rc;
}

static const struct dcfg_table_column routine_columns[] = {
	{ "routine", DCFG_COLUMN_NUMBER },
	{ "name", DCFG_COLUMN_TEXT },
	{ "instructions", DCFG_COLUMN_NUMBER },
	{ "projected_instructions", DCFG_COLUMN_NUMBER },
	{ "true_share", DCFG_COLUMN_NUMBER },
	{ "projected_share", DCFG_COLUMN_NUMBER },
	{ "share_error", DCFG_COLUMN_NUMBER },
};

void
dcfg_rg_routines_write(struct dcfg_table *t, const struct dcfg_rg_routines *rt, uint64_t total)
{
	size_t i;

	dcfg_table_columns(t, routine_columns, sizeof routine_columns / sizeof routine_columns[0]);
	for (i = 0; i < rt->n; i++) {
		const struct dcfg_rg_share *s = &rt->r[i];
		if (s->id == UINT64_MAX)
			dcfg_table_text(t, "-");
		else
			dcfg_table_u64(t, s->id);
		dcfg_names_cell(t, s->what, &rt->names);
		dcfg_rg_share_cells(t, s, total);
	}
}

size_t
dcfg_rg_routine_name(const struct dcfg_rg_routines *rt, size_t i, char *buf, size_t size)
{
	const struct dcfg_block *b = rt->r[i].what;
	struct dcfg_name nm;
	char name[512];

	if (b == NULL) {
		snprintf(buf, size, "no routine");
		return strlen(buf);
	}
	dcfg_name_at(&rt->names, b->addr, &nm);
	dcfg_name_format(&nm, name, sizeof name);
	return dcfg_escape(buf, size, name);
}

void
dcfg_rg_routines_free(struct dcfg_rg_routines *rt)
{
	if (rt->has_names)
		dcfg_names_free(&rt->names);
	free(rt->r);
	memset(rt, 0, sizeof *rt);
}
