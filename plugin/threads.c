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

/* Makes next_of hold block `id`: the rare allocation of the hot path. */
static __attribute__((noinline)) int grow_next_of(struct rec_thread *t, uint32_t id)
{
	uint64_t cap = t->next_cap ? t->next_cap : 1024;
	while (cap <= id)
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

/* The thread's first recorded block: the header learns how many
 * instructions came before it (nothing has been flushed yet). */
static __attribute__((noinline)) void first_record(struct rec_thread *t, uint32_t id,
						   uint64_t before)
{
	struct dcfg_spool_thread header;
	memcpy(header.magic, DCFG_SPOOL_THREAD_MAGIC, sizeof header.magic);
	header.preceding_instrs = before;
	memcpy(t->buf, &header, sizeof header);
	put_record(t, (uint64_t)id + 1);
	t->prev = id;
}

void rec_on_block_exec(unsigned int vcpu, void *userdata)
{
	if (vcpu >= REC_MAX_VCPUS)
		return;
	struct rec_thread **chunk = rec.vcpu_chunks[vcpu / REC_VCPU_CHUNK];
	struct rec_thread *t = chunk ? chunk[vcpu % REC_VCPU_CHUNK] : NULL;
	if (!t)
		return;
	uintptr_t packed = (uintptr_t)userdata;
	uint64_t before = t->instrs;
	t->instrs = before + (packed & 0xffff);
	/* Unsigned: a block before the window wraps to a huge offset. */
	if (before - rec.skip >= rec.length)
		return;
	uint32_t id = (uint32_t)(packed >> 16);
	uint32_t prev = t->prev;
	if (prev < t->next_cap) {
		uint32_t *predicted = &t->next_of[prev];
		if (*predicted == id + 1) {
			t->hits++;
			t->prev = id;
			return;
		}
		*predicted = id + 1;
	} else if (prev == REC_NO_BLOCK) {
		first_record(t, id, before);
		return;
	} else if (grow_next_of(t, prev) == 0) {
		t->next_of[prev] = id + 1;
	}
	put_record(t, (uint64_t)id + 1);
	t->prev = id;
}

static int open_thread_file(struct rec_thread *t)
{
	char name[32];
	snprintf(name, sizeof name, "thread.%u", t->number);
	t->fd = rec_open_spool_file(name);
	t->buf = malloc(REC_THREAD_BUFSIZE);
	if (!t->buf) {
		rec_fail("out of memory for thread.%u's buffer", t->number);
		return -1;
	}
	/* The header's place: filled by first_record, or at close. */
	t->len = sizeof(struct dcfg_spool_thread);
	return t->fd >= 0 ? 0 : -1;
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
	struct rec_thread ***chunk = &rec.vcpu_chunks[vcpu / REC_VCPU_CHUNK];
	if (!*chunk && !(*chunk = calloc(REC_VCPU_CHUNK, sizeof **chunk))) {
		rec_fail("out of memory for vCPU %u", vcpu);
		goto out;
	}
	struct rec_thread *t = calloc(1, sizeof *t);
	if (!t) {
		rec_fail("out of memory for vCPU %u", vcpu);
		goto out;
	}
	t->prev = REC_NO_BLOCK;
	t->fd = -1;
	t->number = rec.n_threads++;
	if (rec.last_thread)
		rec.last_thread->next_thread = t;
	else
		rec.threads = t;
	rec.last_thread = t;
	rec.live_threads++;
	if (open_thread_file(t) != 0) {
		/* Nothing is recorded for it; the missing file fails the spool. */
		free(t->buf);
		t->buf = NULL;
		goto out;
	}
	(*chunk)[vcpu % REC_VCPU_CHUNK] = t;
out:
	pthread_mutex_unlock(&rec.lock);
}

/* Writes what the thread has and the end record; call with rec.lock held. */
static void close_thread(struct rec_thread *t)
{
	if (!t->buf)
		return;
	if (t->prev == REC_NO_BLOCK) {
		/* Nothing in the window: the header counts everything it ran. */
		struct dcfg_spool_thread header;
		memcpy(header.magic, DCFG_SPOOL_THREAD_MAGIC, sizeof header.magic);
		header.preceding_instrs = t->instrs;
		memcpy(t->buf, &header, sizeof header);
	}
	/* The end record carries the predicted blocks that ran last. */
	put_record(t, 0);
	flush_thread(t);
	if (t->fd >= 0 && !rec.in_fork_child && close(t->fd) != 0 && !rec.failed)
		rec_fail("cannot close thread.%u in %s: %s", t->number, rec.dir, strerror(errno));
	t->fd = -1;
	free(t->buf);
	t->buf = NULL;
	free(t->next_of);
	t->next_of = NULL;
	t->next_cap = 0;
}

void rec_on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	pthread_mutex_lock(&rec.lock);
	struct rec_thread **chunk = vcpu < REC_MAX_VCPUS ? rec.vcpu_chunks[vcpu / REC_VCPU_CHUNK]
							  : NULL;
	struct rec_thread *t = chunk ? chunk[vcpu % REC_VCPU_CHUNK] : NULL;
	if (t && !rec.in_fork_child) {
		close_thread(t);
		chunk[vcpu % REC_VCPU_CHUNK] = NULL;
		rec.live_threads--;
	}
	pthread_mutex_unlock(&rec.lock);
}

void rec_threads_close_all(void)
{
	for (struct rec_thread *t = rec.threads; t; t = t->next_thread)
		close_thread(t);
}
