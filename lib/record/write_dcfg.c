/*
 * The DCFG of a recorded process, laid out as Intel's writer lays it out
 * (../shared/real): a row a line, addresses as hex strings, every '/' as
 * "\/", optional tables absent rather than empty. File names come first
 * in the file but are known only once every image's file has been read
 * for its source files, so that is done before anything is written.
 */
#include "write_dcfg.h"

#include <stdlib.h>
#include <string.h>

#include "elfinfo.h"
#include "routines.h"

/*
 * EDGE_TYPES, as a fixed table: Intel's writer's 26 types with its ids
 * (../shared/real), then the kinds only the spec's example names.
 */
static const enum dcfg_edge_kind edge_types[] = {
	DCFG_EDGE_ENTRY, DCFG_EDGE_EXIT, DCFG_EDGE_CALL, DCFG_EDGE_DIRECT_CALL,
	DCFG_EDGE_INDIRECT_CALL, DCFG_EDGE_RETURN, DCFG_EDGE_CALL_BYPASS, DCFG_EDGE_BRANCH,
	DCFG_EDGE_CONDITIONAL_BRANCH, DCFG_EDGE_UNCONDITIONAL_BRANCH, DCFG_EDGE_DIRECT_BRANCH,
	DCFG_EDGE_INDIRECT_BRANCH, DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH,
	DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH, DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH,
	DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH, DCFG_EDGE_REP, DCFG_EDGE_FALL_THROUGH,
	DCFG_EDGE_SYSTEM_CALL, DCFG_EDGE_SYSTEM_RETURN, DCFG_EDGE_SYSTEM_CALL_BYPASS,
	DCFG_EDGE_CONTEXT_CHANGE, DCFG_EDGE_CONTEXT_CHANGE_RETURN, DCFG_EDGE_CONTEXT_CHANGE_BYPASS,
	DCFG_EDGE_EXCLUDED_CODE_BYPASS, DCFG_EDGE_UNKNOWN,
	DCFG_EDGE_INTERRUPT, DCFG_EDGE_INTERRUPT_RETURN, DCFG_EDGE_INTERRUPT_BYPASS,
	DCFG_EDGE_UNKNOWN_IMAGE_BYPASS,
};
#define N_EDGE_TYPES (sizeof edge_types / sizeof edge_types[0])

struct writer {
	const struct dcfg_rec_graph *g;
	struct dcfg_output *out;
	struct dcfg_error *err;
	struct dcfg_rec_names names;
	uint32_t *image_file;              /* FILE_NAME_ID of each image, 0 for none */
	uint32_t *order;                   /* block indices, grouped by image, by address in each */
	size_t *image_first;               /* image I's blocks: order[image_first[I] .. image_first[I + 1]) */
	struct dcfg_rec_elfinfo *infos;    /* each image's */
	uint32_t type_id[DCFG_EDGE_KIND_COUNT];
};

static int
fail(struct writer *w, const char *what)
{
	return dcfg_error_set(w->err, "dcfg-record", "writing the DCFG: %s", what);
}

/*
 * A JSON string as Intel's writer writes one, '/' as "\/". Control
 * characters as \u00XX; a byte that is not valid UTF-8, which JSON cannot
 * hold, as U+FFFD (dcfg_out_json_string's rules, with the slash added).
 */
static void
out_string(struct dcfg_output *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t k, i;

	dcfg_out_char(out, '"');
	for (;;) {
		k = dcfg_escape_kept(s);
		for (i = 0; i < k; i++) {
			if (s[i] == '"' || s[i] == '/')
				dcfg_out_char(out, '\\');
			dcfg_out_char(out, s[i]);
		}
		s += k;
		if (*s == '\0')
			break;
		unsigned char c = (unsigned char)*s++;
		if (c == '\\') {
			dcfg_out_str(out, "\\\\");
		} else if (c == '\n') {
			dcfg_out_str(out, "\\n");
		} else if (c == '\t') {
			dcfg_out_str(out, "\\t");
		} else if (c < 0x80 || (c == 0xc2 && (unsigned char)*s >= 0x80 &&
		    (unsigned char)*s <= 0x9f)) {
			if (c == 0xc2)
				c = (unsigned char)*s++;
			dcfg_out_str(out, "\\u00");
			dcfg_out_char(out, hex[c >> 4]);
			dcfg_out_char(out, hex[c & 15]);
		} else {
			dcfg_out_str(out, "\\ufffd");
		}
	}
	dcfg_out_char(out, '"');
}

static int
check_graph(struct writer *w)
{
	const struct dcfg_rec_graph *g = w->g;
	size_t i, t;

	if (g->n_blocks > 0x7fffffffu - DCFG_REC_FIRST_BLOCK || g->n_edges > 0x7fffffffu ||
	    g->n_images > 0x7fffffffu)
		return fail(w, "too many blocks, edges or images");
	for (i = 0; i < g->n_blocks; i++) {
		const struct dcfg_rec_block *b = &g->blocks[i];
		if (b->node != DCFG_REC_FIRST_BLOCK + i || b->image >= g->n_images ||
		    b->first_insn > g->n_insn_lengths || b->n_instrs > g->n_insn_lengths - b->first_insn)
			return dcfg_error_set(w->err, "dcfg-record",
			    "writing the DCFG: block %zu (node %u) is inconsistent", i, b->node);
	}
	for (i = 0; i < g->n_edges; i++) {
		const struct dcfg_rec_edge *e = &g->edges[i];
		if (e->source < DCFG_REC_START || e->source >= DCFG_REC_FIRST_BLOCK + g->n_blocks ||
		    e->target < DCFG_REC_START || e->target >= DCFG_REC_FIRST_BLOCK + g->n_blocks ||
		    (unsigned)e->kind >= DCFG_EDGE_KIND_COUNT || w->type_id[e->kind] == 0 ||
		    (g->n_threads > 0 && e->count_per_thread == NULL))
			return dcfg_error_set(w->err, "dcfg-record",
			    "writing the DCFG: edge %u is inconsistent", e->id);
	}
	for (t = 0; t < g->n_threads; t++)
		if (g->instrs_per_thread == NULL)
			return fail(w, "no instruction counts per thread");
	return 0;
}

/* Groups the blocks by image (a counting sort keeps each image's in address order). */
static int
group_blocks(struct writer *w)
{
	const struct dcfg_rec_graph *g = w->g;
	size_t i;

	w->order = malloc((g->n_blocks + 1) * sizeof *w->order);
	w->image_first = calloc(g->n_images + 2, sizeof *w->image_first);
	if (w->order == NULL || w->image_first == NULL)
		return fail(w, "out of memory");
	for (i = 0; i < g->n_blocks; i++)
		w->image_first[g->blocks[i].image + 2]++;
	for (i = 2; i < g->n_images + 2; i++)
		w->image_first[i] += w->image_first[i - 1];
	for (i = 0; i < g->n_blocks; i++)
		w->order[w->image_first[g->blocks[i].image + 1]++] = (uint32_t)i;
	return 0;
}

/* FILE_NAMES ids for the images first, so that they read 1, 2, ... as Intel's do, then each image's file. */
static int
read_images(struct writer *w)
{
	const struct dcfg_rec_graph *g = w->g;
	size_t i;

	w->image_file = calloc(g->n_images + 1, sizeof *w->image_file);
	w->infos = calloc(g->n_images + 1, sizeof *w->infos);
	if (w->image_file == NULL || w->infos == NULL)
		return fail(w, "out of memory");
	for (i = 0; i < g->n_images; i++)
		if (g->images[i].path != NULL &&
		    (w->image_file[i] = dcfg_rec_name_id(&w->names, g->images[i].path,
		    strlen(g->images[i].path))) == 0)
			return fail(w, "out of memory");
	for (i = 0; i < g->n_images; i++)
		if (dcfg_rec_elfinfo_read(&w->infos[i], g, (uint32_t)i, w->order + w->image_first[i],
		    w->image_first[i + 1] - w->image_first[i], &w->names, w->err) < 0)
			return -1;
	return 0;
}

static void
write_tables(struct writer *w)
{
	struct dcfg_output *out = w->out;
	size_t i;

	dcfg_out_str(out, "{ \"MAJOR_VERSION\" : 1,\n  \"MINOR_VERSION\" : 0,\n"
	    "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ]");
	for (i = 0; i < w->names.n; i++) {
		dcfg_out_str(out, ",\n    [ ");
		dcfg_out_u64(out, i + 1);
		dcfg_out_str(out, ", ");
		out_string(out, w->names.names[i]);
		dcfg_out_str(out, " ]");
	}
	dcfg_out_str(out, "\n  ],\n  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ]");
	for (i = 0; i < N_EDGE_TYPES; i++) {
		dcfg_out_str(out, ",\n    [ ");
		dcfg_out_u64(out, i + 1);
		dcfg_out_str(out, ", ");
		out_string(out, dcfg_edge_kind_name(edge_types[i]));
		dcfg_out_str(out, " ]");
	}
	dcfg_out_str(out, "\n  ],\n  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], "
	    "[ 1, \"START\" ], [ 2, \"END\" ], [ 3, \"UNKNOWN\" ] ],\n");
}

/* An IMAGE_DATA key: its first, or after a comma. */
static void
out_key(struct dcfg_output *out, int *first, const char *key)
{
	dcfg_out_str(out, *first ? " \"" : ",\n              \"");
	dcfg_out_str(out, key);
	dcfg_out_str(out, "\" : ");
	*first = 0;
}

static void
write_symbols(struct writer *w, const struct dcfg_rec_elfinfo *info, int *first)
{
	struct dcfg_output *out = w->out;
	size_t i;

	if (info->n_symbols == 0)
		return;
	out_key(out, first, "SYMBOLS");
	dcfg_out_str(out, "[ [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]");
	for (i = 0; i < info->n_symbols; i++) {
		const struct dcfg_rec_symbol *s = &info->symbols[i];
		dcfg_out_str(out, ",\n                [ ");
		out_string(out, info->strings + s->name);
		dcfg_out_str(out, ", \"");
		dcfg_out_hex(out, s->offset);
		dcfg_out_str(out, "\", ");
		dcfg_out_u64(out, s->size);
		dcfg_out_str(out, " ]");
	}
	dcfg_out_str(out, "\n              ]");
}

static void
write_source_data(struct writer *w, const struct dcfg_rec_elfinfo *info, int *first)
{
	struct dcfg_output *out = w->out;
	size_t i;

	if (info->n_rows == 0)
		return;
	out_key(out, first, "SOURCE_DATA");
	dcfg_out_str(out, "[ [ \"FILE_NAME_ID\", \"LINE_NUM\", "
	    "\"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ]");
	for (i = 0; i < info->n_rows; i++) {
		const struct dcfg_rec_source_row *r = &info->rows[i];
		dcfg_out_str(out, ",\n                [ ");
		dcfg_out_u64(out, r->file);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, r->line);
		dcfg_out_str(out, ", \"");
		dcfg_out_hex(out, r->offset);
		dcfg_out_str(out, "\", ");
		dcfg_out_u64(out, r->size);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, r->n_instrs);
		dcfg_out_str(out, " ]");
	}
	dcfg_out_str(out, "\n              ]");
}

static void
write_blocks(struct writer *w, size_t image, int *first)
{
	struct dcfg_output *out = w->out;
	const struct dcfg_rec_image *im = &w->g->images[image];
	size_t i;

	if (w->image_first[image] == w->image_first[image + 1])
		return;
	out_key(out, first, "BASIC_BLOCKS");
	dcfg_out_str(out, "[ [ \"NODE_ID\", \"ADDR_OFFSET\", "
	    "\"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\" ]");
	for (i = w->image_first[image]; i < w->image_first[image + 1]; i++) {
		const struct dcfg_rec_block *b = &w->g->blocks[w->order[i]];
		dcfg_out_str(out, ",\n                [ ");
		dcfg_out_u64(out, b->node);
		dcfg_out_str(out, ", \"");
		dcfg_out_hex(out, b->addr - im->load);
		dcfg_out_str(out, "\", ");
		dcfg_out_u64(out, b->size);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, b->n_instrs);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, b->last_offset);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, b->count);
		dcfg_out_str(out, " ]");
	}
	dcfg_out_str(out, "\n              ]");
}

static int
write_image(struct writer *w, struct dcfg_rec_cfg *cfg, size_t i)
{
	struct dcfg_output *out = w->out;
	const struct dcfg_rec_image *im = &w->g->images[i];
	size_t at = w->image_first[i], n = w->image_first[i + 1] - at;
	int first = 1;

	dcfg_out_str(out, ",\n          [ ");
	dcfg_out_u64(out, im->id);
	dcfg_out_str(out, ",\n            \"");
	dcfg_out_hex(out, im->load);
	dcfg_out_str(out, "\",\n            ");
	dcfg_out_u64(out, im->size);
	dcfg_out_str(out, ",\n            {");
	if (w->image_file[i] != 0) {
		out_key(out, &first, "FILE_NAME_ID");
		dcfg_out_u64(out, w->image_file[i]);
	}
	write_symbols(w, &w->infos[i], &first);
	write_source_data(w, &w->infos[i], &first);
	write_blocks(w, i, &first);
	if (cfg != NULL && dcfg_rec_write_routines(out, cfg, w->g, w->order + at, n, &w->infos[i],
	    "              ", w->err) < 0)
		return -1;
	dcfg_out_str(out, first ? "} ]" : "\n            } ]");
	return 0;
}

static void
write_edges(struct writer *w)
{
	struct dcfg_output *out = w->out;
	const struct dcfg_rec_graph *g = w->g;
	size_t i, t;

	dcfg_out_str(out, ",\n        \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", "
	    "\"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]");
	for (i = 0; i < g->n_edges; i++) {
		const struct dcfg_rec_edge *e = &g->edges[i];
		dcfg_out_str(out, ",\n          [ ");
		dcfg_out_u64(out, e->id);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, e->source);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, e->target);
		dcfg_out_str(out, ", ");
		dcfg_out_u64(out, w->type_id[e->kind]);
		dcfg_out_str(out, ", [");
		for (t = 0; t < g->n_threads; t++) {
			dcfg_out_str(out, t ? ", " : " ");
			dcfg_out_u64(out, e->count_per_thread[t]);
		}
		dcfg_out_str(out, " ] ]");
	}
	dcfg_out_str(out, "\n        ]");
}

static int
write_process(struct writer *w, struct dcfg_rec_cfg *cfg)
{
	struct dcfg_output *out = w->out;
	const struct dcfg_rec_graph *g = w->g;
	uint64_t total = 0;
	size_t i;

	dcfg_out_str(out, "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n    [ ");
	dcfg_out_u64(out, g->pid);
	dcfg_out_str(out, ",\n      { \"INSTR_COUNT_PER_THREAD\" : [");
	for (i = 0; i < g->n_threads; i++) {
		dcfg_out_str(out, i ? ", " : " ");
		dcfg_out_u64(out, g->instrs_per_thread[i]);
		total += g->instrs_per_thread[i];
	}
	dcfg_out_str(out, " ],\n        \"INSTR_COUNT\" : ");
	dcfg_out_u64(out, total);
	dcfg_out_str(out, ",\n        \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ]");
	for (i = 0; i < g->n_images; i++)
		if (write_image(w, cfg, i) < 0)
			return -1;
	dcfg_out_str(out, "\n        ]");
	write_edges(w);
	dcfg_out_str(out, "\n      }\n    ]\n  ]\n}\n");
	return 0;
}

int
dcfg_rec_write_dcfg(const struct dcfg_rec_graph *g, struct dcfg_output *out,
    struct dcfg_error *err)
{
	struct writer w = { .g = g, .out = out, .err = err };
	struct dcfg_rec_cfg *cfg = NULL;
	size_t i;
	int rc = -1;

	for (i = 0; i < N_EDGE_TYPES; i++)
		w.type_id[edge_types[i]] = (uint32_t)(i + 1);
	if (check_graph(&w) == 0 && group_blocks(&w) == 0 && read_images(&w) == 0 &&
	    (cfg = dcfg_rec_cfg_new(g, err)) != NULL) {
		write_tables(&w);
		rc = write_process(&w, cfg);
	}
	dcfg_rec_cfg_free(cfg);
	for (i = 0; w.infos != NULL && i < g->n_images; i++)
		dcfg_rec_elfinfo_free(&w.infos[i]);
	free(w.infos);
	free(w.image_file);
	free(w.order);
	free(w.image_first);
	dcfg_rec_names_free(&w.names);
	return rc;
}
