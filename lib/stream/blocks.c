#include "blocks.h"

#include <stdlib.h>

#include "writer.h"

static const char *const special_names[] = { "-", "OTHER", "START", "END", "UNKNOWN" };

void
dcfg_out_symbol(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, uint64_t addr)
{
	uint64_t off;
	const struct dcfg_symbol *sym = dcfg_symbol_at(d, p, addr, &off);

	if (sym == NULL) {
		dcfg_out_char(out, '-');
		return;
	}
	dcfg_out_escaped(out, dcfg_string(d, sym->name));
	dcfg_out_char(out, '+');
	dcfg_out_hex(out, off);
}

static void
out_image(struct dcfg_output *out, const struct dcfg *d, const struct dcfg_image *im)
{
	const char *name = im ? dcfg_file_name(d, im->file_name_id) : NULL;

	dcfg_out_escaped(out, name ? name : "-");
}

static void
out_source(struct dcfg_output *out, const struct dcfg *d,
    const struct dcfg_process *p, uint64_t addr)
{
	const struct dcfg_source_line *src = dcfg_source_at(d, p, addr);
	const char *file = src ? dcfg_file_name(d, src->file_name_id) : NULL;

	if (src == NULL) {
		dcfg_out_char(out, '-');
		return;
	}
	dcfg_out_escaped(out, file ? file : "-");
	dcfg_out_char(out, ':');
	dcfg_out_u64(out, src->line);
}

/* Columns node .. instrs of a block (address, image, offset, size, instrs). */
static void
out_block(struct dcfg_output *out, const struct dcfg *d, const struct dcfg_block *b)
{
	dcfg_out_u64(out, b->node_id);
	dcfg_out_char(out, '\t');
	dcfg_out_hex(out, b->addr);
	dcfg_out_char(out, '\t');
	out_image(out, d, dcfg_block_image(d, b));
	dcfg_out_char(out, '\t');
	dcfg_out_hex(out, b->offset);
	dcfg_out_char(out, '\t');
	dcfg_out_u64(out, b->size);
	dcfg_out_char(out, '\t');
	dcfg_out_u64(out, b->num_instrs);
}

struct blocks_run {
	struct dcfg_stage *s;
	int offsets;
};

/* Key: a block's index in the DCFG, or n_blocks + a special node's kind. */
static void
render(void *ctx, size_t key)
{
	struct blocks_run *x = ctx;
	const struct dcfg *d = x->s->dcfg;
	const struct dcfg_process *p = x->s->p;
	struct dcfg_output *out = x->s->out;
	const struct dcfg_block *b;

	if (!x->offsets)
		dcfg_out_char(out, '\t');
	if (key >= d->n_blocks) {
		dcfg_out_str(out, special_names[key - d->n_blocks]);
		dcfg_out_str(out, x->offsets ? "\t-\n" : "\t-\t-\t-\t-\t-\t-\t-\n");
		return;
	}
	b = &d->blocks[key];
	if (x->offsets) {
		out_image(out, d, dcfg_block_image(d, b));
		dcfg_out_char(out, '+');
		dcfg_out_hex(out, b->offset);
	} else {
		out_block(out, d, b);
	}
	dcfg_out_char(out, '\t');
	dcfg_out_symbol(out, d, p, b->addr);
	if (!x->offsets) {
		dcfg_out_char(out, '\t');
		out_source(out, d, p, b->addr);
	}
	dcfg_out_char(out, '\n');
}

static int
block_key(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
    uint32_t *key, struct dcfg_error *err)
{
	struct blocks_run *x = ctx;
	const struct dcfg *d = x->s->dcfg;
	const struct dcfg_process *p = x->s->p;
	uint32_t b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target);
	enum dcfg_special_kind sp;

	if (b != DCFG_NONE) {
		*key = p->blocks.first + b;
		return 0;
	}
	if ((sp = dcfg_special_node(d, e->target)) == DCFG_SPECIAL_NONE)
		return dcfg_error_at(err, x->s->name, r->lineno, 1,
		    "node %u (the target of edge %u) is not a block of process %llu",
		    e->target, e->id, (unsigned long long)p->pid);
	*key = (uint32_t)(d->n_blocks + (size_t)sp);
	return 0;
}

int
dcfg_blocks_run(struct dcfg_stage *s, const char *path, int offsets,
    struct dcfg_error *err)
{
	struct blocks_run x = { .s = s, .offsets = offsets };

	s->fields = offsets ? "location symbol" :
	    "node address image offset size instrs symbol source";
	s->replace = offsets;
	s->key = block_key;
	s->render = render;
	s->n_keys = s->dcfg->n_blocks + sizeof special_names / sizeof special_names[0];
	s->runs = 1;       /* a line's columns do not depend on how often it runs */
	s->ctx = &x;
	return dcfg_stage_run(s, path, err);
}

int
dcfg_blocks_list(struct dcfg_output *out, const struct dcfg *d)
{
	size_t i;
	uint32_t k, b;

	dcfg_out_str(out, "# node\taddress\timage\toffset\tsize\tinstrs\tcount\tsymbol\tsource\n");
	for (i = 0; i < d->n_processes; i++) {
		const struct dcfg_process *p = &d->processes[i];
		uint64_t *count = calloc(p->blocks.count + 1, sizeof *count);
		if (count == NULL)
			return -1;
		for (k = 0; k < p->edges.count; k++) {
			const struct dcfg_edge *e = &d->edges[p->edges.first + k];
			if ((b = dcfg_idmap_get(&dcfg_process_index(d, p)->block_by_node, e->target)) != DCFG_NONE)
				count[b] += e->total;
		}
		dcfg_stream_write_process(out, p->pid);
		for (k = 0; k < p->blocks.count; k++) {
			const struct dcfg_block *bl = &d->blocks[p->blocks.first + k];
			out_block(out, d, bl);
			dcfg_out_char(out, '\t');
			dcfg_out_u64(out, p->edges.count ? count[k] : bl->count);
			dcfg_out_char(out, '\t');
			dcfg_out_symbol(out, d, p, bl->addr);
			dcfg_out_char(out, '\t');
			out_source(out, d, p, bl->addr);
			dcfg_out_char(out, '\n');
		}
		free(count);
	}
	return 0;
}
