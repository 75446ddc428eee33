/* AArch64 control transfers (isa.h): fixed 4-byte little-endian words. */
#include "isa.h"

static int64_t
sign_extend(uint32_t v, unsigned bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);

	return (int64_t)(((uint64_t)v ^ m) - m);
}

static void
direct(struct rec_insn *out, enum rec_insn_class cls, uint64_t addr, int64_t words)
{
	out->cls = cls;
	out->has_target = 1;
	out->target = addr + (uint64_t)(words * 4);
}

/* BR, BLR, RET, ERET and their pointer-authenticating forms: opc in bits 21-24. */
static void
branch_register(uint32_t w, struct rec_insn *out)
{
	if (((w >> 16) & 0x1f) != 0x1f)
		return;
	switch ((w >> 21) & 0xf) {
	case 0: case 8:
		out->cls = REC_JUMP_INDIRECT;
		break;
	case 1: case 9:
		out->cls = REC_CALL_INDIRECT;
		break;
	case 2: case 4:
		out->cls = REC_RETURN;
		break;
	default:
		break;
	}
}

void
rec_classify_aarch64(const uint8_t *bytes, size_t len, uint64_t addr, struct rec_insn *out)
{
	uint32_t w;

	out->cls = REC_PLAIN;
	out->has_target = 0;
	out->target = 0;
	if (len != 4)
		return;
	w = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
	    (uint32_t)bytes[3] << 24;
	if ((w & 0xfc000000) == 0x14000000)
		direct(out, REC_JUMP, addr, sign_extend(w & 0x3ffffff, 26));
	else if ((w & 0xfc000000) == 0x94000000)
		direct(out, REC_CALL, addr, sign_extend(w & 0x3ffffff, 26));
	else if ((w & 0xff000000) == 0x54000000)
		direct(out, REC_COND, addr, sign_extend((w >> 5) & 0x7ffff, 19));
	else if ((w & 0x7e000000) == 0x34000000)
		direct(out, REC_COND, addr, sign_extend((w >> 5) & 0x7ffff, 19));
	else if ((w & 0x7e000000) == 0x36000000)
		direct(out, REC_COND, addr, sign_extend((w >> 5) & 0x3fff, 14));
	else if ((w & 0xfe000000) == 0xd6000000)
		branch_register(w, out);
	else if ((w & 0xffe0001f) == 0xd4000001)
		out->cls = REC_SYSCALL;
}
