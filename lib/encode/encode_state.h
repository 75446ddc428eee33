/*
 * The encoder's state (encode.h), shared by its passes (encode.c) and the
 * per-record step every pass takes (encode_records.c).
 */
#ifndef DCFG_ENCODE_STATE_H
#define DCFG_ENCODE_STATE_H

#include <stdint.h>

#include "chunkenc.h"
#include "compress.h"
#include "encode.h"
#include "common/progress.h"

struct eproc {
	const struct dcfg_process *dp;
	struct dcfg_transitions tt;
	struct dcfg_dictionary dict;
};

struct enc {
	const struct dcfg_encode_options *o;
	const struct dcfg_encode_source *src;   /* NULL: the edges are the stream at PATH */
	int counts_instrs;              /* INSTR_COUNT from the DCFG or the source's edge_instrs */
	struct dcfg_output *out;
	struct dcfg_error *err;
	const char *path, *name;
	int spool;                      /* standard input copied (spool()), or -1: PATH is read */
	uint64_t spool_size;
	int pass;                       /* 1 count, 2 measure, 3 write */
	int writes;                     /* this pass writes to OUT: pass 3, or pass 2 to the spill */
	struct dcfg_output *spill;      /* pass 2's text for pass 3 (spill.h), or NULL */
	struct eproc *procs;   size_t n_procs, cap_procs;
	struct eproc *p;                /* the current process */
	size_t n_seen_procs;            /* processes met so far in this pass */
	int in_thread, threads, chunks;
	uint64_t running;               /* PRECEDING of a chunk without a marker */
	int continuation;               /* the next chunk continues a split one */
	/* the chunk being read: each line once, and its runs */
	uint32_t *edges;       size_t n, cap;
	struct dcfg_run_span *runs;     size_t n_runs, cap_runs;
	size_t open_runs[DCFG_RUN_DEPTH_MAX];
	unsigned depth;
	uint64_t n_exp;                 /* edges the chunk stands for: its EDGE_COUNT */
	int open, marker;
	uint64_t marker_preceding, marker_instrs, instrs;
	unsigned long marker_line;   /* where the open chunk's marker is */
	/* scratch for writing */
	struct dcfg_chunkenc *ce;
	uint32_t *tokens;      size_t cap_tokens;
	char *spilled;         size_t cap_spilled;   /* a text read back from the spill */
	uint64_t pass_base, pass_bytes;
	struct dcfg_progress *meter;    /* NULL: bytes through o->progress, if set */
	const struct dcfg_stream_record *r;   /* the last line read, for the meter */
};

/* One record of the stream, the same in every pass: 0, 1 when OUT failed, -1 with ERR set. */
int dcfg_enc_on_record(struct enc *e, const struct dcfg_stream_record *r);
/* Before a pass's first record. */
void dcfg_enc_begin_walk(struct enc *e);
/* After a pass's last record: what is open closed. 0, -1 with ERR set. */
int dcfg_enc_end_walk(struct enc *e);
/* Compresses LEN characters of the current process's text into OUT. -1: out of memory. */
int dcfg_enc_write_chars(struct enc *e, const char *s, size_t len);

#endif
