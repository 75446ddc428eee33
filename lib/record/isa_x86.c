/* x86-64 control transfers, from the opcode after the prefixes (isa.h). */
#include "isa.h"

static int
is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67: case 0xf2: case 0xf3:
	case 0x2e: case 0x3e: case 0x26: case 0x36: case 0x64: case 0x65: case 0xf0:
		return 1;
	default:
		return 0;
	}
}

static int
is_string_op(uint8_t op)
{
	return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	    (op >= 0x6c && op <= 0x6f);
}

/* The relative displacement is the instruction's last WIDTH bytes. */
static void
set_target(const uint8_t *bytes, size_t len, size_t length, uint64_t addr, unsigned width,
    struct rec_insn *out)
{
	int64_t rel;

	if (len != length || len < width + 1)
		return;
	if (width == 1) {
		rel = (int8_t)bytes[len - 1];
	} else {
		uint32_t u = (uint32_t)bytes[len - 4] | (uint32_t)bytes[len - 3] << 8 |
		    (uint32_t)bytes[len - 2] << 16 | (uint32_t)bytes[len - 1] << 24;
		rel = (int32_t)u;
	}
	out->has_target = 1;
	out->target = addr + length + (uint64_t)rel;
}

static void
classify_0f(const uint8_t *bytes, size_t len, size_t length, size_t i, uint64_t addr,
    struct rec_insn *out)
{
	uint8_t op2;

	if (i + 1 >= len)
		return;
	op2 = bytes[i + 1];
	if (op2 >= 0x80 && op2 <= 0x8f) {
		out->cls = REC_COND;
		set_target(bytes, len, length, addr, 4, out);
	} else if (op2 == 0x05 || op2 == 0x34) {
		out->cls = REC_SYSCALL;
	}
}

static void
classify_ff(const uint8_t *bytes, size_t len, size_t i, struct rec_insn *out)
{
	unsigned reg;

	if (i + 1 >= len)
		return;
	reg = (bytes[i + 1] >> 3) & 7;
	if (reg == 2 || reg == 3)
		out->cls = REC_CALL_INDIRECT;
	else if (reg == 4 || reg == 5)
		out->cls = REC_JUMP_INDIRECT;
}

void
rec_classify_x86_64(const uint8_t *bytes, size_t len, size_t length, uint64_t addr,
    struct rec_insn *out)
{
	size_t i = 0;
	int rep = 0, opsize = 0;
	uint8_t op;

	out->cls = REC_PLAIN;
	out->has_target = 0;
	out->target = 0;
	while (i < len && is_legacy_prefix(bytes[i])) {
		if (bytes[i] == 0xf2 || bytes[i] == 0xf3)
			rep = 1;
		if (bytes[i] == 0x66)
			opsize = 1;
		i++;
	}
	if (i < len && (bytes[i] & 0xf0) == 0x40)   /* REX */
		i++;
	if (i >= len)
		return;
	/* a 16-bit displacement (66 before a near jump or call): no target taken */
	if (opsize)
		length = len + 1;
	op = bytes[i];
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3)) {
		out->cls = REC_COND;
		set_target(bytes, len, length, addr, 1, out);
	} else if (op == 0xe9 || op == 0xeb) {
		out->cls = REC_JUMP;
		set_target(bytes, len, length, addr, op == 0xe9 ? 4 : 1, out);
	} else if (op == 0xe8) {
		out->cls = REC_CALL;
		set_target(bytes, len, length, addr, 4, out);
	} else if (op == 0xc3 || op == 0xc2 || op == 0xca || op == 0xcb || op == 0xcf) {
		out->cls = REC_RETURN;
	} else if (op == 0xcd) {
		out->cls = REC_SYSCALL;
	} else if (op == 0x0f) {
		classify_0f(bytes, len, length, i, addr, out);
	} else if (op == 0xff) {
		classify_ff(bytes, len, i, out);
	} else if (rep && is_string_op(op)) {
		out->cls = REC_REP;
	}
}
