/* Internal to --to bolt: instructions decoded from a function's bytes (bolt_x86.c). */
#ifndef DCFG_CONVERT_BOLT_INSN_H
#define DCFG_CONVERT_BOLT_INSN_H

#include <stddef.h>
#include <stdint.h>

enum bolt_insn_kind {
	BOLT_INSN_PLAIN,   /* the next instruction follows */
	BOLT_INSN_COND,    /* a conditional branch: its target, or the next instruction */
	BOLT_INSN_JUMP,    /* a direct jump */
	BOLT_INSN_CALL,    /* a call: BOLT's block goes on after it */
	BOLT_INSN_STOP     /* a return, an indirect jump, a trap: nothing follows */
};

struct bolt_insn {
	unsigned length;
	enum bolt_insn_kind kind;
	int has_target;    /* a direct transfer: TARGET is where it goes */
	uint64_t target;
};

/*
 * The x86-64 instruction at P (AVAIL bytes of code from it), at ADDR: its
 * length (> 0) with *OUT, or 0 when the bytes are not an instruction this
 * decoder knows, or cut short.
 */
int dcfg_bolt_decode_x86_64(const uint8_t *p, size_t avail, uint64_t addr, struct bolt_insn *out);

#endif
