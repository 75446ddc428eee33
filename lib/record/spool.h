/*
 * The spool: what the QEMU plugin (plugin/) writes while the program runs
 * and the recorder reads once it has ended. It is one directory, made by
 * dcfg-record beside its outputs and removed when they are written; the
 * plugin and the reader are built from the same tree for the same host,
 * so the binary records are the host's byte order and layout. This
 * header is all the two share: it includes nothing of the library.
 *
 *   DIR/tbs        the translation blocks, binary (below)
 *   DIR/thread.N   each guest thread's blocks in execution order, N its
 *                  number in start order from 0 (below)
 *   DIR/images     text, a line per image as it is found (below)
 *   DIR/process    text, written last, at the program's exit (below)
 *
 * tbs: a record per distinct translation block, appended when QEMU first
 * translates it: a struct dcfg_spool_tb, then n_insns bytes (each
 * instruction's length, in order), then last_len bytes (the last
 * instruction's bytes, for classifying the edge that leaves the block).
 * Ids count from 0 in the order of the records. Two translations with the
 * same pc, instruction lengths and last instruction get one id.
 *
 * thread.N: a struct dcfg_spool_thread, then records of two unsigned
 * LEB128 numbers (7 bits a byte, low first): HITS, then NEXT. The reader
 * keeps, for the thread alone, the block that last followed each block
 * (none at first). HITS blocks ran, each the one that last followed the
 * block before it; then block NEXT - 1 ran, and becomes the one that
 * follows the block before it. NEXT = 0 ends the thread: a file without
 * that record was cut short. The very first block is always a NEXT.
 * Only blocks inside the recorded window (--skip, --length) are written.
 *
 * images: "image LOAD SIZE PATH\n", LOAD and SIZE in hexadecimal with
 * 0x: the image's lowest address (where its file offset 0 lies), and the
 * bytes to the end of its last mapping; PATH the rest of the line as
 * /proc/self/maps shows it (the file, "[vdso]", or empty for anonymous
 * memory). Written by the plugin the first time a block is translated
 * outside every image it knows, in the order found.
 *
 * process: lines "pid N", "arch x86_64" or "arch aarch64", "threads N",
 * "status N" (the exit status the program gave exit_group), then
 * "complete" as the last line: a spool without it is not whole.
 */
#ifndef DCFG_RECORD_SPOOL_H
#define DCFG_RECORD_SPOOL_H

#include <stdint.h>

#define DCFG_SPOOL_THREAD_MAGIC "DCFGTHR1"

struct dcfg_spool_tb {
	uint64_t pc;          /* the guest address of the first instruction */
	uint32_t id;
	uint16_t n_insns;
	uint8_t last_len;     /* bytes of the last instruction that follow the lengths */
	uint8_t flags;        /* 0; reserved */
};

struct dcfg_spool_thread {
	char magic[8];                 /* DCFG_SPOOL_THREAD_MAGIC, not NUL-ended */
	uint64_t preceding_instrs;     /* instructions the thread ran before its first recorded block */
};

#endif
