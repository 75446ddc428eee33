/*
 * dcfg-profile over a stream: which process and threads are profiled,
 * what each block is to the slices, and the files.
 */
#include "profile_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "common/vec.h"
#include "stream/provenance.h"
#include "stream/writer.h"

/* PATH or its base name, as given or as the tables escape it (dcfg_name_matches). */
static int
name_matches(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');

	return dcfg_name_matches(path, name) || (slash && dcfg_name_matches(slash + 1, name));
}

/*
 * "; did you mean: A?" for an image NAME that is not there, or "": the
 * closest paths when NAME holds a '/', else the closest base names, as
 * name_matches takes them. Out of memory only costs suggestions.
 */
static void
image_hint(const struct dcfg_pinpoints *pr, const char *name, char *buf, size_t size)
{
	const struct dcfg *d = pr->d;
	const struct dcfg_process *p = pr->p;
	int as_path = strchr(name, '/') != NULL;
	struct dcfg_suggest s;
	uint32_t i;

	dcfg_suggest_init(&s, name);
	for (i = 0; i < p->images.count; i++) {
		const char *path = dcfg_file_name(d, d->images[p->images.first + i].file_name_id);
		const char *slash;
		if (path == NULL)
			continue;
		slash = strrchr(path, '/');
		if (dcfg_suggest_add(&s, as_path || slash == NULL ? path : slash + 1, SIZE_MAX) < 0)
			break;
	}
	dcfg_suggest_format(&s, buf, size);
	dcfg_suggest_free(&s);
}

/* -1 with ERR set when one of the N NAMES is no image of the process. */
static int
mark_images(struct dcfg_pinpoints *pr, const char *opt, const char *const *names, size_t n,
    uint8_t *in_image)
{
	const struct dcfg *d = pr->d;
	const struct dcfg_process *p = pr->p;
	size_t k;
	uint32_t i;

	memset(in_image, 0, p->images.count + 1);
	for (k = 0; k < n; k++) {
		int found = 0;
		for (i = 0; i < p->images.count; i++) {
			const struct dcfg_image *im = &d->images[p->images.first + i];
			const char *path = dcfg_file_name(d, im->file_name_id);
			if (path && name_matches(path, names[k]))
				in_image[i] = found = 1;
		}
		if (!found) {
			char shown[128], hint[224];
			dcfg_escape(shown, sizeof shown, names[k]);
			image_hint(pr, names[k], hint, sizeof hint);
			return dcfg_error_set(pr->err, pr->name, "%s %s: no image of process %llu has "
			    "this path or basename%s (all of them: dcfg-info --list images)", opt, shown,
			    (unsigned long long)p->pid, hint);
		}
	}
	return 0;
}

static uint32_t
image_of(const struct dcfg_pinpoints *pr, const struct dcfg_block *b)
{
	return b->image - pr->p->images.first;
}

uint64_t
dcfg_pinpoints_last_pc(const struct dcfg_block *b)
{
	if (b->size == 0)
		return b->addr;
	return b->last_instr_offset < b->size ? b->addr + b->last_instr_offset : b->addr + b->size - 1;
}

struct at_addr {
	uint64_t addr;
	uint32_t node, b;
};

static int
at_addr_cmp(const void *a, const void *b)
{
	const struct at_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The blocks of instructions in address order, and each block's PC. */
static int
blocks_by_addr(struct dcfg_pinpoints *pr)
{
	const struct dcfg_block *blocks = &pr->d->blocks[pr->p->blocks.first];
	struct at_addr *v = malloc((pr->n_blocks + 1) * sizeof *v);
	size_t i, n = 0;

	pr->by_addr = malloc((pr->n_blocks + 1) * sizeof *pr->by_addr);
	pr->pc_of = malloc((pr->n_blocks + 1) * sizeof *pr->pc_of);
	if (v == NULL || pr->by_addr == NULL || pr->pc_of == NULL) {
		free(v);
		return -1;
	}
	for (i = 0; i < pr->n_blocks; i++)
		if (pr->blocks[i].ni > 0)
			v[n++] = (struct at_addr){ blocks[i].addr, blocks[i].node_id, (uint32_t)i };
	qsort(v, n, sizeof *v, at_addr_cmp);
	pr->n_pcs = 0;
	for (i = 0; i < n; i++) {
		if (i > 0 && v[i].addr != v[i - 1].addr)
			pr->n_pcs++;
		pr->by_addr[i] = v[i].b;
		pr->pc_of[v[i].b] = (uint32_t)pr->n_pcs;
	}
	if (n > 0)
		pr->n_pcs++;
	pr->n_by_addr = n;
	/* a block of no instructions is never entered: a PC of its own, never counted */
	for (i = 0; i < pr->n_blocks; i++)
		if (pr->blocks[i].ni == 0)
			pr->pc_of[i] = (uint32_t)pr->n_pcs;
	free(v);
	return (pr->warned = calloc(pr->n_pcs + 1, 1)) ? 0 : -1;
}

/* What each block and edge of P is to the slices. */
int
dcfg_pinpoints_setup_process(struct dcfg_pinpoints *pr, const struct dcfg_process *p)
{
	const struct dcfg *d = pr->d;
	const struct dcfg_process_index *ix = dcfg_process_index(d, p);
	uint8_t *excluded = NULL, *loop_image = NULL;
	uint32_t i;
	int rc = -1;

	pr->p = p;
	pr->n_blocks = p->blocks.count;
	pr->blocks = calloc(pr->n_blocks + 1, sizeof *pr->blocks);
	pr->src = malloc((p->edges.count + 1) * sizeof *pr->src);
	pr->target = malloc((p->edges.count + 1) * sizeof *pr->target);
	excluded = malloc(p->images.count + 1);
	loop_image = malloc(p->images.count + 1);
	if (pr->blocks == NULL || pr->src == NULL || pr->target == NULL || excluded == NULL ||
	    loop_image == NULL) {
		dcfg_error_set(pr->err, pr->name, "out of memory");
		goto done;
	}
	if (mark_images(pr, "--exclude-image", pr->o->exclude, pr->o->n_exclude, excluded) < 0 ||
	    mark_images(pr, "--loop-image", pr->o->loop_images, pr->o->n_loop_images, loop_image) < 0)
		goto done;
	for (i = 0; i < p->blocks.count; i++) {
		const struct dcfg_block *b = &d->blocks[p->blocks.first + i];
		pr->blocks[i] = (struct dcfg_pinpoints_block){ .ni = b->num_instrs, .node = b->node_id,
		    .eligible = !pr->o->loop_aligned && b->num_instrs > 0,
		    .excluded = excluded[image_of(pr, b)] };
	}
	for (i = 0; pr->o->loop_aligned && i < p->loops.count; i++) {
		const struct dcfg_loop *l = &d->loops[p->loops.first + i];
		uint32_t b = dcfg_idmap_get(&ix->block_by_node, l->head_node_id);
		if (b == DCFG_NONE || pr->blocks[b].ni == 0)
			continue;
		if (pr->o->n_loop_images == 0 || loop_image[image_of(pr, &d->blocks[p->blocks.first + b])])
			pr->blocks[b].eligible = 1;
	}
	for (i = 0; i < p->edges.count; i++) {
		const struct dcfg_edge *e = &d->edges[p->edges.first + i];
		uint32_t b = dcfg_idmap_get(&ix->block_by_node, e->target);
		uint32_t s = dcfg_idmap_get(&ix->block_by_node, e->source);
		pr->src[i] = s == DCFG_NONE ? 0 : pr->blocks[s].ni;
		pr->target[i] = b == DCFG_NONE || pr->blocks[b].ni == 0 ? DCFG_PINPOINTS_NONE : b;
	}
	if (blocks_by_addr(pr) < 0) {
		dcfg_error_set(pr->err, pr->name, "out of memory");
		goto done;
	}
	rc = 0;
done:
	free(excluded);
	free(loop_image);
	return rc;
}

/* ---- the stream ---- */

struct dcfg_pinpoints_thread *
dcfg_pinpoints_thread_for(struct dcfg_pinpoints *pr, uint64_t tid)
{
	struct dcfg_pinpoints_thread *t;
	size_t i;

	for (i = 0; i < pr->n_threads; i++)
		if (pr->threads[i]->tid == tid)
			return pr->threads[i];
	if (dcfg_reserve((void **)&pr->threads, &pr->cap_threads, pr->n_threads + 1,
	    sizeof *pr->threads) < 0 || (t = malloc(sizeof *t)) == NULL)
		return NULL;
	if (dcfg_pinpoints_thread_init(pr, t, tid) < 0) {
		free(t);
		return NULL;
	}
	pr->threads[pr->n_threads++] = t;
	return t;
}

static void
select_thread(struct dcfg_pinpoints *pr, uint64_t tid)
{
	pr->section_thread = 1;
	pr->cur = NULL;
	if (!pr->in_process || (pr->o->has_tid && tid != pr->o->tid))
		return;
	if ((pr->cur = dcfg_pinpoints_thread_for(pr, tid)) == NULL)
		pr->oom = 1;
}

static void
on_thread(void *ctx, uint64_t tid)
{
	select_thread(ctx, tid);
}

/*
 * The current thread, or NULL for a line that is not profiled. -1 after an
 * error: a thread the stream's selection does not hold is one, since a part
 * that claims a shard while holding another's entries would merge them twice.
 */
static int
current(struct dcfg_pinpoints *pr, const struct dcfg_stream_record *r,
    struct dcfg_pinpoints_thread **t)
{
	*t = NULL;
	if (!pr->in_process)
		return 0;
	if (!pr->section_thread)   /* lines before any "# thread": thread 0's */
		select_thread(pr, 0);
	if (pr->oom)
		return dcfg_error_set(pr->err, pr->name, "out of memory");
	if (pr->cur && pr->has_sel && !dcfg_recorded_selection_has_thread(&pr->sel, pr->cur->tid))
		return dcfg_error_at(pr->err, pr->name, r->lineno, 1, "thread %llu is not in the "
		    "stream's \"# selection\": the stream was edited or joined after dcfg-expand "
		    "wrote it", (unsigned long long)pr->cur->tid);
	if (pr->cur && pr->cur->no_start)
		return dcfg_error_at(pr->err, pr->name, r->lineno, 1, "thread %llu: the starts (%s) "
		    "give it no threshold: they are of another stream", (unsigned long long)pr->cur->tid,
		    pr->o->starts);
	*t = pr->cur;
	return 0;
}

static int
on_process(void *ctx, const struct dcfg_process *p, struct dcfg_error *err)
{
	struct dcfg_pinpoints *pr = ctx;

	(void)err;
	if (pr->s->name)
		pr->name = pr->s->name;
	pr->cur = NULL;
	pr->section_thread = 0;
	pr->in_process = 0;
	if (p == NULL)
		return 0;
	if (pr->has_sel && !dcfg_recorded_selection_has_process(&pr->sel, p->pid))
		return dcfg_error_set(pr->err, pr->name, "process %llu is not in the stream's \"# "
		    "selection\": the stream was edited or joined after dcfg-expand wrote it",
		    (unsigned long long)p->pid);
	if (pr->o->part)
		dcfg_pinpoints_part_begin(pr);
	if (pr->o->has_pid && p->pid != pr->o->pid)
		return 0;
	/* a part keeps every process, a section each; one run profiles one */
	if (pr->o->part && p != pr->p) {
		if (dcfg_pinpoints_part_process(pr, p) < 0)
			return -1;
	} else if (pr->p != NULL && p != pr->p) {
		return dcfg_error_set(pr->err, pr->name, "the stream holds processes %llu and %llu: "
		    "choose one with -p", (unsigned long long)pr->p->pid, (unsigned long long)p->pid);
	} else if (pr->p == NULL && dcfg_pinpoints_setup_process(pr, p) < 0) {
		return -1;
	}
	pr->in_process = 1;
	return 0;
}

/*
 * Without --part, a thread's stream must start at the thread's start: a
 * window's or a shard's counts its entries, and so its markers, from the
 * window's start, where a simulator will not find them. FROM: where the
 * stream says the thread starts.
 */
static int
not_from_start(struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t, unsigned long lineno,
    uint64_t from)
{
	return dcfg_error_at(pr->err, pr->name, lineno, 1, "thread %llu of process %llu starts at "
	    "instruction %llu, not at the thread's start (a window or a shard of the trace): its markers "
	    "would be counted from there; profile each shard's stream with --part and join the parts "
	    "with --merge", (unsigned long long)t->tid, (unsigned long long)pr->p->pid,
	    (unsigned long long)from);
}

static int
on_line(void *ctx, const struct dcfg_stream_record *r, const struct dcfg_edge *e,
    struct dcfg_error *err)
{
	struct dcfg_pinpoints *pr = ctx;
	struct dcfg_pinpoints_thread *t;
	size_t k;

	(void)err;
	if (current(pr, r, &t) < 0)
		return -1;
	if (t == NULL)
		return 0;
	if (pr->o->part && pr->has_sel && pr->sel.from > 0 && !t->anchored)
		return dcfg_error_at(pr->err, pr->name, r->lineno, 1, "a data line of a window "
		    "shard before any chunk marker: its position is unknown (dcfg-expand --chunks)");
	if (!pr->o->part && !t->begun && pr->has_sel && pr->sel.from > 0)
		return not_from_start(pr, t, r->lineno, pr->sel.from);
	t->begun = 1;
	k = (size_t)(e - pr->d->edges) - pr->p->edges.first;
	return dcfg_pinpoints_line(pr, pr->src[k], pr->target[k], r->weight);
}

static int
on_chunk(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct dcfg_pinpoints *pr = ctx;
	struct dcfg_pinpoints_thread *t;

	if (current(pr, r, &t) < 0)
		return -1;
	if (t == NULL)
		return 0;
	if (r->preceding < t->pos)
		return dcfg_error_at(err, pr->name, r->lineno, 1,
		    "chunk marker at instruction %llu goes back from %llu",
		    (unsigned long long)r->preceding, (unsigned long long)t->pos);
	if (!pr->o->part && !t->begun && r->preceding > 0)
		return not_from_start(pr, t, r->lineno, r->preceding);
	/*
	 * Chunks may leave a gap (the specification allows it), but a marker
	 * counts a PC's executions since the thread's start, and those in the
	 * gap are unknown: a count without them would place the slice wrong.
	 */
	if (t->begun && r->preceding > t->pos)
		return dcfg_error_at(err, pr->name, r->lineno, 1, "thread %llu of process %llu: "
		    "the chunk at instruction %llu starts after the one before it ends (at %llu): "
		    "what ran in between is not in the trace, and the slice markers after it "
		    "would be counted without it", (unsigned long long)t->tid,
		    (unsigned long long)pr->p->pid, (unsigned long long)r->preceding,
		    (unsigned long long)t->pos);
	if (!t->begun)
		t->from = r->preceding;
	t->begun = 1;
	t->pos = r->preceding;
	t->anchored = 1;
	return 0;
}

static int
on_run(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct dcfg_pinpoints *pr = ctx;
	struct dcfg_pinpoints_thread *t;

	(void)err;
	if (current(pr, r, &t) < 0)
		return -1;
	return t == NULL ? 0 : dcfg_pinpoints_run(pr, r);
}

/* Without --part, where the stream's window starts (not_from_start); with it, profile_part.c's. */
static int
on_meta(void *ctx, const struct dcfg_stream_record *r, struct dcfg_error *err)
{
	struct dcfg_pinpoints *pr = ctx;
	const char *why;

	if (pr->o->part)
		return dcfg_pinpoints_part_meta(pr, r, err);
	if (!pr->has_sel && dcfg_is_selection_line(r->line, r->len)) {
		if (dcfg_recorded_selection_parse(r->line, r->len, &pr->sel, &why) < 0)
			return dcfg_error_at(err, pr->name, r->lineno, 1, "%s", why);
		pr->has_sel = 1;
	}
	return 0;
}

/* The warning that the marker at block B's PC lies inside block HOLDER, which ran in thread T. */
static void
warn_inside(struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t, uint32_t b,
    uint32_t holder)
{
	const struct dcfg_block *blk = &pr->d->blocks[pr->p->blocks.first + b];
	const struct dcfg_block *h = &pr->d->blocks[pr->p->blocks.first + holder];
	const struct dcfg_image *im = dcfg_block_image(pr->d, blk);
	const char *path = im ? dcfg_file_name(pr->d, im->file_name_id) : NULL;
	char shown[256], where[320], msg[640];

	if (path) {
		dcfg_escape(shown, sizeof shown, path);
		snprintf(where, sizeof where, "%s 0x%llx + 0x%llx", shown,
		    (unsigned long long)im->load_addr, (unsigned long long)(blk->addr - im->load_addr));
	} else {
		snprintf(where, sizeof where, "no_image");
	}
	snprintf(msg, sizeof msg, "thread %llu: the marker at 0x%llx (%s) lies inside block %lu "
	    "(0x%llx:0x%llx), which ran: a simulator counts the PC's executions there too, which "
	    "the DCFG does not give, so its count may not be the simulator's",
	    (unsigned long long)t->tid, (unsigned long long)blk->addr, where,
	    (unsigned long)h->node_id, (unsigned long long)h->addr,
	    (unsigned long long)dcfg_pinpoints_last_pc(h));
	pr->o->warning(pr->o->ctx, msg);
}

/*
 * Each PC of a marker of thread T that lies after the first instruction of
 * a block that ran in T, at or before its last: once per PC. In address
 * order, REACH is the furthest last instruction of the blocks before.
 */
static void
check_inside(struct dcfg_pinpoints *pr, const struct dcfg_pinpoints_thread *t)
{
	const struct dcfg_block *blocks = &pr->d->blocks[pr->p->blocks.first];
	uint32_t holder = DCFG_PINPOINTS_NONE;
	uint64_t reach = 0;
	size_t i = 0, j;

	if (pr->o->warning == NULL)
		return;
	while (i < pr->n_by_addr) {
		uint32_t first = pr->by_addr[i], pc = pr->pc_of[first];
		if (t->marked[pc] && !pr->warned[pc] && holder != DCFG_PINPOINTS_NONE &&
		    reach >= blocks[first].addr) {
			pr->warned[pc] = 1;
			warn_inside(pr, t, first, holder);
		}
		for (j = i; j < pr->n_by_addr && pr->pc_of[pr->by_addr[j]] == pc; j++) {
			uint32_t b = pr->by_addr[j];
			uint64_t last = dcfg_pinpoints_last_pc(&blocks[b]);
			if (t->counts[b] > 0 && (holder == DCFG_PINPOINTS_NONE || last > reach)) {
				holder = b;
				reach = last;
			}
		}
		i = j;
	}
}

int
dcfg_pinpoints_finish_threads(struct dcfg_pinpoints *pr, struct dcfg_error *err)
{
	size_t i;
	int rc;

	for (i = 0; i < pr->n_threads; i++) {
		struct dcfg_pinpoints_thread *t = pr->threads[i];
		if ((rc = dcfg_pinpoints_thread_end(pr, t)) < 0)
			return -1;
		if (rc == 0)
			check_inside(pr, t);
		if (rc == 1 && pr->o->no_profile)
			pr->o->no_profile(pr->o->ctx, t->tid, t->started ?
			    "no instructions outside the excluded images" : "no block entries");
	}
	/* the files are renamed into place only when all are whole */
	for (i = 0; i < pr->n_threads; i++) {
		struct dcfg_pinpoints_thread *t = pr->threads[i];
		if (t->own_out && t->out) {
			rc = dcfg_output_close(t->out, err);
			free(t->out);
			t->out = NULL;
			if (rc < 0)
				return -1;
		} else if (t->out && dcfg_output_failed(t->out)) {
			return 1;
		}
	}
	return 0;
}

static int
finish(struct dcfg_pinpoints *pr, struct dcfg_error *err)
{
	int shard = pr->has_sel && pr->sel.shards;

	/* a shard of a plan may hold nothing of the process: its part says so */
	if (pr->p == NULL && !(pr->o->part && shard))
		return pr->o->has_pid ? dcfg_error_set(err, pr->name, "process %llu is not in the "
		    "stream", (unsigned long long)pr->o->pid) :
		    dcfg_error_set(err, pr->name, "the stream holds no process");
	if (pr->o->has_tid && pr->n_threads == 0)
		return dcfg_error_set(err, pr->name, "thread %llu of process %llu is not in the stream",
		    (unsigned long long)pr->o->tid, (unsigned long long)pr->p->pid);
	if (!pr->o->part)
		return dcfg_pinpoints_finish_threads(pr, err);
	if (shard && !pr->traced)
		return dcfg_error_set(err, pr->name, "the stream of shard %llu of %llu ends without "
		    "its \"# trace\" line: it was cut short", (unsigned long long)pr->sel.shard,
		    (unsigned long long)pr->sel.shards);
	if (pr->traced && dcfg_pinpoints_starts_check_trace(pr) < 0)
		return -1;
	dcfg_pinpoints_part_begin(pr);
	if (dcfg_pinpoints_part_process_end(pr) < 0)
		return -1;
	if (pr->traced)
		dcfg_stream_write_trace(pr->o->out, pr->trace_crc, pr->trace_bytes);
	return dcfg_output_failed(pr->o->out) ? 1 : 0;
}

void
dcfg_pinpoints_process_free(struct dcfg_pinpoints *pr)
{
	size_t i;

	for (i = 0; i < pr->n_threads; i++) {
		dcfg_pinpoints_thread_free(pr->threads[i]);
		free(pr->threads[i]);
	}
	free(pr->threads);
	free(pr->blocks);
	free(pr->by_addr);
	free(pr->pc_of);
	free(pr->warned);
	free(pr->src);
	free(pr->target);
	pr->threads = NULL;
	pr->n_threads = pr->cap_threads = 0;
	pr->blocks = NULL;
	pr->by_addr = pr->pc_of = pr->target = NULL;
	pr->warned = NULL;
	pr->src = NULL;
	pr->p = NULL;
	pr->cur = NULL;
}

void
dcfg_pinpoints_free(struct dcfg_pinpoints *pr)
{
	dcfg_pinpoints_process_free(pr);
	free(pr->parted);
	dcfg_recorded_selection_free(&pr->sel);
	dcfg_pinpoints_starts_free(pr);
	dcfg_pinpoints_runs_free(pr);
}

int
dcfg_pinpoints_stream(struct dcfg_stage *s, const char *path,
    const struct dcfg_pinpoints_options *o, struct dcfg_error *err)
{
	struct dcfg_pinpoints pr = { .d = s->dcfg, .o = o, .s = s, .name = path, .err = err };
	int rc;

	dcfg_pinpoints_runs_init(&pr);
	s->out = NULL;
	s->line = on_line;
	s->run = on_run;
	s->runs = 1;
	s->chunk = on_chunk;
	s->thread = on_thread;
	s->process = on_process;
	s->meta = on_meta;
	s->ctx = &pr;
	rc = dcfg_stage_run(s, path, err);
	if (s->name)
		pr.name = s->name;
	if (rc == 0)
		rc = finish(&pr, err);
	dcfg_pinpoints_free(&pr);
	return rc;
}
