/*
 * The DCFG loader: the format as a const schema for the JSON walker, and
 * callbacks that append each finished row to its array. Rows nest (blocks
 * inside an image row inside a process row), and the owner's own columns
 * may come after its nested tables, so records point to their owner by the
 * index it will get, and ids are resolved after the pass (index.c).
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "common/input.h"
#include "index.h"
#include "required.h"
#include "common/json.h"
#include "common/kind.h"
#include "common/vec.h"

enum field_id {
	ROOT, MAJOR, MINOR,
	FILE_NAMES, FN_ID, FN_NAME,
	EDGE_TYPES, ET_ID, ET_NAME,
	SPECIAL_NODES, SN_ID, SN_NAME,
	PROCESSES, PR_ID, PR_DATA, PR_INSTRS, PR_THREAD_INSTRS,
	IMAGES, IM_ID, IM_LOAD, IM_SIZE, IM_DATA, IM_FILE,
	SYMBOLS, SY_NAME, SY_OFFSET, SY_SIZE,
	SOURCE, SR_FILE, SR_LINE, SR_OFFSET, SR_SIZE, SR_INSTRS,
	BLOCKS, BB_ID, BB_OFFSET, BB_SIZE, BB_INSTRS, BB_LAST, BB_COUNT,
	ROUTINES, RT_ENTRY, RT_EXITS, RT_NODES, ND_ID, ND_IDOM, RT_LOOPS,
	LP_HEAD, LP_BACK, LP_NODES, LP_PARENT,
	EDGES, ED_ID, ED_SOURCE, ED_TARGET, ED_TYPE, ED_COUNTS,
	PR_TRACE_COLUMN     /* a DCFG-trace's, in the PROCESSES header (kind.h) */
};

#define TABLE(name, id, schema, req) { name, id, DCFG_JSON_TABLE, &schema, req }
#define OBJECT(name, id, schema) { name, id, DCFG_JSON_OBJECT, &schema, 0 }
#define INT(name, id, req) { name, id, DCFG_JSON_INT, NULL, req }
#define STR(name, id, req) { name, id, DCFG_JSON_STRING, NULL, req }
#define INTS(name, id, req) { name, id, DCFG_JSON_INT_ARRAY, NULL, req }
#define SKIP(name, id) { name, id, DCFG_JSON_SKIP, NULL, 0 }

DCFG_JSON_SCHEMA(file_names, INT("FILE_NAME_ID", FN_ID, 1), STR("FILE_NAME", FN_NAME, 1));
DCFG_JSON_SCHEMA(edge_types, INT("EDGE_TYPE_ID", ET_ID, 1), STR("EDGE_TYPE", ET_NAME, 1));
DCFG_JSON_SCHEMA(special_nodes, INT("NODE_ID", SN_ID, 1), STR("NODE_NAME", SN_NAME, 1));
DCFG_JSON_SCHEMA(symbols, STR("NAME", SY_NAME, 1), INT("ADDR_OFFSET", SY_OFFSET, 1),
    INT("SIZE", SY_SIZE, 1));
DCFG_JSON_SCHEMA(source, INT("FILE_NAME_ID", SR_FILE, 1), INT("LINE_NUM", SR_LINE, 1),
    INT("ADDR_OFFSET", SR_OFFSET, 1), INT("SIZE", SR_SIZE, 1),
    INT("NUM_INSTRS", SR_INSTRS, 1));
DCFG_JSON_SCHEMA(blocks, INT("NODE_ID", BB_ID, 1), INT("ADDR_OFFSET", BB_OFFSET, 1),
    INT("SIZE", BB_SIZE, 1), INT("NUM_INSTRS", BB_INSTRS, 1),
    INT("LAST_INSTR_OFFSET", BB_LAST, 1), INT("COUNT", BB_COUNT, 0));
DCFG_JSON_SCHEMA(nodes, INT("NODE_ID", ND_ID, 1), INT("IDOM_NODE_ID", ND_IDOM, 1));
DCFG_JSON_SCHEMA(loops, INT("LOOP_HEAD_NODE_ID", LP_HEAD, 1),
    INTS("LOOP_BACK_EDGE_SOURCE_NODE_IDS", LP_BACK, 1),
    INTS("LOOP_NODE_IDS", LP_NODES, 1),
    INT("PARENT_LOOP_HEAD_NODE_ID", LP_PARENT, 0));
DCFG_JSON_SCHEMA(routines, INT("ENTRY_NODE_ID", RT_ENTRY, 1),
    INTS("EXIT_NODE_IDS", RT_EXITS, 1), TABLE("NODES", RT_NODES, nodes, 1),
    TABLE("LOOPS", RT_LOOPS, loops, 0));
DCFG_JSON_SCHEMA(image_data, INT("FILE_NAME_ID", IM_FILE, 0),
    TABLE("SYMBOLS", SYMBOLS, symbols, 0), TABLE("SOURCE_DATA", SOURCE, source, 0),
    TABLE("BASIC_BLOCKS", BLOCKS, blocks, 0), TABLE("ROUTINES", ROUTINES, routines, 0));
DCFG_JSON_SCHEMA(images, INT("IMAGE_ID", IM_ID, 1), INT("LOAD_ADDR", IM_LOAD, 1),
    INT("SIZE", IM_SIZE, 1), OBJECT("IMAGE_DATA", IM_DATA, image_data));
DCFG_JSON_SCHEMA(edges, INT("EDGE_ID", ED_ID, 1), INT("SOURCE_NODE_ID", ED_SOURCE, 1),
    INT("TARGET_NODE_ID", ED_TARGET, 1), INT("EDGE_TYPE_ID", ED_TYPE, 1),
    INTS("COUNT_PER_THREAD", ED_COUNTS, 1));
DCFG_JSON_SCHEMA(process_data, INT("INSTR_COUNT", PR_INSTRS, 0),
    INTS("INSTR_COUNT_PER_THREAD", PR_THREAD_INSTRS, 0),
    TABLE("IMAGES", IMAGES, images, 0), TABLE("EDGES", EDGES, edges, 0));
DCFG_JSON_SCHEMA(processes, INT("PROCESS_ID", PR_ID, 1),
    OBJECT("PROCESS_DATA", PR_DATA, process_data),
    SKIP("STRING_DICTIONARY", PR_TRACE_COLUMN), SKIP("TRANSITION_TABLE", PR_TRACE_COLUMN),
    SKIP("THREAD_DATA", PR_TRACE_COLUMN));
DCFG_JSON_SCHEMA(top, INT("MAJOR_VERSION", MAJOR, 0), INT("MINOR_VERSION", MINOR, 0),
    TABLE("FILE_NAMES", FILE_NAMES, file_names, 0),
    TABLE("EDGE_TYPES", EDGE_TYPES, edge_types, 0),
    TABLE("SPECIAL_NODES", SPECIAL_NODES, special_nodes, 0),
    TABLE("PROCESSES", PROCESSES, processes, 0));

static const struct dcfg_json_field root = { "", ROOT, DCFG_JSON_OBJECT, &top, 0 };

struct caps {
	size_t file_names, edge_types, special_nodes, processes, images, symbols,
	    source_lines, blocks, routines, routine_nodes, loops, edges, node_ids,
	    counts, strings;
};

struct loader {
	struct dcfg *d;
	struct dcfg_json *j;
	unsigned keep;
	struct caps cap;
	const struct dcfg_load_options *opt;

	/* The row being read in each table; finished rows are appended. */
	struct dcfg_file_name file_name;
	struct dcfg_edge_type edge_type;
	struct dcfg_special_node special;
	struct dcfg_process process;
	struct dcfg_image image;
	struct dcfg_symbol symbol;
	struct dcfg_source_line source;
	struct dcfg_block block;
	struct dcfg_routine routine;
	struct dcfg_routine_node node;
	struct dcfg_loop loop;
	struct dcfg_edge edge;
	int edge_counts_kept;
	int has_thread_instrs;
	struct dcfg_required required;
	unsigned long trace_line, trace_column;   /* of the header that shows a DCFG-trace */
};

/* Appends room for one element to *ARR; the new element's index is *N - 1. */
static int
grow(struct loader *L, void **arr, size_t *n, size_t *cap, size_t elsize)
{
	if (*n < *cap) {   /* the commonest case, without a call */
		++*n;
		return 0;
	}
	if (dcfg_reserve(arr, cap, *n + 1, elsize) < 0)
		return dcfg_json_fail(L->j, "too many records, or out of memory");
	++*n;
	return 0;
}

#define APPEND(L, field, value) \
	(grow((L), (void **)&(L)->d->field, &(L)->d->n_##field, &(L)->cap.field, \
	    sizeof *(L)->d->field) < 0 ? -1 : \
	    ((L)->d->field[(L)->d->n_##field - 1] = (value), 0))

static uint32_t
here(size_t n)
{
	return (uint32_t)n;
}

static int
add_string(struct loader *L, const char *s, size_t len, uint32_t *offset)
{
	struct dcfg *d = L->d;

	if (memchr(s, '\0', len) != NULL)
		return dcfg_json_fail(L->j, "string contains a NUL character");
	if (dcfg_reserve((void **)&d->strings, &L->cap.strings, d->n_strings + len + 1, 1) < 0)
		return dcfg_json_fail(L->j, "too much string data, or out of memory");
	memcpy(d->strings + d->n_strings, s, len);
	d->strings[d->n_strings + len] = '\0';
	*offset = (uint32_t)d->n_strings;
	d->n_strings += len + 1;
	return 0;
}

/* Whether the rows of the tables that FLAG (DCFG_KEEP_*) names are stored. */
static int
kept(const struct loader *L, unsigned flag)
{
	return (L->keep & flag) != 0;
}

/* A table that is not kept is skipped unread, or read and checked but not stored. */
static int
walked(const struct loader *L, unsigned flag)
{
	return kept(L, flag) || (L->keep & DCFG_LOAD_CHECK_DROPPED) ? DCFG_JSON_OK : DCFG_JSON_DROP;
}

static int
on_begin(void *ctx, int id)
{
	struct loader *L = ctx;
	struct dcfg *d = L->d;

	switch (id) {
	case ROOT: dcfg_required_top(&L->required, L->j); break;
	case PROCESSES: dcfg_required_saw(&L->required, DCFG_PART_PROCESSES); break;
	case PR_DATA: dcfg_required_saw(&L->required, DCFG_PART_PROCESS_DATA); break;
	case IMAGES: dcfg_required_saw(&L->required, DCFG_PART_IMAGES); break;
	case SYMBOLS: return walked(L, DCFG_KEEP_SYMBOLS);
	case SOURCE: return walked(L, DCFG_KEEP_SOURCE);
	case BLOCKS: return walked(L, DCFG_KEEP_BLOCKS);
	case ROUTINES: return walked(L, DCFG_KEEP_ROUTINES);
	case EDGES: return walked(L, DCFG_KEEP_EDGES);
	case PR_THREAD_INSTRS:
		L->process.thread_instr_counts.first = here(d->n_counts);
		L->has_thread_instrs = 1;
		break;
	case RT_EXITS:
		L->routine.exits.first = here(d->n_node_ids);
		break;
	case LP_BACK:
		L->loop.back_edge_sources.first = here(d->n_node_ids);
		break;
	case LP_NODES:
		L->loop.nodes.first = here(d->n_node_ids);
		break;
	case ED_COUNTS:
		L->edge_counts_kept = kept(L, DCFG_KEEP_EDGE_COUNTS) && kept(L, DCFG_KEEP_EDGES);
		L->edge.counts.first = L->edge_counts_kept ? here(d->n_counts) : DCFG_NONE;
		L->edge.counts.count = 0;
		L->edge.total = 0;
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_end(void *ctx, int id)
{
	struct loader *L = ctx;
	struct dcfg *d = L->d;

	switch (id) {
	case PR_THREAD_INSTRS:
		L->process.thread_instr_counts.count =
		    here(d->n_counts) - L->process.thread_instr_counts.first;
		break;
	case RT_EXITS:
		L->routine.exits.count = here(d->n_node_ids) - L->routine.exits.first;
		break;
	case LP_BACK:
		L->loop.back_edge_sources.count =
		    here(d->n_node_ids) - L->loop.back_edge_sources.first;
		break;
	case LP_NODES:
		L->loop.nodes.count = here(d->n_node_ids) - L->loop.nodes.first;
		break;
	}
	return DCFG_JSON_OK;
}

/* Marks where a process's or image's nested records start. */
#define OPEN(range, n) ((range).first = here(n), (range).count = 0)
#define CLOSE(range, n) ((range).count = here(n) - (range).first)

static int
on_row_begin(void *ctx, int table)
{
	struct loader *L = ctx;
	struct dcfg *d = L->d;

	switch (table) {
	case FILE_NAMES: memset(&L->file_name, 0, sizeof L->file_name); break;
	case EDGE_TYPES: memset(&L->edge_type, 0, sizeof L->edge_type); break;
	case SPECIAL_NODES: memset(&L->special, 0, sizeof L->special); break;
	case PROCESSES:
		memset(&L->process, 0, sizeof L->process);
		L->has_thread_instrs = 0;
		OPEN(L->process.images, d->n_images);
		OPEN(L->process.edges, d->n_edges);
		OPEN(L->process.symbols, d->n_symbols);
		OPEN(L->process.source_lines, d->n_source_lines);
		OPEN(L->process.blocks, d->n_blocks);
		OPEN(L->process.routines, d->n_routines);
		OPEN(L->process.loops, d->n_loops);
		return dcfg_required_row(&L->required, L->j);
	case IMAGES:
		memset(&L->image, 0, sizeof L->image);
		L->image.file_name_id = DCFG_NONE;
		L->image.process = here(d->n_processes);
		OPEN(L->image.symbols, d->n_symbols);
		OPEN(L->image.source_lines, d->n_source_lines);
		OPEN(L->image.blocks, d->n_blocks);
		OPEN(L->image.routines, d->n_routines);
		break;
	case SYMBOLS:
		memset(&L->symbol, 0, sizeof L->symbol);
		L->symbol.image = here(d->n_images);
		break;
	case SOURCE:
		memset(&L->source, 0, sizeof L->source);
		L->source.image = here(d->n_images);
		break;
	case BLOCKS:
		memset(&L->block, 0, sizeof L->block);
		L->block.image = here(d->n_images);
		L->block.routine = DCFG_NONE;
		break;
	case ROUTINES:
		memset(&L->routine, 0, sizeof L->routine);
		L->routine.image = here(d->n_images);
		OPEN(L->routine.nodes, d->n_routine_nodes);
		OPEN(L->routine.loops, d->n_loops);
		break;
	case RT_NODES: memset(&L->node, 0, sizeof L->node); break;
	case RT_LOOPS:
		memset(&L->loop, 0, sizeof L->loop);
		L->loop.routine = here(d->n_routines);
		break;
	case EDGES:
		memset(&L->edge, 0, sizeof L->edge);
		L->edge.counts.first = DCFG_NONE;
		break;
	}
	return DCFG_JSON_OK;
}

static int
on_row_end(void *ctx, int table)
{
	struct loader *L = ctx;
	struct dcfg *d = L->d;

	switch (table) {
	case FILE_NAMES: return APPEND(L, file_names, L->file_name);
	case EDGE_TYPES: return APPEND(L, edge_types, L->edge_type);
	case SPECIAL_NODES: return APPEND(L, special_nodes, L->special);
	case PROCESSES:
		CLOSE(L->process.images, d->n_images);
		CLOSE(L->process.edges, d->n_edges);
		CLOSE(L->process.symbols, d->n_symbols);
		CLOSE(L->process.source_lines, d->n_source_lines);
		CLOSE(L->process.blocks, d->n_blocks);
		CLOSE(L->process.routines, d->n_routines);
		CLOSE(L->process.loops, d->n_loops);
		if (!L->has_thread_instrs)
			L->process.thread_instr_counts.first = DCFG_NONE;
		return APPEND(L, processes, L->process);
	case IMAGES:
		CLOSE(L->image.symbols, d->n_symbols);
		CLOSE(L->image.source_lines, d->n_source_lines);
		CLOSE(L->image.blocks, d->n_blocks);
		CLOSE(L->image.routines, d->n_routines);
		return APPEND(L, images, L->image);
	}
	/* The rows of tables that are checked but not kept (DCFG_LOAD_CHECK_DROPPED) go. */
	switch (table) {
	case SYMBOLS:
		return kept(L, DCFG_KEEP_SYMBOLS) ? APPEND(L, symbols, L->symbol) : DCFG_JSON_OK;
	case SOURCE:
		return kept(L, DCFG_KEEP_SOURCE) ? APPEND(L, source_lines, L->source) : DCFG_JSON_OK;
	case BLOCKS:
		return kept(L, DCFG_KEEP_BLOCKS) ? APPEND(L, blocks, L->block) : DCFG_JSON_OK;
	case ROUTINES:
		if (!kept(L, DCFG_KEEP_ROUTINES))
			return DCFG_JSON_OK;
		CLOSE(L->routine.nodes, d->n_routine_nodes);
		CLOSE(L->routine.loops, d->n_loops);
		return APPEND(L, routines, L->routine);
	case RT_NODES:
		return kept(L, DCFG_KEEP_ROUTINES) ? APPEND(L, routine_nodes, L->node) : DCFG_JSON_OK;
	case RT_LOOPS:
		return kept(L, DCFG_KEEP_ROUTINES) ? APPEND(L, loops, L->loop) : DCFG_JSON_OK;
	case EDGES:
		return kept(L, DCFG_KEEP_EDGES) ? APPEND(L, edges, L->edge) : DCFG_JSON_OK;
	}
	return DCFG_JSON_OK;
}

static int
id32(struct loader *L, uint64_t v, uint32_t *out)
{
	if (v > UINT32_MAX)
		return dcfg_json_fail(L->j, "id does not fit in 32 bits");
	*out = (uint32_t)v;
	return 0;
}

static int
on_integer(void *ctx, int id, uint64_t v)
{
	struct loader *L = ctx;
	struct dcfg *d = L->d;
	uint32_t node = 0;

	switch (id) {
	case MAJOR:
		d->major_version = v;
		d->has_version |= 1;
		dcfg_required_saw(&L->required, DCFG_PART_MAJOR);
		break;
	case MINOR:
		d->minor_version = v;
		d->has_version |= 2;
		dcfg_required_saw(&L->required, DCFG_PART_MINOR);
		break;
	case FN_ID: return id32(L, v, &L->file_name.id);
	case ET_ID: return id32(L, v, &L->edge_type.id);
	case SN_ID: return id32(L, v, &L->special.id);
	case PR_ID:
		L->process.pid = v;
		dcfg_required_pid(&L->required, L->j, v);
		break;
	case PR_INSTRS: L->process.instr_count = v; L->process.has_instr_count = 1; break;
	case PR_THREAD_INSTRS: return APPEND(L, counts, v);
	case IM_ID: return id32(L, v, &L->image.id);
	case IM_LOAD: L->image.load_addr = v; break;
	case IM_SIZE: L->image.size = v; break;
	case IM_FILE: return id32(L, v, &L->image.file_name_id);
	case SY_OFFSET: L->symbol.offset = v; break;
	case SY_SIZE: L->symbol.size = v; break;
	case SR_FILE: return id32(L, v, &L->source.file_name_id);
	case SR_LINE: L->source.line = v; break;
	case SR_OFFSET: L->source.offset = v; break;
	case SR_SIZE: L->source.size = v; break;
	case SR_INSTRS: L->source.num_instrs = v; break;
	case BB_ID: return id32(L, v, &L->block.node_id);
	case BB_OFFSET: L->block.offset = v; break;
	case BB_SIZE: L->block.size = v; break;
	case BB_INSTRS: L->block.num_instrs = v; break;
	case BB_LAST: L->block.last_instr_offset = v; break;
	case BB_COUNT: L->block.count = v; L->block.has_count = 1; break;
	case RT_ENTRY: return id32(L, v, &L->routine.entry_node_id);
	case ND_ID: return id32(L, v, &L->node.node_id);
	case ND_IDOM: return id32(L, v, &L->node.idom_node_id);
	case LP_HEAD: return id32(L, v, &L->loop.head_node_id);
	case LP_PARENT: return id32(L, v, &L->loop.parent_head_node_id);
	case RT_EXITS: case LP_BACK: case LP_NODES:
		if (id32(L, v, &node) < 0)
			return DCFG_JSON_ERROR;
		return kept(L, DCFG_KEEP_ROUTINES) ? APPEND(L, node_ids, node) : DCFG_JSON_OK;
	case ED_ID: return id32(L, v, &L->edge.id);
	case ED_SOURCE: return id32(L, v, &L->edge.source);
	case ED_TARGET: return id32(L, v, &L->edge.target);
	case ED_TYPE: return id32(L, v, &L->edge.type_id);
	case ED_COUNTS:
		if (L->edge.total > UINT64_MAX - v)
			return dcfg_json_fail(L->j, "the edge's total count does not fit in 64 bits");
		L->edge.total += v;
		L->edge.counts.count++;
		return L->edge_counts_kept ? APPEND(L, counts, v) : DCFG_JSON_OK;
	}
	return DCFG_JSON_OK;
}

static int
on_string(void *ctx, int id, const char *s, size_t len)
{
	struct loader *L = ctx;

	switch (id) {
	case FN_NAME: return add_string(L, s, len, &L->file_name.name);
	case ET_NAME:
		L->edge_type.kind = dcfg_edge_kind_from_name(s, len);
		return add_string(L, s, len, &L->edge_type.name);
	case SN_NAME:
		if (len == 5 && memcmp(s, "START", 5) == 0)
			L->special.kind = DCFG_SPECIAL_START;
		else if (len == 3 && memcmp(s, "END", 3) == 0)
			L->special.kind = DCFG_SPECIAL_END;
		else if (len == 7 && memcmp(s, "UNKNOWN", 7) == 0)
			L->special.kind = DCFG_SPECIAL_UNKNOWN;
		else
			L->special.kind = DCFG_SPECIAL_OTHER;
		return add_string(L, s, len, &L->special.name);
	case SY_NAME:
		if (kept(L, DCFG_KEEP_SYMBOLS))
			return add_string(L, s, len, &L->symbol.name);
		return memchr(s, '\0', len) == NULL ? DCFG_JSON_OK :
		    dcfg_json_fail(L->j, "string contains a NUL character");
	}
	return DCFG_JSON_OK;
}

/* A DCFG-trace given by mistake is told by its PROCESSES header, and named. */
static int
on_header(void *ctx, int table)
{
	struct loader *L = ctx;

	if (table != PROCESSES || dcfg_json_column(L->j, PR_TRACE_COLUMN) < 0 ||
	    dcfg_json_column(L->j, PR_DATA) >= 0)
		return DCFG_JSON_OK;
	dcfg_json_header_position(L->j, &L->trace_line, &L->trace_column);
	return DCFG_JSON_STOP;
}

static void
on_progress(void *ctx, uint64_t bytes)
{
	struct loader *L = ctx;

	if (L->opt && L->opt->progress)
		L->opt->progress(L->opt->progress_ctx, bytes);
}

static const struct dcfg_json_handler handler = {
	.begin = on_begin,
	.end = on_end,
	.row_begin = on_row_begin,
	.row_end = on_row_end,
	.integer = on_integer,
	.string = on_string,
	.header = on_header,
	.progress = on_progress,
	.wants = DCFG_KIND_DCFG,
};

struct dcfg *
dcfg_load(const char *path, const struct dcfg_load_options *opt,
    struct dcfg_error *err)
{
	struct loader L;
	struct dcfg_input *in;
	int rc;

	memset(&L, 0, sizeof L);
	L.opt = opt;
	L.keep = opt ? opt->keep : DCFG_KEEP_ALL;
	if ((in = dcfg_input_open(path, err)) == NULL)
		return NULL;
	if ((L.d = calloc(1, sizeof *L.d)) == NULL ||
	    (L.j = dcfg_json_new(&root, &handler, &L)) == NULL) {
		dcfg_error_set(err, path, "out of memory");
		rc = -1;
	} else {
		L.d->keep = L.keep;
		if (!(L.keep & DCFG_LOAD_NO_IDENTITY))
			dcfg_input_sum_start(in);
		rc = dcfg_json_parse(L.j, in, err);
		L.d->crc32 = dcfg_input_sum(in, &L.d->bytes);
		if (rc == 1)
			rc = dcfg_kind_error(err, dcfg_input_name(in), L.trace_line,
			    L.trace_column, DCFG_KIND_TRACE, DCFG_KIND_DCFG);
		if (rc == 0)
			rc = dcfg_required_verdict(&L.required, dcfg_input_name(in), err);
		if (rc == 0)
			rc = dcfg_index(L.d, dcfg_input_name(in), err);
	}
	dcfg_json_free(L.j);
	dcfg_required_free(&L.required);
	dcfg_input_close(in);
	if (rc < 0) {
		dcfg_kind_explain(path, DCFG_KIND_DCFG, err);
		dcfg_free(L.d);
		return NULL;
	}
	return L.d;
}
