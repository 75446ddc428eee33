/*
 * Reading a spool (spool.h): the small tables whole, with every size and
 * count checked, and each thread file as a stream of translation-block
 * ids. An error names the spool file and, in a binary file, the byte
 * offset of the record that is wrong.
 */
#ifndef DCFG_RECORD_SPOOL_READ_H
#define DCFG_RECORD_SPOOL_READ_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>
#include "graph.h"

/* Limits no real spool comes near; past them the spool is garbled. */
#define REC_MAX_TB_INSNS 4096
#define REC_MAX_INSN_LEN 15
#define REC_MAX_THREADS 65536

struct rec_tb {
	uint64_t pc;
	uint32_t size;            /* bytes: the sum of the lengths */
	uint32_t first_len;       /* its lengths: spool lengths[first_len ...] */
	uint16_t n_insns;
	uint8_t last_len;         /* bytes of the last instruction kept in last[]; 0: no transfer */
	uint8_t last[REC_MAX_INSN_LEN + 1];
};

struct rec_spool_image {
	uint64_t load, size;
	char *path;               /* NULL: anonymous memory */
};

struct rec_spool {
	const char *dir;
	uint64_t pid;
	enum dcfg_rec_arch arch;
	uint32_t n_threads;
	struct rec_spool_image *images;   size_t n_images;
	struct rec_tb *tbs;               size_t n_tbs;
	uint8_t *lengths;                 size_t n_lengths;
};

/* Reads DIR/process, DIR/images and DIR/tbs. 0, or -1 with ERR set (S then freed). */
int rec_spool_load(struct rec_spool *s, const char *dir, struct dcfg_error *err);
void rec_spool_free(struct rec_spool *s);

/* DIR/thread.N's size in bytes, or -1 with ERR set when it is missing. */
int rec_thread_size(const struct rec_spool *s, uint32_t thread, uint64_t *size,
    struct dcfg_error *err);

#define REC_THREAD_BUFSIZE (256 * 1024)

/* One thread file, read forward. */
struct rec_thread_reader {
	const struct rec_spool *s;
	char path[4096];
	int fd;
	uint64_t preceding_instrs;    /* from the header */
	uint32_t *follows;            /* per tb: 1 + the tb that last followed it, 0 none */
	uint32_t prev;                /* the last tb returned; UINT32_MAX before the first */
	uint64_t hits;                /* predicted blocks still to return */
	uint32_t pending;             /* 1 + the tb to return after them, 0 none */
	int ended;
	uint64_t offset;              /* file offset of buf[0] */
	size_t pos, len;
	uint64_t record_at;           /* offset of the record being decoded, for errors */
	/* bytes read so far, for progress: offset + pos */
	uint8_t buf[REC_THREAD_BUFSIZE];
};

/* Opens DIR/thread.N and reads its header. 0, or -1 with ERR set. */
int rec_thread_open(struct rec_thread_reader *r, const struct rec_spool *s, uint32_t thread,
    struct dcfg_error *err);
/*
 * The next translation block the thread ran: 1 with *TB set, 0 once the
 * thread has ended (its NEXT = 0 record), -1 with ERR set.
 */
int rec_thread_next_slow(struct rec_thread_reader *r, uint32_t *tb, struct dcfg_error *err);

static inline int
rec_thread_next(struct rec_thread_reader *r, uint32_t *tb, struct dcfg_error *err)
{
	if (r->hits > 0) {
		uint32_t f = r->follows[r->prev];
		if (f != 0) {
			r->hits--;
			r->prev = f - 1;
			*tb = f - 1;
			return 1;
		}
	}
	return rec_thread_next_slow(r, tb, err);
}

static inline uint64_t
rec_thread_bytes_read(const struct rec_thread_reader *r)
{
	return r->offset + r->pos;
}

void rec_thread_close(struct rec_thread_reader *r);

#endif
