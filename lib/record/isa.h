/*
 * What a block's last instruction can do to control flow, from its
 * bytes: the edge kinds of the transfers that leave the block follow
 * from it (build.c).
 */
#ifndef DCFG_RECORD_ISA_H
#define DCFG_RECORD_ISA_H

#include <stddef.h>
#include <stdint.h>

enum rec_insn_class {
	REC_PLAIN,            /* no transfer: only the next address follows */
	REC_COND,             /* conditional branch: the target or the next address */
	REC_JUMP,
	REC_JUMP_INDIRECT,
	REC_CALL,
	REC_CALL_INDIRECT,
	REC_RETURN,
	REC_SYSCALL,          /* the next address follows (SYSTEM_CALL_BYPASS) */
	REC_REP               /* itself again (REP), or the next address */
};

struct rec_insn {
	enum rec_insn_class cls;
	int has_target;       /* a direct transfer: TARGET is where it goes */
	uint64_t target;
};

/*
 * BYTES are LEN bytes of the instruction at ADDR, LENGTH bytes long
 * (LEN < LENGTH when only its start was kept: no target then).
 */
void rec_classify_x86_64(const uint8_t *bytes, size_t len, size_t length, uint64_t addr,
    struct rec_insn *out);
void rec_classify_aarch64(const uint8_t *bytes, size_t len, uint64_t addr, struct rec_insn *out);

#endif
