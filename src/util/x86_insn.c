/* x86-64 instruction lengths (64-bit mode): prefixes, REX, VEX and EVEX,
 * the one-byte and 0F opcode maps with what follows each opcode (ModRM, SIB,
 * displacement, immediate). Written from the Intel SDM's opcode maps
 * (volume 2, appendix A); 32-bit-only opcodes are invalid here. */
#include "x86_insn.h"

#include <stdbool.h>

#define X86_MAX_LEN 15

/* What follows an opcode, one character per opcode, 16 to a row:
 *   .  nothing          m  ModRM            b  imm8 (or rel8)
 *   w  imm16            z  imm16/32 (66)    v  imm16/32/64 (66, REX.W)
 *   d  rel32            a  moffs (8, or 4 with 67)
 *   e  imm16 + imm8     B  ModRM + imm8     Z  ModRM + imm16/32
 *   g  ModRM, then an immediate for /0 and /1 (F6: imm8, F7: imm16/32)
 *   p  prefix or escape (decoded before the table)
 *   x  invalid in 64-bit mode */
static const char map1[257] =
	"mmmmbzxxmmmmbzxp" /* 0x */
	"mmmmbzxxmmmmbzxx" /* 1x */
	"mmmmbzpxmmmmbzpx" /* 2x */
	"mmmmbzpxmmmmbzpx" /* 3x */
	"pppppppppppppppp" /* 4x: REX */
	"................" /* 5x */
	"xxpmppppzZbB...." /* 6x: 62 EVEX */
	"bbbbbbbbbbbbbbbb" /* 7x */
	"BZxBmmmmmmmmmmmm" /* 8x */
	"..........x....." /* 9x */
	"aaaa....bz......" /* Ax */
	"bbbbbbbbvvvvvvvv" /* Bx */
	"BBw.ppBZe.w..bx." /* Cx: C4/C5 VEX */
	"mmmmxxx.mmmmmmmm" /* Dx */
	"bbbbbbbbddxb...." /* Ex */
	"p.pp..gg......mm"; /* Fx */

static const char map0f[257] =
	"mmmmx.....x.xm.B" /* 0x: 0F 0F is 3DNow! (ModRM, imm8 suffix) */
	"mmmmmmmmmmmmmmmm" /* 1x */
	"mmmmxxxxmmmmmmmm" /* 2x */
	"......x.pxpxxxxx" /* 3x: 38 and 3A escape */
	"mmmmmmmmmmmmmmmm" /* 4x */
	"mmmmmmmmmmmmmmmm" /* 5x */
	"mmmmmmmmmmmmmmmm" /* 6x */
	"BBBBmmm.mmxxmmmm" /* 7x */
	"dddddddddddddddd" /* 8x */
	"mmmmmmmmmmmmmmmm" /* 9x */
	"...mBmxx...mBmmm" /* Ax */
	"mmmmmmmmmmBmmmmm" /* Bx */
	"mmBmBBBm........" /* Cx */
	"mmmmmmmmmmmmmmmm" /* Dx */
	"mmmmmmmmmmmmmmmm" /* Ex */
	"mmmmmmmmmmmmmmmm"; /* Fx */

/* the opcode maps by number (as VEX/EVEX select them): 1 = 0F, 2 = 0F 38
 * (every opcode takes a ModRM), 3 = 0F 3A (ModRM and imm8); AVX512-FP16's
 * maps 5 and 6 are laid out as map 2 */
static char map_entry(int map, uint8_t op)
{
	switch (map) {
	case 1: return map0f[op] == 'p' ? 'x' : map0f[op];
	case 2: case 5: case 6: return 'm';
	case 3: return 'B';
	default: return 'x';
	}
}

typedef struct Prefixes {
	bool opsize;   /* 66 */
	bool addrsize; /* 67 */
	bool rex_w;
} Prefixes;

static bool is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3: case 0x2e: case 0x36: case 0x3e: case 0x26:
	case 0x64: case 0x65: case 0x66: case 0x67:
		return true;
	default:
		return false;
	}
}

/* ModRM, SIB and displacement at p: their length, -1 past avail */
static int modrm_len(const uint8_t *p, size_t avail)
{
	if (avail < 1)
		return -1;
	int mod = p[0] >> 6, rm = p[0] & 7, n = 1;
	if (mod != 3 && rm == 4) { /* SIB */
		if (avail < 2)
			return -1;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4; /* no base: disp32 */
	}
	if (mod == 0 && rm == 5)
		n += 4; /* RIP-relative */
	else if (mod == 1)
		n += 1;
	else if (mod == 2)
		n += 4;
	return (size_t)n <= avail ? n : -1;
}

static int imm_len(char kind, const Prefixes *px, uint8_t modrm, uint8_t op)
{
	int z = px->opsize && !px->rex_w ? 2 : 4;
	switch (kind) {
	case 'b': case 'B': return 1;
	case 'w': return 2;
	case 'e': return 3;
	case 'd': return 4;
	case 'z': case 'Z': return z;
	case 'v': return px->rex_w ? 8 : z;
	case 'a': return px->addrsize ? 4 : 8;
	case 'g': return ((modrm >> 3) & 7) >= 2 ? 0 : op == 0xf6 ? 1 : z;
	default: return 0;
	}
}

/* the operands after the opcode at code[pos]: pos past them, or -1 */
static int operands(const uint8_t *code, size_t avail, int pos, char kind, const Prefixes *px)
{
	if (kind == 'x' || kind == 'p')
		return -1;
	uint8_t op = code[pos++];
	uint8_t modrm = 0;
	if (kind == 'm' || kind == 'B' || kind == 'Z' || kind == 'g') {
		if ((size_t)pos >= avail)
			return -1;
		modrm = code[pos];
		int m = modrm_len(code + pos, avail - (size_t)pos);
		if (m < 0)
			return -1;
		pos += m;
	}
	pos += imm_len(kind, px, modrm, op);
	return (size_t)pos <= avail && pos <= X86_MAX_LEN ? pos : -1;
}

/* VEX (C4/C5) or EVEX (62) at code[pos]: the instruction's end, or -1 */
static int vex_insn(const uint8_t *code, size_t avail, int pos, const Prefixes *px)
{
	uint8_t lead = code[pos];
	int nbytes = lead == 0xc5 ? 1 : lead == 0xc4 ? 2 : 3;
	if ((size_t)(pos + nbytes + 1) >= avail)
		return -1;
	const uint8_t *v = code + pos + 1;
	int map = lead == 0xc5 ? 1 : lead == 0xc4 ? (v[0] & 0x1f) : (v[0] & 7);
	Prefixes vx = *px;
	vx.rex_w = lead != 0xc5 && (v[1] & 0x80);
	pos += 1 + nbytes;
	char kind = map_entry(map, code[pos]);
	/* every VEX/EVEX instruction takes a ModRM but vzeroupper/vzeroall */
	if (kind == 'd' || kind == '.')
		kind = map == 1 && code[pos] == 0x77 ? '.' : 'm';
	return operands(code, avail, pos, kind, &vx);
}

int x86_insn_len(const uint8_t *code, size_t avail)
{
	Prefixes px = {0};
	int pos = 0;
	if (avail > X86_MAX_LEN)
		avail = X86_MAX_LEN;
	while ((size_t)pos < avail && is_legacy_prefix(code[pos])) {
		px.opsize |= code[pos] == 0x66;
		px.addrsize |= code[pos] == 0x67;
		pos++;
	}
	if ((size_t)pos < avail && (code[pos] & 0xf0) == 0x40) { /* REX */
		px.rex_w = code[pos] & 8;
		pos++;
		/* a REX before another prefix is ignored: objdump shows it as an
		 * instruction of its own, and so does this */
		if ((size_t)pos < avail && ((code[pos] & 0xf0) == 0x40 || is_legacy_prefix(code[pos])))
			return pos;
	}
	if ((size_t)pos >= avail)
		return -1;
	uint8_t op = code[pos];
	if (op == 0xc4 || op == 0xc5 || op == 0x62)
		return vex_insn(code, avail, pos, &px);
	if (op != 0x0f)
		return operands(code, avail, pos, map1[op], &px);
	if ((size_t)++pos >= avail)
		return -1;
	op = code[pos];
	if (op == 0x38 || op == 0x3a) {
		if ((size_t)++pos >= avail)
			return -1;
		return operands(code, avail, pos, map_entry(op == 0x38 ? 2 : 3, code[pos]), &px);
	}
	return operands(code, avail, pos, map0f[op], &px);
}

X86Align x86_insn_boundary(const uint8_t *code, size_t len, uint64_t offset)
{
	uint64_t pos = 0;
	while (pos < offset && pos < len) {
		int n = x86_insn_len(code + pos, (size_t)(len - pos));
		if (n < 0)
			return X86_UNDECODABLE;
		pos += (uint64_t)n;
	}
	if (pos == offset)
		return X86_ALIGNED;
	return pos > offset ? X86_MIDDLE : X86_UNDECODABLE;
}

/* Skips the prefixes a call may carry: legacy ones (notrack 3E, 66, 67)
 * and REX.  Returns the opcode's position. */
static size_t call_opcode_at(const uint8_t *p, size_t len)
{
	size_t i = 0;
	while (i < len && (is_legacy_prefix(p[i]) || (p[i] & 0xF0) == 0x40))
		i++;
	return i;
}

X86Call x86_call_before(const uint8_t *code, size_t n, int32_t *rel)
{
	/* the shortest call is FF /2 with a register (2 bytes), the longest
	 * a prefixed FF /2 with SIB and disp32 (8): try each start */
	for (size_t k = 2; k <= 9 && k <= n; k++) {
		const uint8_t *p = code + n - k;
		if (x86_insn_len(p, k) != (int)k)
			continue;
		size_t op = call_opcode_at(p, k);
		if (op + 5 == k && p[op] == 0xE8) {
			int32_t r = (int32_t)((uint32_t)p[op + 1] | (uint32_t)p[op + 2] << 8 |
					      (uint32_t)p[op + 3] << 16 | (uint32_t)p[op + 4] << 24);
			if (rel)
				*rel = r;
			return X86_CALL_DIRECT;
		}
		if (op + 1 < k && p[op] == 0xFF && ((p[op + 1] >> 3) & 7) == 2)
			return X86_CALL_INDIRECT;
	}
	return X86_CALL_NONE;
}
