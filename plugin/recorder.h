/*
 * The recorder plugin's parts and the one state they share. QEMU's
 * plugin API passes no context pointer to most callbacks, so the state is
 * a single global struct (`rec`); the plugin is not part of lib/ and is
 * loaded once per process.
 *
 * Locking: rec.lock guards the block table, the images, the thread list
 * and every thread's file once the thread has ended. A thread's own
 * recording state (struct rec_thread) is touched without a lock by that
 * thread alone while it runs; QEMU stops every vCPU (start_exclusive)
 * and removes the callbacks before it calls the atexit callback, which
 * is when another thread closes the files of threads still running.
 */
#ifndef DCFG_PLUGIN_RECORDER_H
#define DCFG_PLUGIN_RECORDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qemu_api.h"

#define REC_THREAD_BUFSIZE (1024 * 1024)
#define REC_TBS_BUFSIZE (64 * 1024)
/* vCPU indexes (reused by QEMU after a thread ends) index rec.by_vcpu. */
#define REC_MAX_VCPUS 65536

/* One guest thread, numbered in the order QEMU created its vCPU. */
struct rec_thread {
	/* Hot: read and written for every block the thread runs. A block's
	 * slot is its id + 1; slot 0 stands for "before the first block". */
	uint32_t *next_of;      /* slot -> slot of the block that last followed it, 0 none */
	uint32_t prev_slot;     /* the last recorded block's slot; always < next_cap */
	uint32_t next_cap;      /* entries in next_of */
	uint64_t hits;          /* predicted blocks since the last record */
	uint64_t instrs;        /* instructions run so far (counted only with a window) */
	uint8_t *buf;           /* thread.N's bytes not yet written */
	size_t len;
	/* Cold. */
	int fd;                 /* thread.N, -1 once closed */
	unsigned number;
	struct rec_thread *next_thread;  /* every thread, in start order, for atexit */
};

struct rec_image {
	uint64_t start, end;
};

struct rec_state {
	pthread_mutex_t lock;
	char *dir;
	uint64_t skip, length;          /* the window; length UINT64_MAX: to the end */
	bool windowed;                  /* skip or length given: count instructions */
	const char *arch;
	int sys_exit, sys_exit_group;   /* the guest's system call numbers */
	pid_t pid;
	bool in_fork_child;             /* set in a forked child, which records nothing */
	bool failed;                    /* an error was reported: the spool stays incomplete */
	bool status_known;
	int status;
	unsigned live_threads;

	struct rec_thread *by_vcpu[REC_MAX_VCPUS];  /* NULL: not recorded */
	unsigned max_vcpu;                          /* the highest index seen */
	struct rec_thread *threads, *last_thread;
	unsigned n_threads;

	/* Blocks (blocks.c). */
	int tbs_fd;
	uint8_t *tbs_buf;
	size_t tbs_len;
	uint32_t n_blocks;
	struct rec_block *blocks;       /* by id */
	uint32_t blocks_cap;
	uint32_t *slots;                /* open addressing: id + 1, 0 empty */
	uint32_t n_slots;               /* a power of two */
	uint8_t *keys;                  /* each block's key bytes, back to back */
	size_t keys_len, keys_cap;

	/* Images (images.c). */
	int images_fd;
	struct rec_image *images;
	size_t n_images, images_cap;
	size_t last_image;              /* where the last lookup succeeded */
};

extern struct rec_state rec;

/* plugin.c */
void rec_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int rec_write_all(int fd, const void *data, size_t len);
int rec_open_spool_file(const char *name);

/* blocks.c */
int rec_blocks_open(void);
void rec_on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
void rec_blocks_close(void);

/* images.c */
int rec_images_open(void);
void rec_images_note_pc(uint64_t pc);   /* call with rec.lock held */
void rec_images_close(void);

/* threads.c */
void rec_on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu);
void rec_on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu);
void rec_on_block_exec(unsigned int vcpu, void *userdata);
void rec_on_block_exec_windowed(unsigned int vcpu, void *userdata);
void rec_threads_forget(void);          /* in a forked child */
void rec_threads_close_all(void);       /* call with rec.lock held */

#endif
