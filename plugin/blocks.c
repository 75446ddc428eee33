/*
 * Translation blocks: each distinct block (pc, instruction lengths, last
 * instruction's bytes) gets an id and a record in DIR/tbs the first time
 * QEMU translates it. QEMU translates a block again after it flushes its
 * code cache or when a thread starts in parallel mode, so the same block
 * comes back often and must keep its id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/spool.h"
#include "recorder.h"

/* A TB holds at most 512 instructions; x86's are at most 15 bytes. */
#define MAX_INSNS 65535
#define MAX_INSN_BYTES 255
#define KEY_HEAD (8 + 2)

struct rec_block {
	uint64_t hash;
	size_t key_off;
	uint32_t key_len;
};

int rec_blocks_open(void)
{
	rec.tbs_buf = malloc(REC_TBS_BUFSIZE);
	if (!rec.tbs_buf) {
		rec_fail("out of memory for the block table");
		return -1;
	}
	rec.tbs_fd = rec_open_spool_file("tbs");
	return rec.tbs_fd >= 0 ? 0 : -1;
}

static void flush_tbs(void)
{
	if (rec.tbs_len && !rec.in_fork_child && !rec.failed &&
	    rec_write_all(rec.tbs_fd, rec.tbs_buf, rec.tbs_len) != 0)
		rec_fail("cannot write tbs in %s: %s", rec.dir, strerror(errno));
	rec.tbs_len = 0;
}

static void put_tbs(const void *data, size_t len)
{
	if (rec.tbs_len + len > REC_TBS_BUFSIZE)
		flush_tbs();
	/* A record is at most 16 + 65535 + 255 bytes: bigger than the buffer. */
	if (len > REC_TBS_BUFSIZE) {
		if (!rec.in_fork_child && !rec.failed && rec_write_all(rec.tbs_fd, data, len) != 0)
			rec_fail("cannot write tbs in %s: %s", rec.dir, strerror(errno));
		return;
	}
	memcpy(rec.tbs_buf + rec.tbs_len, data, len);
	rec.tbs_len += len;
}

void rec_blocks_close(void)
{
	flush_tbs();
	if (rec.tbs_fd >= 0 && close(rec.tbs_fd) != 0)
		rec_fail("cannot close tbs in %s: %s", rec.dir, strerror(errno));
	rec.tbs_fd = -1;
}

/* FNV-1a: blocks are few (translation is rare next to execution). */
static uint64_t hash_key(const uint8_t *key, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ key[i]) * 0x100000001b3u;
	return h;
}

static int grow_slots(void)
{
	uint32_t n = rec.n_slots ? rec.n_slots * 2 : 4096;
	uint32_t *slots = calloc(n, sizeof *slots);
	if (!slots)
		return -1;
	for (uint32_t id = 0; id < rec.n_blocks; id++) {
		uint32_t i = (uint32_t)rec.blocks[id].hash & (n - 1);
		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = id + 1;
	}
	free(rec.slots);
	rec.slots = slots;
	rec.n_slots = n;
	return 0;
}

static int grow_blocks(size_t key_len)
{
	if (rec.n_blocks == rec.blocks_cap) {
		uint32_t cap = rec.blocks_cap ? rec.blocks_cap * 2 : 4096;
		struct rec_block *blocks = realloc(rec.blocks, cap * sizeof *blocks);
		if (!blocks)
			return -1;
		rec.blocks = blocks;
		rec.blocks_cap = cap;
	}
	if (rec.keys_len + key_len > rec.keys_cap) {
		size_t cap = rec.keys_cap ? rec.keys_cap * 2 : 256 * 1024;
		while (cap < rec.keys_len + key_len)
			cap *= 2;
		uint8_t *keys = realloc(rec.keys, cap);
		if (!keys)
			return -1;
		rec.keys = keys;
		rec.keys_cap = cap;
	}
	if ((uint64_t)(rec.n_blocks + 1) * 2 > rec.n_slots)
		return grow_slots();
	return 0;
}

/* The block's id, a new one (with its tbs record) if it is new; -1 on error. */
static int64_t intern(const uint8_t *key, size_t key_len, uint64_t pc, uint16_t n_insns,
		      uint8_t last_len)
{
	uint64_t hash = hash_key(key, key_len);
	uint32_t mask = rec.n_slots - 1;
	uint32_t i = (uint32_t)hash & mask;
	for (; rec.n_slots && rec.slots[i]; i = (i + 1) & mask) {
		const struct rec_block *b = &rec.blocks[rec.slots[i] - 1];
		if (b->hash == hash && b->key_len == key_len &&
		    memcmp(rec.keys + b->key_off, key, key_len) == 0)
			return rec.slots[i] - 1;
	}
	/* Ids are packed beside the instruction count in a pointer. */
	if (rec.n_blocks >= (UINT32_MAX >> 1) || grow_blocks(key_len) != 0) {
		rec_fail("out of memory for %u blocks", rec.n_blocks);
		return -1;
	}
	uint32_t id = rec.n_blocks++;
	rec.blocks[id] = (struct rec_block){ .hash = hash, .key_off = rec.keys_len,
					      .key_len = (uint32_t)key_len };
	memcpy(rec.keys + rec.keys_len, key, key_len);
	rec.keys_len += key_len;
	mask = rec.n_slots - 1;
	for (i = (uint32_t)hash & mask; rec.slots[i]; i = (i + 1) & mask)
		;
	rec.slots[i] = id + 1;

	struct dcfg_spool_tb record = { .pc = pc, .id = id, .n_insns = n_insns,
					.last_len = last_len, .flags = 0 };
	put_tbs(&record, sizeof record);
	put_tbs(key + KEY_HEAD, key_len - KEY_HEAD);
	return id;
}

/* key: pc (8 bytes), n_insns (2), the lengths, the last instruction's bytes. */
static size_t make_key(struct qemu_plugin_tb *tb, uint64_t pc, size_t n_insns, uint8_t *key,
		       uint8_t *last_len)
{
	memcpy(key, &pc, 8);
	uint16_t n16 = (uint16_t)n_insns;
	memcpy(key + 8, &n16, 2);
	size_t len = KEY_HEAD;
	struct qemu_plugin_insn *insn = NULL;
	size_t size = 0;
	for (size_t i = 0; i < n_insns; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		size = qemu_plugin_insn_size(insn);
		if (size == 0 || size > MAX_INSN_BYTES)
			return 0;
		key[len++] = (uint8_t)size;
	}
	memcpy(key + len, qemu_plugin_insn_data(insn), size);
	*last_len = (uint8_t)size;
	return len + size;
}

void rec_on_tb_trans(qemu_plugin_id_t plugin, struct qemu_plugin_tb *tb)
{
	(void)plugin;
	static uint8_t key[KEY_HEAD + MAX_INSNS + MAX_INSN_BYTES];
	size_t n_insns = qemu_plugin_tb_n_insns(tb);
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	int64_t id = -1;

	pthread_mutex_lock(&rec.lock);
	if (rec.in_fork_child || rec.failed)
		goto out;
	if (n_insns == 0 || n_insns > MAX_INSNS) {
		rec_fail("a block at 0x%llx has %zu instructions", (unsigned long long)pc, n_insns);
		goto out;
	}
	uint8_t last_len;
	size_t key_len = make_key(tb, pc, n_insns, key, &last_len);
	if (key_len == 0) {
		rec_fail("a block at 0x%llx has an instruction of an unexpected size",
			 (unsigned long long)pc);
		goto out;
	}
	rec_images_note_pc(pc);
	id = intern(key, key_len, pc, (uint16_t)n_insns, last_len);
out:
	pthread_mutex_unlock(&rec.lock);
	if (id >= 0)
		qemu_plugin_register_vcpu_tb_exec_cb(
			tb, rec.windowed ? rec_on_block_exec_windowed : rec_on_block_exec,
			QEMU_PLUGIN_CB_NO_REGS, (void *)(((uintptr_t)(id + 1) << 16) | n_insns));
}
