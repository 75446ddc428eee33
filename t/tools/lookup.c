/*
 * Test driver for the library's lookups: loads a DCFG, then answers one
 * query per line of standard input, so bats tests can check each lookup
 * against answers worked out by hand. Not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "dcfg/model.h"
#include "common/json.h"

static unsigned
parse_keep(const char *list)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "symbols", DCFG_KEEP_SYMBOLS }, { "source", DCFG_KEEP_SOURCE },
		{ "blocks", DCFG_KEEP_BLOCKS }, { "routines", DCFG_KEEP_ROUTINES },
		{ "edges", DCFG_KEEP_EDGES }, { "edge-counts", DCFG_KEEP_EDGE_COUNTS },
		{ "all", DCFG_KEEP_ALL }, { "none", 0 },
		{ "check-dropped", DCFG_LOAD_CHECK_DROPPED },
		{ "no-addr-lookups", DCFG_LOAD_NO_ADDR_LOOKUPS },
		{ "no-identity", DCFG_LOAD_NO_IDENTITY },
	};
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned keep = 0;
	size_t i;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strcmp(tok, names[i].name) == 0)
				break;
		if (i == sizeof names / sizeof names[0]) {
			fprintf(stderr, "lookup: unknown part %s\n", tok);
			exit(2);
		}
		keep |= names[i].bit;
	}
	free(copy);
	return keep;
}

static uint64_t
number(const char *s)
{
	const char *why;
	uint64_t v;

	if (s == NULL || dcfg_parse_c_integer(s, strlen(s), &v, &why) < 0) {
		fprintf(stderr, "lookup: bad number %s\n", s ? s : "(none)");
		exit(2);
	}
	return v;
}

static void
print_block(const struct dcfg *d, const struct dcfg_block *b)
{
	const struct dcfg_routine *r;

	if (b == NULL) {
		puts("none");
		return;
	}
	r = dcfg_block_routine(d, b);
	printf("block %u addr 0x%llx size %llu instrs %llu image %u routine ",
	    b->node_id, (unsigned long long)b->addr, (unsigned long long)b->size,
	    (unsigned long long)b->num_instrs, dcfg_block_image(d, b)->id);
	if (r)
		printf("%u\n", r->entry_node_id);
	else
		puts("-");
}

int
main(int argc, char **argv)
{
	struct dcfg_load_options opt = { .keep = DCFG_KEEP_ALL };
	const struct dcfg_process *p = NULL;
	struct dcfg_error err;
	char line[256], *cmd, *arg, *save;
	struct dcfg *d;
	uint64_t off;

	if (argc == 4 && strcmp(argv[1], "--keep") == 0) {
		opt.keep = parse_keep(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: lookup [--keep LIST] FILE < queries\n");
		return 2;
	}
	if ((d = dcfg_load(argv[1], &opt, &err)) == NULL) {
		dcfg_cli_error("lookup", &err);
		return 2;
	}
	if (d->n_processes > 0)
		p = &d->processes[0];
	while (fgets(line, sizeof line, stdin)) {
		cmd = strtok_r(line, " \n", &save);
		arg = strtok_r(NULL, " \n", &save);
		if (cmd == NULL)
			continue;
		if (strcmp(cmd, "process") == 0) {
			p = dcfg_find_process(d, number(arg));
			puts(p ? "ok" : "none");
		} else if (strcmp(cmd, "sizes") == 0) {
			printf("file_names %zu edge_types %zu special_nodes %zu processes %zu "
			    "images %zu symbols %zu source_lines %zu blocks %zu routines %zu "
			    "routine_nodes %zu loops %zu edges %zu node_ids %zu counts %zu\n",
			    d->n_file_names, d->n_edge_types, d->n_special_nodes,
			    d->n_processes, d->n_images, d->n_symbols, d->n_source_lines,
			    d->n_blocks, d->n_routines, d->n_routine_nodes, d->n_loops,
			    d->n_edges, d->n_node_ids, d->n_counts);
		} else if (strcmp(cmd, "identity") == 0) {
			uint32_t crc;
			uint64_t bytes;
			dcfg_identity(d, &crc, &bytes);
			printf("crc %08x bytes %llu\n", crc, (unsigned long long)bytes);
		} else if (p == NULL) {
			puts("no process");
		} else if (strcmp(cmd, "edge") == 0) {
			const struct dcfg_edge *e = dcfg_edge_by_id(d, p, (uint32_t)number(arg));
			uint32_t i;
			if (e == NULL) {
				puts("none");
				continue;
			}
			printf("edge %u %u -> %u %s total %llu counts", e->id, e->source,
			    e->target, dcfg_edge_kind_name(e->kind),
			    (unsigned long long)e->total);
			for (i = 0; e->counts.first != DCFG_NONE && i < e->counts.count; i++)
				printf(" %llu", (unsigned long long)d->counts[e->counts.first + i]);
			if (e->counts.first == DCFG_NONE)
				printf(" (dropped)");
			putchar('\n');
		} else if (strcmp(cmd, "block") == 0) {
			print_block(d, dcfg_block_by_node(d, p, (uint32_t)number(arg)));
		} else if (strcmp(cmd, "block-at") == 0) {
			print_block(d, dcfg_block_at(d, p, number(arg)));
		} else if (strcmp(cmd, "symbol-at") == 0) {
			const struct dcfg_symbol *s = dcfg_symbol_at(d, p, number(arg), &off);
			if (s)
				printf("%s+0x%llx\n", dcfg_string(d, s->name), (unsigned long long)off);
			else
				puts("none");
		} else if (strcmp(cmd, "source-at") == 0) {
			const struct dcfg_source_line *s = dcfg_source_at(d, p, number(arg));
			const char *f = s ? dcfg_file_name(d, s->file_name_id) : NULL;
			if (s)
				printf("%s:%llu\n", f ? f : "?", (unsigned long long)s->line);
			else
				puts("none");
		} else if (strcmp(cmd, "loops-of") == 0) {
			const struct dcfg_block *b = dcfg_block_by_node(d, p, (uint32_t)number(arg));
			const struct dcfg_routine *r = b ? dcfg_block_routine(d, b) : NULL;
			const struct dcfg_loop *lp;
			size_t n, i;
			if (r == NULL) {
				puts("none");
				continue;
			}
			lp = dcfg_routine_loops(d, r, &n);
			printf("routine %u loops", r->entry_node_id);
			for (i = 0; i < n; i++)
				printf(" %u(parent %u)", lp[i].head_node_id, lp[i].parent_head_node_id);
			putchar('\n');
		} else if (strcmp(cmd, "image-of") == 0) {
			const struct dcfg_block *b = dcfg_block_by_node(d, p, (uint32_t)number(arg));
			const struct dcfg_image *im = b ? dcfg_block_image(d, b) : NULL;
			const char *f = im ? dcfg_file_name(d, im->file_name_id) : NULL;
			if (im)
				printf("image %u %s\n", im->id, f ? f : "?");
			else
				puts("none");
		} else if (strcmp(cmd, "special") == 0) {
			static const char *const names[] = { "none", "other", "START", "END", "UNKNOWN" };
			puts(names[dcfg_special_node(d, (uint32_t)number(arg))]);
		} else if (strcmp(cmd, "file") == 0) {
			const char *f = dcfg_file_name(d, (uint32_t)number(arg));
			puts(f ? f : "none");
		} else {
			fprintf(stderr, "lookup: unknown query %s\n", cmd);
			return 2;
		}
	}
	dcfg_free(d);
	return 0;
}
