/*
 * Each guest thread's block sequence, written to DIR/thread.N as
 * lib/record/spool.h describes: the block that last followed each block
 * is predicted, and only the mispredictions are written, as a count of
 * predicted blocks and the block that ran instead. A loop of one path
 * costs a few bytes however long it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/spool.h"
#include "recorder.h"

/* Room for the largest record, two 64-bit LEB128 numbers. */
#define MAX_RECORD_BYTES 20

static void flush_thread(struct rec_thread *t)
{
	if (t->len == 0)
		return;
	/* A forked child's buffers are copies of its parent's, and the
	 * parent writes them; after an error nothing more is written. */
	if (!rec.in_fork_child && !rec.failed && t->fd >= 0 &&
	    rec_write_all(t->fd, t->buf, t->len) != 0)
		rec_fail("cannot write thread.%u in %s: %s", t->number, rec.dir, strerror(errno));
	t->len = 0;
}

static inline void put_leb128(struct rec_thread *t, uint64_t value)
{
	uint8_t *p = t->buf + t->len;
	while (value >= 0x80) {
		*p++ = (uint8_t)(value | 0x80);
		value >>= 7;
	}
	*p++ = (uint8_t)value;
	t->len = (size_t)(p - t->buf);
}

static inline void put_record(struct rec_thread *t, uint64_t next)
{
	if (t->len > REC_THREAD_BUFSIZE - MAX_RECORD_BYTES)
		flush_thread(t);
	put_leb128(t, t->hits);
	put_leb128(t, next);
	t->hits = 0;
}

/* Makes next_of hold `slot`: the rare allocation of the hot path. */
static int grow_next_of(struct rec_thread *t, uint32_t slot)
{
	uint64_t cap = t->next_cap ? t->next_cap : 1024;
	while (cap <= slot)
		cap *= 2;
	if (cap > UINT32_MAX)
		cap = UINT32_MAX;
	uint32_t *grown = realloc(t->next_of, cap * sizeof *grown);
	if (!grown) {
		rec_fail("out of memory for thread.%u's %llu blocks", t->number,
			 (unsigned long long)cap);
		return -1;
	}
	memset(grown + t->next_cap, 0, (cap - t->next_cap) * sizeof *grown);
	t->next_of = grown;
	t->next_cap = (uint32_t)cap;
	return 0;
}

static void put_header(struct rec_thread *t, uint64_t preceding)
{
	/* Nothing has been flushed yet: the header is still in the buffer. */
	struct dcfg_spool_thread header;
	memcpy(header.magic, DCFG_SPOOL_THREAD_MAGIC, sizeof header.magic);
	header.preceding_instrs = preceding;
	memcpy(t->buf, &header, sizeof header);
}

/* The block in `slot` ran, not the one predicted: a record. */
static __attribute__((noinline)) void record_miss(struct rec_thread *t, uint32_t slot,
						  uint64_t before)
{
	if (t->prev_slot == 0)
		put_header(t, before);
	t->next_of[t->prev_slot] = slot;
	put_record(t, slot);
	/* A hit's slot was once a miss's, so the hot path needs no bounds check. */
	if (slot >= t->next_cap && grow_next_of(t, slot) != 0) {
		t->prev_slot = 0;       /* the spool has failed; stay in bounds */
		return;
	}
	t->prev_slot = slot;
}

/*
 * The hot path, once per block run. userdata packs the block's slot
 * (id + 1) above 16 bits and its instruction count below. The thread is
 * the only one to touch *t while it runs.
 */
void rec_on_block_exec(unsigned int vcpu, void *userdata)
{
	struct rec_thread *t = vcpu < REC_MAX_VCPUS ? rec.by_vcpu[vcpu] : NULL;
	if (!t)
		return;
	uint32_t slot = (uint32_t)((uintptr_t)userdata >> 16);
	if (t->next_of[t->prev_slot] == slot) {
		t->hits++;
		t->prev_slot = slot;
		return;
	}
	record_miss(t, slot, 0);
}

/* The same with a window: every block counts, only the window's are written. */
void rec_on_block_exec_windowed(unsigned int vcpu, void *userdata)
{
	struct rec_thread *t = vcpu < REC_MAX_VCPUS ? rec.by_vcpu[vcpu] : NULL;
	if (!t)
		return;
	uintptr_t packed = (uintptr_t)userdata;
	uint64_t before = t->instrs;
	t->instrs = before + (packed & 0xffff);
	/* Unsigned: a block before the window wraps to a huge offset. */
	if (before - rec.skip >= rec.length)
		return;
	uint32_t slot = (uint32_t)(packed >> 16);
	if (t->next_of[t->prev_slot] == slot) {
		t->hits++;
		t->prev_slot = slot;
		return;
	}
	record_miss(t, slot, before);
}

static int start_thread(struct rec_thread *t)
{
	char name[32];
	snprintf(name, sizeof name, "thread.%u", t->number);
	t->fd = rec_open_spool_file(name);
	t->buf = malloc(REC_THREAD_BUFSIZE);
	if (!t->buf) {
		rec_fail("out of memory for thread.%u's buffer", t->number);
		return -1;
	}
	/* The header's place: filled by the first record, or at close. */
	t->len = sizeof(struct dcfg_spool_thread);
	if (grow_next_of(t, rec.n_blocks + 1) != 0)
		return -1;
	return t->fd >= 0 ? 0 : -1;
}

static void free_thread_buffers(struct rec_thread *t)
{
	free(t->buf);
	t->buf = NULL;
	free(t->next_of);
	t->next_of = NULL;
	t->next_cap = 0;
}

void rec_on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	pthread_mutex_lock(&rec.lock);
	if (rec.in_fork_child)
		goto out;
	if (vcpu >= REC_MAX_VCPUS) {
		rec_fail("vCPU %u is past the %u threads the plugin can follow", vcpu,
			 REC_MAX_VCPUS);
		goto out;
	}
	struct rec_thread *t = calloc(1, sizeof *t);
	if (!t) {
		rec_fail("out of memory for vCPU %u", vcpu);
		goto out;
	}
	t->fd = -1;
	t->number = rec.n_threads++;
	if (rec.last_thread)
		rec.last_thread->next_thread = t;
	else
		rec.threads = t;
	rec.last_thread = t;
	rec.live_threads++;
	if (start_thread(t) != 0) {
		/* Nothing is recorded for it, and the spool has failed. */
		free_thread_buffers(t);
		goto out;
	}
	if (vcpu > rec.max_vcpu)
		rec.max_vcpu = vcpu;
	rec.by_vcpu[vcpu] = t;
out:
	pthread_mutex_unlock(&rec.lock);
}

/* Writes what the thread has and the end record; call with rec.lock held. */
static void close_thread(struct rec_thread *t)
{
	if (!t->buf)
		return;
	/* Nothing in the window: the header counts everything it ran. */
	if (t->prev_slot == 0)
		put_header(t, t->instrs);
	/* The end record carries the predicted blocks that ran last. */
	put_record(t, 0);
	flush_thread(t);
	if (t->fd >= 0 && !rec.in_fork_child && close(t->fd) != 0)
		rec_fail("cannot close thread.%u in %s: %s", t->number, rec.dir, strerror(errno));
	t->fd = -1;
	free_thread_buffers(t);
}

void rec_on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	pthread_mutex_lock(&rec.lock);
	struct rec_thread *t = vcpu < REC_MAX_VCPUS ? rec.by_vcpu[vcpu] : NULL;
	if (t && !rec.in_fork_child) {
		rec.by_vcpu[vcpu] = NULL;
		close_thread(t);
		rec.live_threads--;
	}
	pthread_mutex_unlock(&rec.lock);
}

void rec_threads_close_all(void)
{
	for (struct rec_thread *t = rec.threads; t; t = t->next_thread)
		close_thread(t);
}

void rec_threads_forget(void)
{
	for (unsigned vcpu = 0; vcpu <= rec.max_vcpu; vcpu++)
		rec.by_vcpu[vcpu] = NULL;
}
