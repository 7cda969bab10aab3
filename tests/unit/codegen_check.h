/* What the code generation tests share: compiling a bpftrace 0.17 program
 * with the test readers (no kernel), reading its instructions as the
 * verifier-style text `sonde -d bpf` prints (bpf_insn_format), finding and
 * counting them, and the structural invariants every generated program must
 * satisfy.  Used by test_codegen*.c. */
#pragma once
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "bpf/disasm.h"
#include "compile/script.h"
#include "compile/sema.h"
#include "bt/generation_bt.h"

#define SELF_PID 4242 /* 0x1092 */
#define TP_WRITE "tracepoint:syscalls:sys_enter_write"

/* ---- helpers ---- */

typedef struct Compiled {
	Source src;
	Program *prog;
	Script *sc;
	Error err;
} Compiled;

static inline Compiled compile_opt(const char *text, int self_pid)
{
	static char *params[] = {"1", "two"};
	Compiled c = {.src = {"test", text}};
	c.prog = parse_program_opts(&c.src, bt_generation_named("0.17")->fe.parse, &c.err);
	if (c.prog) {
		Options o = {.sym = &test_syms, .strlen_max = 64, .map_keys_max = 4096, .params = params, .nparams = 2,
			     .self_pid = self_pid};
		frontend_use(&bt_generation_named("0.17")->fe, &o, NULL);
		c.sc = compile_program(c.prog, &o, &c.err);
	}
	if (!c.sc)
		fprintf(stderr, "compile failed: %s\n  %d:%d: %s\n", text, c.err.loc.line,
			c.err.loc.col, c.err.msg);
	return c;
}

static inline Compiled compile(const char *text)
{
	return compile_opt(text, SELF_PID);
}

static inline void compiled_free(Compiled *c)
{
	script_free(c->sc);
	program_free(c->prog);
	memset(c, 0, sizeof(*c));
}

/* Text of instruction i ("" for the second slot of a ld_imm64). */
static inline const char *insn(const ProgCode *pc, int i)
{
	static char buf[8][160];
	static int k;
	if (i < 0 || i >= pc->ninsns)
		return "(out of range)";
	k = (k + 1) % 8;
	StrBuf sb = {0};
	bpf_insn_format(&sb, pc->insns, i, pc->ninsns);
	snprintf(buf[k], sizeof(buf[k]), "%s", sb.s ? sb.s : "");
	sb_free(&sb);
	return buf[k];
}

/* Slot starts: marks[i] is true when instruction i starts an instruction
 * (false for the second half of a ld_imm64). */
static inline bool *insn_starts(const ProgCode *pc)
{
	bool *m = calloc((size_t)pc->ninsns + 1, 1);
	for (int i = 0; i < pc->ninsns;) {
		m[i] = true;
		i += pc->insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) ? 2 : 1;
	}
	return m;
}

/* First instruction at or after `from` whose text contains `needle`. */
static inline int find(const ProgCode *pc, int from, const char *needle)
{
	bool *m = insn_starts(pc);
	int r = -1;
	for (int i = from < 0 ? 0 : from; i < pc->ninsns; i++)
		if (m[i] && strstr(insn(pc, i), needle)) {
			r = i;
			break;
		}
	free(m);
	return r;
}

/* Exact text of the next instruction start after i. */
static inline int next(const ProgCode *pc, int i)
{
	return i + (pc->insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) ? 2 : 1);
}

static inline int count_of(const ProgCode *pc, const char *needle)
{
	int n = 0;
	for (int i = find(pc, 0, needle); i >= 0; i = find(pc, i + 1, needle))
		n++;
	return n;
}

static inline const Reloc *reloc_at(const ProgCode *pc, int i)
{
	for (int r = 0; r < pc->nrelocs; r++)
		if (pc->relocs[r].insn == i)
			return &pc->relocs[r];
	return NULL;
}

static inline int jump_target(const ProgCode *pc, int i)
{
	return i + pc->insns[i].off + 1;
}

static inline bool is_jump(const struct bpf_insn *in)
{
	int cls = BPF_CLASS(in->code);
	if (cls != BPF_JMP && cls != BPF_JMP32)
		return false;
	return BPF_OP(in->code) != BPF_CALL && BPF_OP(in->code) != BPF_EXIT;
}

static inline void dump(const Compiled *c)
{
	for (int p = 0; c->sc && p < c->sc->progs.n; p++) {
		const ProgCode *pc = c->sc->progs.v[p];
		bpf_disasm(stderr, pc->spec->name, pc->insns, pc->ninsns, pc->lines, c->src.text);
	}
}

#define PROG0(c) ((c).sc && (c).sc->progs.n ? (c).sc->progs.v[0] : NULL)

/* Structural invariants every generated program must satisfy. */
static inline bool check_invariants(const Compiled *c, const char *what)
{
	bool ok = true;
#define INV(cond, ...)                                                                             \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			ok = false;                                                                \
			fprintf(stderr, "FAIL: %s: ", what);                                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)
	for (int p = 0; p < c->sc->progs.n; p++) {
		const ProgCode *pc = c->sc->progs.v[p];
		int n = pc->ninsns;
		INV(n >= 2, "program %d is empty", p);
		if (n < 2)
			continue;
		/* ends with r0 = 0; exit */
		INV(!strcmp(insn(pc, n - 2), "r0 = 0"), "prog %d ends with '%s'", p, insn(pc, n - 2));
		INV(!strcmp(insn(pc, n - 1), "exit"), "prog %d last insn '%s'", p, insn(pc, n - 1));
		bool *m = insn_starts(pc);
		for (int i = 0; i < n; i++) {
			if (!m[i])
				continue;
			const struct bpf_insn *in = &pc->insns[i];
			/* jumps land on an instruction inside the program */
			if (is_jump(in)) {
				int t = jump_target(pc, i);
				INV(t >= 0 && t < n && m[t], "prog %d insn %d (%s) jumps to %d of %d", p,
				    i, insn(pc, i), t, n);
			}
			/* every map reference has a relocation, and the reverse */
			if (in->code == (BPF_LD | BPF_DW | BPF_IMM)) {
				INV(i + 1 < n, "prog %d: ld_imm64 cut at the end", p);
				bool pseudo = in->src_reg == BPF_PSEUDO_MAP_FD ||
					      in->src_reg == BPF_PSEUDO_MAP_VALUE;
				const Reloc *r = reloc_at(pc, i);
				INV(!pseudo || r, "prog %d insn %d (%s) has no relocation", p, i,
				    insn(pc, i));
				INV(pseudo || !r, "prog %d insn %d: relocation on a plain constant", p, i);
				if (r && r->kind == R_MAP)
					INV(r->arg >= 0 && r->arg < c->sc->maps.n,
					    "prog %d insn %d: map id %d of %d", p, i, r->arg,
					    c->sc->maps.n);
				if (r && (r->kind == R_RODATA || r->kind == R_ZERO))
					INV(in->src_reg == BPF_PSEUDO_MAP_VALUE,
					    "prog %d insn %d: value reloc without MAP_VALUE", p, i);
			}
			/* only registers r0..r10, and r10 is never written */
			INV(in->dst_reg <= 10 && in->src_reg <= 10, "prog %d insn %d: bad register", p,
			    i);
			int cls = BPF_CLASS(in->code);
			if (cls == BPF_ALU64 || cls == BPF_ALU || cls == BPF_LDX ||
			    (cls == BPF_LD && in->code == (BPF_LD | BPF_DW | BPF_IMM)))
				INV(in->dst_reg != 10, "prog %d insn %d (%s) writes r10", p, i,
				    insn(pc, i));
			/* stack accesses stay within the 512-byte frame */
			if ((cls == BPF_LDX && in->src_reg == 10) ||
			    ((cls == BPF_STX || cls == BPF_ST) && in->dst_reg == 10))
				INV(in->off < 0 && in->off >= -512, "prog %d insn %d: stack off %d", p,
				    i, in->off);
		}
		for (int r = 0; r < pc->nrelocs; r++) {
			int at = pc->relocs[r].insn;
			INV(at >= 0 && at < n && m[at] &&
			    pc->insns[at].code == (BPF_LD | BPF_DW | BPF_IMM),
			    "prog %d: relocation %d at %d is not on a ld_imm64", p, r, at);
		}
		/* a line for every instruction, within the source */
		for (int i = 0; pc->lines && i < n; i++)
			INV(pc->lines[i] >= 0, "prog %d insn %d: line %d", p, i, pc->lines[i]);
		free(m);
	}
#undef INV
	return ok;
}

/* Stack slots read before anything was written to them, in program order
 * (a read of uninitialized stack: the verifier only allows it to programs
 * loaded with CAP_PERFMON, and it is always a wasted instruction). */
static inline int first_uninit_stack_read(const ProgCode *pc)
{
	bool written[513] = {0};
	bool *m = insn_starts(pc);
	int bad = -1;
	for (int i = 0; i < pc->ninsns && bad < 0; i++) {
		if (!m[i])
			continue;
		const struct bpf_insn *in = &pc->insns[i];
		int cls = BPF_CLASS(in->code);
		if ((cls == BPF_STX || cls == BPF_ST) && in->dst_reg == 10 && in->off < 0 &&
		    in->off >= -512)
			for (int b = 0; b < (1 << (3 - (BPF_SIZE(in->code) >> 3))) ||
					(BPF_SIZE(in->code) == BPF_DW && b < 8);
			     b++)
				if (-in->off - b > 0)
					written[-in->off - b] = true;
		if (cls == BPF_LDX && in->src_reg == 10 && in->off < 0 && in->off >= -512 &&
		    !written[-in->off])
			bad = i;
		/* r2 = r10; r2 += -8: a helper writes or reads it; treat the
		 * helper arguments as initialized by the code before them */
	}
	free(m);
	return bad;
}
