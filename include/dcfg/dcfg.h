/*
 * The DCFG model (spec section 2) and its loader.
 *
 * dcfg_load() reads a whole DCFG in one SAX pass. Keys and columns may come
 * in any order, so references (edge types, file names, node ids) are
 * resolved after the pass. Every record is kept in one array per kind;
 * images and processes own contiguous ranges of those arrays. Ids are
 * never assumed to start at 1, to be dense or to be sorted.
 *
 * The loader checks syntax, types and the presence of required columns;
 * it does not judge the data (duplicate ids, dangling references, counts
 * that do not add up): dcfg-check does, with the same model.
 */
#ifndef DCFG_DCFG_H
#define DCFG_DCFG_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Only what these headers declare is exported from libdcfg.so (Makefile: -fvisibility=hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define DCFG_NONE UINT32_MAX   /* no index, no id */

/* What to keep; everything else is parsed and dropped. */
enum {
	DCFG_KEEP_SYMBOLS     = 1 << 0,
	DCFG_KEEP_SOURCE      = 1 << 1,
	DCFG_KEEP_BLOCKS      = 1 << 2,
	DCFG_KEEP_ROUTINES    = 1 << 3,   /* with their nodes and loops */
	DCFG_KEEP_EDGES       = 1 << 4,   /* with total counts */
	DCFG_KEEP_EDGE_COUNTS = 1 << 5,   /* per-thread edge counts too */
	DCFG_KEEP_ALL         = 0x3f
};

/* Also in keep: what a program that needs less can have the load skip. */
enum {
	DCFG_LOAD_CHECK_DROPPED   = 1 << 8,   /* tables not kept are checked as if kept */
	DCFG_LOAD_NO_ADDR_LOOKUPS = 1 << 9,   /* dcfg_block_at() ... find nothing */
	DCFG_LOAD_NO_IDENTITY     = 1 << 10   /* no CRC: dcfg_identity() gives 0, 0 */
};

/* Pre-defined edge types (spec 2.5), recognised by name. */
enum dcfg_edge_kind {
	DCFG_EDGE_UNDEFINED,   /* EDGE_TYPE_ID not in the EDGE_TYPES table */
	DCFG_EDGE_OTHER,       /* a name this version does not know */
	DCFG_EDGE_ENTRY, DCFG_EDGE_EXIT,
	DCFG_EDGE_BRANCH, DCFG_EDGE_CONDITIONAL_BRANCH, DCFG_EDGE_UNCONDITIONAL_BRANCH,
	DCFG_EDGE_DIRECT_BRANCH, DCFG_EDGE_INDIRECT_BRANCH,
	DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH, DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH,
	DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH, DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH,
	DCFG_EDGE_REP, DCFG_EDGE_FALL_THROUGH,
	DCFG_EDGE_CALL, DCFG_EDGE_DIRECT_CALL, DCFG_EDGE_INDIRECT_CALL, DCFG_EDGE_RETURN,
	DCFG_EDGE_CALL_BYPASS,
	DCFG_EDGE_SYSTEM_CALL, DCFG_EDGE_SYSTEM_RETURN, DCFG_EDGE_SYSTEM_CALL_BYPASS,
	DCFG_EDGE_CONTEXT_CHANGE, DCFG_EDGE_CONTEXT_CHANGE_RETURN, DCFG_EDGE_CONTEXT_CHANGE_BYPASS,
	DCFG_EDGE_EXCLUDED_CODE_BYPASS,
	/* In the spec's example table though not in its list of names. */
	DCFG_EDGE_INTERRUPT, DCFG_EDGE_INTERRUPT_RETURN, DCFG_EDGE_INTERRUPT_BYPASS,
	DCFG_EDGE_UNKNOWN_IMAGE_BYPASS,
	DCFG_EDGE_UNKNOWN,
	DCFG_EDGE_KIND_COUNT
};

/* Special nodes (spec 2.6). */
enum dcfg_special_kind {
	DCFG_SPECIAL_NONE,     /* not a special node */
	DCFG_SPECIAL_OTHER,    /* a name this version does not know */
	DCFG_SPECIAL_START, DCFG_SPECIAL_END, DCFG_SPECIAL_UNKNOWN
};

struct dcfg_range {
	uint32_t first, count;
};

struct dcfg_file_name {
	uint32_t id;
	uint32_t name;                 /* dcfg_string(d, name) */
};

struct dcfg_edge_type {
	uint32_t id;
	uint32_t name;
	enum dcfg_edge_kind kind;
};

struct dcfg_special_node {
	uint32_t id;
	uint32_t name;
	enum dcfg_special_kind kind;
};

struct dcfg_symbol {
	uint64_t offset, size;         /* relative to the image's load address */
	uint64_t addr;                 /* absolute */
	uint32_t name;
	uint32_t image;
};

struct dcfg_source_line {
	uint64_t offset, size, num_instrs, line;
	uint64_t addr;
	uint32_t file_name_id;
	uint32_t image;
};

struct dcfg_block {
	uint32_t node_id;
	uint32_t image;
	uint32_t routine;              /* DCFG_NONE when no routine lists it */
	uint32_t has_count;
	uint64_t offset, size, num_instrs, last_instr_offset;
	uint64_t count;                /* the COUNT column, when has_count */
	uint64_t addr;                 /* absolute: load address + offset */
};

struct dcfg_routine_node {
	uint32_t node_id, idom_node_id;
};

struct dcfg_routine {
	uint32_t entry_node_id;
	uint32_t image;
	struct dcfg_range exits;       /* in dcfg_node_ids() */
	struct dcfg_range nodes;       /* in dcfg_routine_nodes() */
	struct dcfg_range loops;       /* in dcfg_loops() */
};

struct dcfg_loop {
	uint32_t head_node_id;
	uint32_t parent_head_node_id;  /* 0 for an outer loop */
	uint32_t routine;
	struct dcfg_range back_edge_sources;  /* in dcfg_node_ids() */
	struct dcfg_range nodes;              /* in dcfg_node_ids() */
};

struct dcfg_edge {
	uint32_t id;
	uint32_t source, target;       /* node ids */
	uint32_t type_id;
	enum dcfg_edge_kind kind;
	struct dcfg_range counts;      /* per thread, in dcfg_counts() (if kept) */
	uint64_t total;                /* sum over threads */
};

struct dcfg_image {
	uint32_t id;                   /* may be 0 */
	uint32_t file_name_id;         /* DCFG_NONE when absent */
	uint32_t process;
	uint64_t load_addr, size;
	struct dcfg_range symbols, source_lines, blocks, routines;
};

struct dcfg_process {
	uint64_t pid;
	uint64_t instr_count;
	int has_instr_count;
	struct dcfg_range thread_instr_counts;   /* in dcfg_counts() */
	uint32_t threads;              /* INSTR_COUNT_PER_THREAD length, else longest COUNT_PER_THREAD */
	/* Everything the process's rows hold, as ranges of the tables (dcfg_images() ...). */
	struct dcfg_range images, edges, symbols, source_lines, blocks, routines, loops;
};

/* A loaded DCFG: opaque; its tables are read through the accessors below. */
struct dcfg;

struct dcfg_load_options {
	unsigned keep;                                  /* DCFG_KEEP_* */
	void (*progress)(void *ctx, uint64_t bytes);    /* may be NULL */
	void *progress_ctx;
};

/* Loads PATH ("-" or NULL: standard input). NULL with ERR set on failure. */
struct dcfg *dcfg_load(const char *path, const struct dcfg_load_options *opt,
    struct dcfg_error *err);
void dcfg_free(struct dcfg *d);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *dcfg_library_version(void);

/* ---- tables: each its array (NULL when empty or not kept), its length in *n ---- */

const struct dcfg_process *dcfg_processes(const struct dcfg *d, size_t *n);
const struct dcfg_image *dcfg_images(const struct dcfg *d, size_t *n);
const struct dcfg_symbol *dcfg_symbols(const struct dcfg *d, size_t *n);
const struct dcfg_source_line *dcfg_source_lines(const struct dcfg *d, size_t *n);
const struct dcfg_block *dcfg_blocks(const struct dcfg *d, size_t *n);
const struct dcfg_routine *dcfg_routines(const struct dcfg *d, size_t *n);
const struct dcfg_routine_node *dcfg_routine_nodes(const struct dcfg *d, size_t *n);
const struct dcfg_loop *dcfg_loops(const struct dcfg *d, size_t *n);
const struct dcfg_edge *dcfg_edges(const struct dcfg *d, size_t *n);
const struct dcfg_file_name *dcfg_file_names(const struct dcfg *d, size_t *n);
const struct dcfg_edge_type *dcfg_edge_types(const struct dcfg *d, size_t *n);
const struct dcfg_special_node *dcfg_special_nodes(const struct dcfg *d, size_t *n);
/* Node ids that routines (exits) and loops (back-edge sources, nodes) list by range. */
const uint32_t *dcfg_node_ids(const struct dcfg *d, size_t *n);
/* Per-thread counts that edges and processes list by range. */
const uint64_t *dcfg_counts(const struct dcfg *d, size_t *n);

/* 1 with the file's MAJOR_VERSION and MINOR_VERSION, 0 when it lacks either. */
int dcfg_file_version(const struct dcfg *d, uint64_t *major, uint64_t *minor);
/* The CRC-32 and size of the file's data, decompressed: which DCFG this is. */
void dcfg_identity(const struct dcfg *d, uint32_t *crc32, uint64_t *bytes);

/* ---- lookups: constant time by id, logarithmic by address ---- */

const struct dcfg_process *dcfg_find_process(const struct dcfg *d, uint64_t pid);
const struct dcfg_edge *dcfg_edge_by_id(const struct dcfg *d,
    const struct dcfg_process *p, uint32_t edge_id);
const struct dcfg_block *dcfg_block_by_node(const struct dcfg *d,
    const struct dcfg_process *p, uint32_t node_id);
const struct dcfg_block *dcfg_block_at(const struct dcfg *d,
    const struct dcfg_process *p, uint64_t addr);
/* The symbol covering ADDR; *offset (unless OFFSET is NULL) gets ADDR's distance from its start. */
const struct dcfg_symbol *dcfg_symbol_at(const struct dcfg *d,
    const struct dcfg_process *p, uint64_t addr, uint64_t *offset);
const struct dcfg_source_line *dcfg_source_at(const struct dcfg *d,
    const struct dcfg_process *p, uint64_t addr);
const struct dcfg_routine *dcfg_block_routine(const struct dcfg *d,
    const struct dcfg_block *b);
const struct dcfg_image *dcfg_block_image(const struct dcfg *d,
    const struct dcfg_block *b);
const struct dcfg_loop *dcfg_routine_loops(const struct dcfg *d,
    const struct dcfg_routine *r, size_t *n);
/*
 * What the N edges IDS of process P cost: INSTRS[i] gets the NUM_INSTRS of
 * the block edge IDS[i] leaves (0 when it leaves a special node or no
 * block), the instructions an execution of the edge adds to a thread's
 * count. N, or the index of the first id that is none of P's edges.
 */
size_t dcfg_edge_instrs(const struct dcfg *d, const struct dcfg_process *p,
    const uint32_t *ids, size_t n, uint64_t *instrs);

const char *dcfg_string(const struct dcfg *d, uint32_t offset);
/* File name for an id, NULL when the id is absent or names were not loaded. */
const char *dcfg_file_name(const struct dcfg *d, uint32_t file_name_id);
enum dcfg_special_kind dcfg_special_node(const struct dcfg *d, uint32_t node_id);
const char *dcfg_edge_kind_name(enum dcfg_edge_kind kind);
enum dcfg_edge_kind dcfg_edge_kind_from_name(const char *name, size_t len);
int dcfg_edge_kind_is_call(enum dcfg_edge_kind kind);
/* One of the nine *BRANCH kinds, or FALL_THROUGH: control flow inside a routine. */
int dcfg_edge_kind_is_branch(enum dcfg_edge_kind kind);
/* CONDITIONAL_BRANCH and its DIRECT and INDIRECT forms. */
int dcfg_edge_kind_is_conditional(enum dcfg_edge_kind kind);
/* A fabricated edge past a call, handler or excluded code (CALL_BYPASS...). */
int dcfg_edge_kind_is_bypass(enum dcfg_edge_kind kind);

/* ---- names of code, as every table, profile and picture of dcfg-tools writes them ---- */

/* The names of the code of one process (opaque). */
struct dcfg_code_names;

/* The names of process P of D: O(symbols log symbols) once. NULL when out of memory. */
struct dcfg_code_names *dcfg_code_names_new(const struct dcfg *d, const struct dcfg_process *p);
void dcfg_code_names_free(struct dcfg_code_names *names);
/*
 * The name of the code at ADDR ("main", "sym+0x1c", "IMAGE+0x40",
 * "_init@libc.so.6") into BUF, at most SIZE bytes with the NUL, as the file
 * spells it (not escaped). The length it needs, without the NUL, as snprintf.
 */
size_t dcfg_code_name(const struct dcfg_code_names *names, uint64_t addr, char *buf,
    size_t size);
/*
 * NAME, a name from the file, escaped as every text output of dcfg-tools
 * writes it (dcfg-stream(5), Names), into BUF, at most SIZE bytes with the
 * NUL, cut only between escapes. The length it needs, without the NUL.
 */
size_t dcfg_escape_name(const char *name, char *buf, size_t size);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
