/*
 * The length and control transfer of an x86-64 instruction, from its
 * bytes: enough to walk a function's code as BOLT disassembles it, and
 * find where its blocks begin (bolt_static.c). No operand is decoded but
 * what a length needs: prefixes, REX, VEX and EVEX, the opcode maps 1,
 * 0F, 0F38 and 0F3A, ModRM, SIB, displacements and immediates.
 */
#include "bolt_insn.h"

#include <string.h>

/* One-byte opcodes that take a ModRM byte. */
static int
modrm_1(uint8_t op)
{
	if (op < 0x40)
		return (op & 7) < 4;
	switch (op) {
	case 0x62: case 0x63: case 0x69: case 0x6b:
	case 0xc0: case 0xc1: case 0xc6: case 0xc7:
	case 0xd0: case 0xd1: case 0xd2: case 0xd3:
	case 0xf6: case 0xf7: case 0xfe: case 0xff:
		return 1;
	default:
		return (op >= 0x80 && op <= 0x8f) || (op >= 0xd8 && op <= 0xdf);
	}
}

/* One-byte opcodes that do not exist in 64-bit mode (or are prefixes, handled before). */
static int
invalid_1(uint8_t op)
{
	switch (op) {
	case 0x06: case 0x07: case 0x0e: case 0x16: case 0x17: case 0x1e: case 0x1f:
	case 0x27: case 0x2f: case 0x37: case 0x3f: case 0x60: case 0x61: case 0x82:
	case 0x9a: case 0xce: case 0xd4: case 0xd5: case 0xd6: case 0xea:
		return 1;
	default:
		return 0;
	}
}

/* The immediate's size of a one-byte opcode: Z is 2 or 4 (the operand size), W whether REX.W. */
static unsigned
imm_1(uint8_t op, uint8_t reg, unsigned z, int w, int addr32)
{
	if (op < 0x40)
		return (op & 7) == 4 ? 1 : (op & 7) == 5 ? z : 0;
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xb0 && op <= 0xb7) || (op >= 0xe0 && op <= 0xe7))
		return 1;
	if (op >= 0xb8 && op <= 0xbf)
		return w ? 8 : z;
	if (op >= 0xa0 && op <= 0xa3)
		return addr32 ? 4 : 8;   /* moffs */
	switch (op) {
	case 0x6a: case 0x6b: case 0x80: case 0x83: case 0xa8: case 0xc0: case 0xc1: case 0xc6:
	case 0xcd: case 0xeb:
		return 1;
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
		return z;
	case 0xe8: case 0xe9:
		return 4;
	case 0xc2: case 0xca:
		return 2;
	case 0xc8:
		return 3;
	case 0xf6:
		return reg < 2 ? 1 : 0;
	case 0xf7:
		return reg < 2 ? z : 0;
	default:
		return 0;
	}
}

/* Two-byte (0F) opcodes without a ModRM byte. */
static int
no_modrm_0f(uint8_t op)
{
	switch (op) {
	case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0b: case 0x0e:
	case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x37:
	case 0x77: case 0xa0: case 0xa1: case 0xa2: case 0xa8: case 0xa9: case 0xaa:
		return 1;
	default:
		return (op >= 0x80 && op <= 0x8f) || (op >= 0xc8 && op <= 0xcf);
	}
}

static int
invalid_0f(uint8_t op)
{
	switch (op) {
	case 0x04: case 0x0a: case 0x0c: case 0x24: case 0x25: case 0x26: case 0x27:
	case 0x36: case 0x39: case 0x3b: case 0x3c: case 0x3d: case 0x3e: case 0x3f:
	case 0x7a: case 0x7b: case 0xff:
		return 1;
	default:
		return 0;
	}
}

/* 0F opcodes (and VEX/EVEX map 1) with an 8-bit immediate. */
static int
imm8_0f(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xa4 || op == 0xac || op == 0xba ||
	    op == 0xc2 || op == 0xc4 || op == 0xc5 || op == 0xc6;
}

/* The bytes a ModRM (at P, AVAIL bytes left) and what follows it take: SIB, displacement. 0: cut short. */
static unsigned
modrm_length(const uint8_t *p, size_t avail)
{
	unsigned mod, rm, n = 1;

	if (avail < 1)
		return 0;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (avail < 2)
			return 0;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4;
	} else if (mod == 0 && rm == 5) {
		n += 4;   /* RIP-relative */
	}
	n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return n <= avail ? n : 0;
}

static int64_t
rel(const uint8_t *p, unsigned size)
{
	uint32_t u;

	if (size == 1)
		return (int8_t)p[0];
	u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return (int32_t)u;
}

/* A one-byte opcode's control transfer, once its length is known. */
static void
transfer_1(uint8_t op, uint8_t reg, const uint8_t *end, unsigned imm, uint64_t next,
    struct bolt_insn *out)
{
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) || op == 0xeb || op == 0xe9 ||
	    op == 0xe8) {
		out->kind = op == 0xe8 ? BOLT_INSN_CALL : op == 0xeb || op == 0xe9 ? BOLT_INSN_JUMP :
		    BOLT_INSN_COND;
		out->has_target = 1;
		out->target = next + (uint64_t)rel(end - imm, imm);
	} else if (op == 0xc2 || op == 0xc3 || op == 0xca || op == 0xcb || op == 0xcf) {
		out->kind = BOLT_INSN_STOP;
	} else if (op == 0xff && (reg == 4 || reg == 5)) {
		out->kind = BOLT_INSN_STOP;   /* an indirect jump */
	} else if (op == 0xff && (reg == 2 || reg == 3)) {
		out->kind = BOLT_INSN_CALL;
	} else if (op == 0xf4) {
		out->kind = BOLT_INSN_STOP;
	}
}

/* After the VEX or EVEX prefix at P: the map, and how many bytes the prefix takes. 0: not one. */
static unsigned
vex_prefix(const uint8_t *p, size_t avail, unsigned *map)
{
	if (p[0] == 0xc5) {
		*map = 1;
		return avail >= 2 ? 2 : 0;
	}
	if (p[0] == 0xc4) {
		*map = avail >= 3 ? p[1] & 0x1f : 0;
		return avail >= 3 ? 3 : 0;
	}
	*map = avail >= 4 ? p[1] & 7 : 0;   /* 0x62: EVEX */
	return avail >= 4 ? 4 : 0;
}

/* The rest of a VEX or EVEX instruction: opcode, ModRM, an immediate. */
static unsigned
vex_rest(const uint8_t *p, size_t avail, unsigned map)
{
	unsigned m;

	if (avail < 1 || map == 0 || map == 4 || map > 6)
		return 0;
	if (map == 1 && p[0] == 0x77)
		return 1;   /* vzeroupper, vzeroall */
	if ((m = modrm_length(p + 1, avail - 1)) == 0)
		return 0;
	m += 1;
	if (map == 3 || (map == 1 && imm8_0f(p[0])))
		m++;
	return m <= avail ? m : 0;
}

/* An 0F opcode at P (after 0F): the bytes it takes from P. 0: not decoded. */
static unsigned
rest_0f(const uint8_t *p, size_t avail, struct bolt_insn *out)
{
	unsigned m;
	uint8_t op;

	if (avail < 1 || invalid_0f(p[0]))
		return 0;
	op = p[0];
	if (op == 0x38 || op == 0x3a) {
		if (avail < 2 || (m = modrm_length(p + 2, avail - 2)) == 0)
			return 0;
		m += 2 + (op == 0x3a);
		return m <= avail ? m : 0;
	}
	if (op >= 0x80 && op <= 0x8f) {   /* jcc rel32: the caller sets the target */
		out->kind = BOLT_INSN_COND;
		return avail >= 5 ? 5 : 0;
	}
	if (no_modrm_0f(op))
		return 1;
	if ((m = modrm_length(p + 1, avail - 1)) == 0)
		return 0;
	m += 1 + (imm8_0f(op) || op == 0x0f);   /* 0F 0F: 3DNow!, its opcode after the operand */
	if (op == 0x0b)
		out->kind = BOLT_INSN_STOP;
	return m <= avail ? m : 0;
}

int
dcfg_bolt_decode_x86_64(const uint8_t *p, size_t avail, uint64_t addr, struct bolt_insn *out)
{
	unsigned i = 0, z = 4, m, imm, map;
	int w = 0, addr32 = 0;
	uint8_t op, reg = 0;

	memset(out, 0, sizeof *out);
	for (; i < avail && i < 14; i++) {   /* legacy prefixes */
		if (p[i] == 0x66)
			z = 2;
		else if (p[i] == 0x67)
			addr32 = 1;
		else if (!(p[i] == 0xf2 || p[i] == 0xf3 || p[i] == 0xf0 || p[i] == 0x2e ||
		    p[i] == 0x3e || p[i] == 0x26 || p[i] == 0x36 || p[i] == 0x64 || p[i] == 0x65))
			break;
	}
	if (i < avail && (p[i] & 0xf0) == 0x40) {
		w = (p[i] & 8) != 0;
		i++;
	}
	if (i >= avail)
		return 0;
	if (w)
		z = 4;
	op = p[i];
	if (op == 0xc4 || op == 0xc5 || op == 0x62) {
		if ((m = vex_prefix(p + i, avail - i, &map)) == 0 ||
		    (imm = vex_rest(p + i + m, avail - i - m, map)) == 0)
			return 0;
		out->length = i + m + imm;
		return out->length <= 15 ? (int)out->length : 0;
	}
	if (op == 0x0f) {
		if ((m = rest_0f(p + i + 1, avail - i - 1, out)) == 0)
			return 0;
		out->length = i + 1 + m;
		if (out->kind == BOLT_INSN_COND) {
			out->has_target = 1;
			out->target = addr + out->length + (uint64_t)rel(p + out->length - 4, 4);
		}
		return out->length <= 15 ? (int)out->length : 0;
	}
	if (invalid_1(op))
		return 0;
	m = 0;
	if (modrm_1(op)) {
		if (i + 1 >= avail || (m = modrm_length(p + i + 1, avail - i - 1)) == 0)
			return 0;
		reg = (p[i + 1] >> 3) & 7;
	}
	imm = imm_1(op, reg, z, w, addr32);
	out->length = i + 1 + m + imm;
	if (out->length > avail || out->length > 15)
		return 0;
	transfer_1(op, reg, p + out->length, imm, addr + out->length, out);
	return (int)out->length;
}
