/* Code generation tests: compile small programs (no kernel loading) and
 * assert on the BPF instructions, relocations, event descriptors and the
 * -d bpf listing.  Instructions are compared through bpf_insn_format, the
 * verifier-style text `sonde -d bpf` prints. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "syms_check.h"
#include "bpf/disasm.h"
#include "compile/script.h"
#include "compile/sema.h"
#include "bt/generation_bt.h"
#include "dtrace/runtime_d.h"

#define SELF_PID 4242 /* 0x1092 */
#define TP_WRITE "tracepoint:syscalls:sys_enter_write"

/* ---- helpers ---- */

typedef struct Compiled {
	Source src;
	Program *prog;
	Script *sc;
	Error err;
} Compiled;

static Compiled compile_opt(const char *text, int self_pid)
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

static Compiled compile(const char *text)
{
	return compile_opt(text, SELF_PID);
}

static void compiled_free(Compiled *c)
{
	script_free(c->sc);
	program_free(c->prog);
	memset(c, 0, sizeof(*c));
}

/* Text of instruction i ("" for the second slot of a ld_imm64). */
static const char *insn(const ProgCode *pc, int i)
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
static bool *insn_starts(const ProgCode *pc)
{
	bool *m = calloc((size_t)pc->ninsns + 1, 1);
	for (int i = 0; i < pc->ninsns;) {
		m[i] = true;
		i += pc->insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) ? 2 : 1;
	}
	return m;
}

/* First instruction at or after `from` whose text contains `needle`. */
static int find(const ProgCode *pc, int from, const char *needle)
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
static int next(const ProgCode *pc, int i)
{
	return i + (pc->insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) ? 2 : 1);
}

static int count_of(const ProgCode *pc, const char *needle)
{
	int n = 0;
	for (int i = find(pc, 0, needle); i >= 0; i = find(pc, i + 1, needle))
		n++;
	return n;
}

static const Reloc *reloc_at(const ProgCode *pc, int i)
{
	for (int r = 0; r < pc->nrelocs; r++)
		if (pc->relocs[r].insn == i)
			return &pc->relocs[r];
	return NULL;
}

static int jump_target(const ProgCode *pc, int i)
{
	return i + pc->insns[i].off + 1;
}

static bool is_jump(const struct bpf_insn *in)
{
	int cls = BPF_CLASS(in->code);
	if (cls != BPF_JMP && cls != BPF_JMP32)
		return false;
	return BPF_OP(in->code) != BPF_CALL && BPF_OP(in->code) != BPF_EXIT;
}

static void dump(const Compiled *c)
{
	for (int p = 0; c->sc && p < c->sc->progs.n; p++) {
		const ProgCode *pc = c->sc->progs.v[p];
		bpf_disasm(stderr, pc->spec->name, pc->insns, pc->ninsns, pc->lines, c->src.text);
	}
}

#define PROG0(c) ((c).sc && (c).sc->progs.n ? (c).sc->progs.v[0] : NULL)

/* Structural invariants every generated program must satisfy. */
static bool check_invariants(const Compiled *c, const char *what)
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
static int first_uninit_stack_read(const ProgCode *pc)
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

/* ---- prologue and self filtering ---- */

static void test_prologue(void)
{
	Compiled c = compile("BEGIN { @x = 1; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK_STR(insn(pc, 0), "r6 = r1");
	CHECK_STR(insn(pc, 1), "call bpf_get_smp_processor_id#8");
	CHECK_STR(insn(pc, 2), "*(u32 *)(r10 -8) = r0");
	CHECK(strstr(insn(pc, 3), "r1 = map[") == insn(pc, 3) || !strncmp(insn(pc, 3), "r1 = map", 8));
	const Reloc *r = reloc_at(pc, 3);
	CHECK(r && r->kind == R_SCRATCH);
	CHECK_STR(insn(pc, 5), "r2 = r10");
	CHECK_STR(insn(pc, 6), "r2 += -8");
	CHECK_STR(insn(pc, 7), "call bpf_map_lookup_elem#1");
	CHECK(!strncmp(insn(pc, 8), "if r0 == 0x0 goto", 17));
	/* a failed scratch lookup goes straight to the exit */
	CHECK(jump_target(pc, 8) == pc->ninsns - 2);
	CHECK_STR(insn(pc, 9), "r7 = r0");
	/* BEGIN does not filter sonde's own pid */
	CHECK(find(pc, 0, "get_current_pid_tgid") < 0);
	CHECK(find(pc, 0, "0x1092") < 0);
	CHECK(c.sc->scratch_size > 0);
	compiled_free(&c);

	/* a tracepoint program drops sonde's own events first */
	c = compile(TP_WRITE " { @x = 1; }");
	pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK_STR(insn(pc, 0), "r6 = r1");
	CHECK_STR(insn(pc, 1), "call bpf_get_current_pid_tgid#14");
	CHECK_STR(insn(pc, 2), "r0 >>= 32");
	CHECK(!strncmp(insn(pc, 3), "if r0 == 0x1092 goto", 20));
	CHECK(jump_target(pc, 3) == pc->ninsns - 2);
	CHECK_STR(insn(pc, 4), "call bpf_get_smp_processor_id#8");
	compiled_free(&c);

	/* ... as do interval programs; self_pid 0 turns the filter off */
	c = compile("interval:s:1 { @x = 1; }");
	CHECK(PROG0(c) && !strncmp(insn(PROG0(c), 3), "if r0 == 0x1092 goto", 20));
	compiled_free(&c);
	c = compile_opt(TP_WRITE " { @x = 1; }", 0);
	CHECK(PROG0(c) && find(PROG0(c), 0, "get_current_pid_tgid") < 0);
	compiled_free(&c);

	/* END behaves like BEGIN */
	c = compile("END { @x = 1; }");
	CHECK(PROG0(c) && find(PROG0(c), 0, "get_current_pid_tgid") < 0);
	compiled_free(&c);
}

/* ---- strings ---- */

static void test_strcmp(void)
{
	Compiled c = compile(TP_WRITE " /comm == \"dd\"/ { @x = 1; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(find(pc, 0, "call bpf_get_current_comm#16") > 0);
	int call = find(pc, 0, "call bpf_strncmp#182");
	CHECK(call > 0);
	if (call > 0) {
		/* r1 = the comm copy, r2 = 3 bytes ("dd" and its NUL), r3 = rodata */
		int ld = find(pc, 0, "r3 = map[");
		CHECK(ld > 0 && ld < call);
		CHECK(find(pc, 0, "r2 = 3") < call && find(pc, 0, "r2 = 3") > 0);
		const Reloc *r = ld > 0 ? reloc_at(pc, ld) : NULL;
		CHECK(r && r->kind == R_RODATA);
		CHECK(ld > 0 && pc->insns[ld].src_reg == BPF_PSEUDO_MAP_VALUE);
		if (r && r->kind == R_RODATA) {
			CHECK(r->arg >= 0 && (size_t)r->arg + 3 <= c.sc->rodata.len);
			if (r->arg >= 0 && (size_t)r->arg + 3 <= c.sc->rodata.len)
				CHECK(!memcmp(c.sc->rodata.s + r->arg, "dd", 3));
			/* the offset into the value is in the second slot */
			CHECK(pc->insns[ld + 1].imm == r->arg);
		}
		/* the predicate jumps to the exit when false */
		int j = find(pc, call, "if r0 == 0x0 goto");
		CHECK(j > call && jump_target(pc, j) == pc->ninsns - 2);
	}
	compiled_free(&c);

	/* the same literal twice is stored once */
	c = compile("BEGIN { if (comm == \"bash\") { @a = 1; } if (comm != \"bash\") { @b = 1; } "
		    "if (comm == \"zsh\") { @c = 1; } }");
	pc = PROG0(c);
	CHECK(pc && count_of(pc, "call bpf_strncmp#182") == 3);
	CHECK(c.sc && c.sc->rodata.len == strlen("bash") + 1 + strlen("zsh") + 1);
	compiled_free(&c);

	/* a literal longer than the string can never be equal: no call */
	c = compile("BEGIN { @x = comm == \"0123456789abcdefXYZ\"; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "strncmp") < 0);
	compiled_free(&c);

	/* two non-literal strings: a bounded byte loop, no helper */
	c = compile("BEGIN { $a = comm; @x = $a == comm; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "strncmp") < 0);
	CHECK(pc && find(pc, 0, "r3 = *(u8 *)") > 0 && find(pc, 0, "r4 = *(u8 *)") > 0);
	compiled_free(&c);
}

/* ---- maps and aggregations ---- */

static void test_count(void)
{
	Compiled c = compile("BEGIN { @ = count(); }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(c.sc->maps.n == 1 && c.sc->maps.v[0]->percpu);
	/* key 0 in scratch, lookup */
	int look = find(pc, 10, "call bpf_map_lookup_elem#1");
	CHECK(look > 0);
	const Reloc *r = reloc_at(pc, find(pc, 10, "r1 = map["));
	CHECK(r && r->kind == R_MAP && r->arg == 0);
	/* a hit skips the creation */
	int hit = next(pc, look);
	CHECK(!strncmp(insn(pc, hit), "if r0 != 0x0 goto", 17));
	/* a miss inserts zeros with BPF_NOEXIST (1) and looks up again */
	int upd = find(pc, hit, "call bpf_map_update_elem#2");
	CHECK(upd > hit);
	int zero = find(pc, hit, "r3 = map[");
	CHECK(zero > hit && zero < upd);
	r = reloc_at(pc, zero);
	CHECK(r && r->kind == R_ZERO);
	CHECK_STR(insn(pc, upd - 1), "r4 = 1");
	int look2 = find(pc, upd, "call bpf_map_lookup_elem#1");
	CHECK(look2 > upd);
	/* found: on to the add; not found (map full or busy): counted in
	 * the drops map, reported at the end, never silent */
	CHECK(!strncmp(insn(pc, next(pc, look2)), "if r0 != 0x0 goto", 17));
	r = reloc_at(pc, find(pc, look2, "r1 = map["));
	CHECK(r && r->kind == R_DROPS);
	/* then the add: the hit jump lands here too */
	int load = find(pc, look2, "r2 = *(u64 *)(r0 +0)");
	CHECK(load > look2);
	CHECK(jump_target(pc, hit) <= load && jump_target(pc, hit) > look2);
	CHECK_STR(insn(pc, load - 1), "r1 = 1");
	CHECK_STR(insn(pc, load + 1), "r2 += r1");
	CHECK_STR(insn(pc, load + 2), "*(u64 *)(r0 +0) = r2");
	CHECK(c.sc->zero_size >= 8);
	compiled_free(&c);

	/* sum adds its argument; avg/stats add to both count and total */
	c = compile("BEGIN { @s = sum(5); @a = avg(5); }");
	pc = PROG0(c);
	CHECK(pc && count_of(pc, "call bpf_map_update_elem#2") == 2);
	CHECK(pc && find(pc, 0, "r2 = *(u64 *)(r0 +8)") > 0);
	compiled_free(&c);
}

static void test_count_no_uninit_stack(void)
{
	/* count() takes no argument, yet its code loaded the (never written)
	 * argument slot: "r1 = *(u64 *)(r10 -16)" right before "r1 = 1". */
	Compiled c = compile("BEGIN { @ = count(); }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	int bad = first_uninit_stack_read(pc);
	if (bad >= 0)
		fprintf(stderr, "  count(): insn %d '%s' reads uninitialized stack\n", bad,
			insn(pc, bad));
	CHECK(bad < 0);
	compiled_free(&c);
}

static void test_hist(void)
{
	Compiled c = compile(TP_WRITE " { @ = hist(args->count); }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(c.sc->maps.v[0]->val->kind == TY_HIST);
	/* binary search for the top bit, as bpftrace 0.17: shifts by 16, 8,
	 * 4, 2, 1 (so values >= 2^31 all count in [2G, 4G)) */
	static const char *const shifts[] = {"r3 >>= 16", "r3 >>= 8", "r3 >>= 4",
					     "r3 >>= 2",  "r3 >>= 1"};
	int at = 0;
	for (int i = 0; i < 5; i++) {
		int s = find(pc, at, shifts[i]);
		CHECK(s > at);
		at = s > 0 ? s : at;
	}
	CHECK(find(pc, 0, "r3 >>= 32") < 0);
	/* bpftrace takes even an unsigned value as signed: negative bucket */
	CHECK(find(pc, 0, "s<") > 0);
	/* the index is bounded for the verifier, then scaled to bytes */
	int bound = find(pc, at, "if r1 < 0x42 goto");
	CHECK(bound > at);
	CHECK(bound > 0 && !strcmp(insn(pc, bound + 1), "r1 = 65"));
	CHECK(bound > 0 && !strcmp(insn(pc, bound + 2), "r1 <<= 3"));
	CHECK(bound > 0 && !strcmp(insn(pc, bound + 3), "r0 += r1"));
	compiled_free(&c);

	/* a signed value: negative numbers go to bucket 0 */
	c = compile("tracepoint:syscalls:sys_exit_read { @ = hist(args->ret); }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "if r1 s< 0x0 goto") > 0);
	compiled_free(&c);

	/* lhist: bounds from the literal parameters, bucket count 12 */
	c = compile("BEGIN { @ = lhist(5, 0, 100, 10); }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "if r1 < 0xc goto") > 0);
	CHECK(pc && find(pc, 0, "r1 = 11") > 0);
	CHECK(pc && find(pc, 0, "r1 /= r3") > 0);
	compiled_free(&c);
}

static void test_minmax(void)
{
	Compiled c = compile("BEGIN { @mn = min(-5); @mx = max((uint64)5); }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	/* signed min skips when the new value is not smaller: s>= */
	CHECK(find(pc, 0, "if r1 s>= r2 goto") > 0);
	/* unsigned max skips when not larger: <= */
	CHECK(find(pc, 0, "if r1 <= r2 goto") > 0);
	/* the "seen" flag at +8 */
	CHECK(count_of(pc, "*(u64 *)(r0 +8) = 1") == 2);
	compiled_free(&c);
}

static void test_map_assign(void)
{
	Compiled c = compile("BEGIN { @m[1, \"ab\"] = 7; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	/* plain values use BPF_ANY (0) */
	int upd = find(pc, 0, "call bpf_map_update_elem#2");
	CHECK(upd > 0 && !strcmp(insn(pc, upd - 1), "r4 = 0"));
	/* tuple key: int at +0, string "ab" stored at +8 and padded */
	CHECK(find(pc, 0, "*(u8 *)(r7 +") > 0);
	CHECK(!c.sc->maps.v[0]->percpu);
	compiled_free(&c);

	/* map delete */
	c = compile("BEGIN { @m[1] = 1; delete(@m[1]); }");
	CHECK(PROG0(c) && find(PROG0(c), 0, "call bpf_map_delete_elem#3") > 0);
	compiled_free(&c);

	/* ++ on a map: lookup, add, update */
	c = compile("BEGIN { @i++; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "call bpf_map_lookup_elem#1") > 0);
	CHECK(pc && find(pc, 0, "r1 += r0") > 0);
	CHECK(pc && find(pc, 0, "call bpf_map_update_elem#2") > 0);
	compiled_free(&c);

	/* pointers in maps and variables step by the pointee's size */
	c = compile("BEGIN { @p = (int32 *)32; @p += 3; @p++; $v = (int64 *)8; $v -= 2; $v--; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "r0 *= 4") > 0);                /* @p += 3 */
	CHECK(pc && find(pc, 0, ") = 4") > 0);                  /* @p++ adds 4 */
	CHECK(pc && find(pc, 0, "r0 *= 8") > 0);                /* $v -= 2 */
	CHECK(pc && find(pc, 0, "r1 -= 8") > 0);                /* $v-- */
	compiled_free(&c);
}

/* ---- events ---- */

static void test_printf(void)
{
	Compiled c = compile("BEGIN { printf(\"%d %s %d\\n\", pid, comm, 1); }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(c.sc->events.n == 1);
	EventDesc *ev = c.sc->events.v[0];
	CHECK(ev->kind == EV_PRINTF && ev->nargs == 3 && ev->fmt && ev->fmt->nargs == 3);
	if (ev->nargs == 3) {
		CHECK(ev->argoff[0] == 8 && ev->argt[0]->kind == TY_INT);
		CHECK(ev->argoff[1] == 16 && ev->argt[1]->kind == TY_STR && ev->argt[1]->size == 16);
		CHECK(ev->argoff[2] == 32 && ev->argt[2]->kind == TY_INT);
	}
	CHECK(ev->size == 40);
	/* the record: event index 0, then the output of ev->size bytes */
	int out = find(pc, 0, "call bpf_ringbuf_output#130");
	CHECK(out > 0);
	CHECK(out > 0 && !strcmp(insn(pc, out - 2), "r3 = 40"));
	/* BEGIN/END events wake the reader at once (BPF_RB_FORCE_WAKEUP) */
	if (out > 0)
		CHECK_STR(insn(pc, out - 1), "r4 = 2");
	const Reloc *r = reloc_at(pc, find(pc, 0, "r1 = map["));
	/* the first map reference after the prologue... find the ringbuf one */
	int rb = -1;
	for (int i = find(pc, 10, "r1 = map["); i >= 0 && i < out; i = find(pc, i + 1, "r1 = map["))
		rb = i;
	r = rb > 0 ? reloc_at(pc, rb) : NULL;
	CHECK(r && r->kind == R_RINGBUF);
	/* a failed output is counted: lost map lookup and an atomic add */
	CHECK(out > 0 && !strncmp(insn(pc, out + 1), "if r0 == 0x0 goto", 17));
	int lost = find(pc, out, "r1 = map[");
	r = lost > 0 ? reloc_at(pc, lost) : NULL;
	CHECK(r && r->kind == R_LOST);
	CHECK(find(pc, out, "call bpf_map_lookup_elem#1") > out);
	CHECK(find(pc, out, "lock *(u64 *)(r0 +0) += r1") > out);
	/* the comm argument is written into the record at +16 */
	CHECK(find(pc, 0, "call bpf_get_current_comm#16") > 0);
	compiled_free(&c);

	/* one event per call site, indexes in order */
	c = compile("BEGIN { printf(\"a\\n\"); printf(\"%d\\n\", 2); time(); print(@x); @x = 1; "
		    "clear(@x); zero(@x); exit(); }");
	CHECK(c.sc && c.sc->events.n == 7);
	if (c.sc && c.sc->events.n == 7) {
		static const EventKind kinds[] = {EV_PRINTF, EV_PRINTF, EV_TIME, EV_PRINT_MAP,
						  EV_CLEAR,  EV_ZERO,   EV_EXIT};
		for (int i = 0; i < 7; i++)
			CHECK(c.sc->events.v[i]->kind == kinds[i]);
		CHECK(c.sc->events.v[0]->size == 8 && c.sc->events.v[1]->size == 16);
		CHECK(c.sc->events.v[3]->map == c.sc->maps.v[0]);
		CHECK(c.sc->events.v[2]->text && !strcmp(c.sc->events.v[2]->text, "%H:%M:%S\n"));
		pc = PROG0(c);
		CHECK(pc && count_of(pc, "call bpf_ringbuf_output#130") == 7);
	}
	CHECK(c.sc && !c.sc->traced_events);
	compiled_free(&c);

	/* printing from a traced probe marks the script; streamed events do
	 * not wake the reader (BPF_RB_NO_WAKEUP), exit() does */
	c = compile(TP_WRITE " { printf(\"x\\n\"); exit(); }");
	CHECK(c.sc && c.sc->traced_events);
	pc = PROG0(c);
	out = pc ? find(pc, 0, "call bpf_ringbuf_output#130") : -1;
	if (out > 0)
		CHECK_STR(insn(pc, out - 1), "r4 = 1");
	out = pc && out > 0 ? find(pc, out + 1, "call bpf_ringbuf_output#130") : -1;
	CHECK(out > 0);
	if (out > 0)
		CHECK_STR(insn(pc, out - 1), "r4 = 2");
	compiled_free(&c);

	/* print(@m, top, div) */
	c = compile("BEGIN { @m[1] = 1; print(@m, 5, 2); }");
	CHECK(c.sc && c.sc->events.n == 1 && c.sc->events.v[0]->top == 5 &&
	      c.sc->events.v[0]->div == 2);
	compiled_free(&c);
}

static void test_exit(void)
{
	Compiled c = compile("BEGIN { exit(); @x = 1; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(c.sc->events.n == 1 && c.sc->events.v[0]->kind == EV_EXIT);
	int out = find(pc, 0, "call bpf_ringbuf_output#130");
	CHECK(out > 0);
	/* the record is just the event index */
	CHECK(out > 0 && !strcmp(insn(pc, out - 2), "r3 = 8"));
	/* after the event: a goto to the exit, and the rest is not emitted */
	int g = find(pc, out, "goto pc");
	while (g > 0 && strncmp(insn(pc, g), "goto", 4))
		g = find(pc, g + 1, "goto pc");
	CHECK(g > out && jump_target(pc, g) == pc->ninsns - 2);
	CHECK(find(pc, 0, "call bpf_map_update_elem#2") < 0);
	compiled_free(&c);

	/* exit() in a branch keeps the code after the if */
	c = compile("BEGIN { if (pid) { exit(); } @x = 1; }");
	CHECK(PROG0(c) && find(PROG0(c), 0, "call bpf_map_update_elem#2") > 0);
	compiled_free(&c);
}

/* ---- arithmetic and casts ---- */

static void test_division(void)
{
	Compiled c = compile("BEGIN { $a = -7; $b = 2; @q = $a / $b; @r = $a % $b; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	/* unsigned even for signed operands, as bpftrace 0.17 (-7 / 2 is
	 * 9223372036854775804) */
	CHECK(find(pc, 0, "s/=") < 0 && find(pc, 0, "s%=") < 0);
	int d = find(pc, 0, "/=");
	CHECK(d > 0);
	if (d > 0) {
		CHECK(pc->insns[d].code == (BPF_ALU64 | BPF_DIV | BPF_X));
		CHECK(pc->insns[d].off == 0);
	}
	int m = find(pc, 0, "%=");
	CHECK(m > 0 && pc->insns[m].off == 0 && pc->insns[m].code == (BPF_ALU64 | BPF_MOD | BPF_X));
	compiled_free(&c);

	/* unsigned when either side is unsigned */
	c = compile("BEGIN { @q = pid / 2; @r = pid % 3; }");
	pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	d = find(pc, 0, "/=");
	CHECK(d > 0 && pc->insns[d].off == 0 && !strstr(insn(pc, d), "s/="));
	m = find(pc, 0, "%=");
	CHECK(m > 0 && pc->insns[m].off == 0);
	CHECK(find(pc, 0, "s/=") < 0 && find(pc, 0, "s%=") < 0);
	compiled_free(&c);

	/* >> of a signed value is arithmetic */
	c = compile("BEGIN { $a = -8; @x = $a >> 1; @y = pid >> 1; }");
	pc = PROG0(c);
	CHECK(pc && count_of(pc, "r1 s>>= r0") == 1 && count_of(pc, "r1 >>= r0") == 1);
	compiled_free(&c);

	/* comparisons: signed only when both sides are */
	c = compile("BEGIN { $a = -1; @x = $a < 1; @y = pid < 1; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "if r1 s< r0 goto") > 0 && find(pc, 0, "if r1 < r0 goto") > 0);
	compiled_free(&c);
}

static Compiled compile_dialect_d(const char *text)
{
	Compiled c = {.src = {"test", text}};
	c.prog = parse_program_opts(&c.src, bt_generation_named("0.17")->fe.parse, &c.err);
	if (c.prog) {
		Options o = {.sym = &test_syms, .strlen_max = 64, .map_keys_max = 4096, .self_pid = SELF_PID};
		frontend_use(&d_frontend, &o, NULL);
		c.sc = compile_program(c.prog, &o, &c.err);
	}
	return c;
}

/* D divides signed operands signed; without BPF_SDIV (forced here, so the
 * test is the same on every kernel) the magnitudes are divided unsigned
 * and the signs fixed: the divisor's and dividend's negations guarded by
 * signed tests, the result's by the flag in r2. */
static void test_division_d(void)
{
	setenv("SONDE_BPF_SDIV", "0", 1);
	Compiled c = compile_dialect_d("BEGIN { $a = -7; $b = 2; @q = $a / $b; @r = $a % $b; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(find(pc, 0, "s/=") < 0 && find(pc, 0, "s%=") < 0);
	int d = find(pc, 0, "r1 /= r0");
	CHECK(d > 0 && find(pc, 0, "if r1 s>= 0x0 goto") > 0 && find(pc, 0, "if r0 s>= 0x0 goto") > 0);
	CHECK(d > 0 && strstr(insn(pc, d + 1), "if r2 == 0x0 goto") && strstr(insn(pc, d + 2), "r1 = -r1"));
	CHECK(count_of(pc, "r2 ^= 1") == 1); /* the quotient's sign only */
	CHECK(find(pc, 0, "r1 %= r0") > 0);
	compiled_free(&c);

	/* unsigned operands: a plain unsigned division */
	c = compile_dialect_d("BEGIN { $a = (uint32)7; @q = $a / (uint32)2; @r = (uint64)7 % 2; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "r1 /= r0") > 0 && count_of(pc, "r1 = -r1") == 0);
	compiled_free(&c);
	unsetenv("SONDE_BPF_SDIV");
}

/* D's variables keep their first assignment's integer width, and a store
 * converts to it (plain, compound and ++): r1 <<= 56, r1 s>>= 56 for an
 * int8 after the add; bpftrace's dialect widens to 64 bits */
static void test_var_width_d(void)
{
	Compiled c = compile_dialect_d("BEGIN { @x = (int8)5; @x += 300; $v = (uint16)1; $v++; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(c.sc->maps.v[0]->val->bits == 8 && c.sc->maps.v[0]->val->is_signed);
	int add = find(pc, 0, "r1 += r0");
	CHECK(add > 0 && strstr(insn(pc, add + 1), "r1 <<= 56") && strstr(insn(pc, add + 2), "r1 s>>= 56"));
	int inc = find(pc, 0, "r1 += 1");
	CHECK(inc > 0 && count_of(pc, "r1 <<= 48") == 1 && count_of(pc, "r1 >>= 48") == 1);
	compiled_free(&c);

	c = compile("BEGIN { @x = (int8)5; @x += 300; }");
	pc = PROG0(c);
	add = pc ? find(pc, 0, "r1 += r0") : -1;
	CHECK(pc && c.sc->maps.v[0]->val->bits == 64 && add > 0 && !strstr(insn(pc, add + 1), "<<="));
	compiled_free(&c);
}

static void test_casts(void)
{
	Compiled c = compile("BEGIN { $x = 300; @a = (int8)$x; @b = (uint8)$x; @c = (int32)$x; "
			     "@d = (uint64)$x; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	int l = find(pc, 0, "r0 <<= 56");
	CHECK(l > 0 && !strcmp(insn(pc, l + 1), "r0 s>>= 56"));
	l = find(pc, l + 1, "r0 <<= 56");
	CHECK(l > 0 && !strcmp(insn(pc, l + 1), "r0 >>= 56"));
	l = find(pc, 0, "r0 <<= 32");
	CHECK(l > 0 && !strcmp(insn(pc, l + 1), "r0 s>>= 32"));
	/* (uint64) emits nothing: 3 casts, 3 left shifts */
	CHECK(count_of(pc, "r0 <<= ") == 3);
	compiled_free(&c);

	/* big constants need ld_imm64 */
	c = compile("BEGIN { @x = 5000000000; @y = 7; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "r0 = 0x12a05f200 ll") > 0);
	CHECK(pc && find(pc, 0, "r0 = 7") > 0);
	compiled_free(&c);
}

/* ---- tracepoint context ---- */

static void test_tp_fields(void)
{
	Compiled c = compile(TP_WRITE " { @fd = args->fd; @n = args->count; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(find(pc, 0, "r0 = *(u64 *)(r6 +16)") > 0);
	CHECK(find(pc, 0, "r0 = *(u64 *)(r6 +32)") > 0);
	compiled_free(&c);

	/* a 4-byte signed field: loaded as u32 then sign-extended */
	c = compile("tracepoint:sched:sched_switch { @p = args->prev_pid; "
		    "@c[args->prev_comm] = 1; }");
	pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	int l = find(pc, 0, "r0 = *(u32 *)(r6 +24)");
	CHECK(l > 0 && !strcmp(insn(pc, l + 1), "r0 <<= 32") &&
	      !strcmp(insn(pc, l + 2), "r0 s>>= 32"));
	/* char prev_comm[16] at offset 8: two aligned 8-byte context loads */
	CHECK(find(pc, 0, "r1 = *(u64 *)(r6 +8)") > 0);
	CHECK(find(pc, 0, "r1 = *(u64 *)(r6 +16)") > 0);
	compiled_free(&c);

	/* __data_loc char[] filename: offset in the low 16 bits, then a
	 * string read from the record */
	c = compile("tracepoint:sched:sched_process_exec { printf(\"%s\\n\", args->filename); }");
	pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	int dl = find(pc, 0, "r3 = *(u32 *)(r6 +8)");
	CHECK(dl > 0);
	CHECK(dl > 0 && !strcmp(insn(pc, dl + 1), "r3 &= 65535"));
	CHECK(dl > 0 && !strcmp(insn(pc, dl + 2), "r3 += r6"));
	int call = find(pc, dl, "call bpf_probe_read_kernel_str#115");
	CHECK(call > dl);
	CHECK(call > 0 && !strcmp(insn(pc, call - 1), "r2 = 64"));
	CHECK(c.sc->events.n == 1 && c.sc->events.v[0]->argt[0]->kind == TY_STR &&
	      c.sc->events.v[0]->argt[0]->size == 64 && c.sc->events.v[0]->size == 72);
	compiled_free(&c);

	/* probe arguments: pt_regs offsets for perf events, u64 slots for
	 * raw tracepoints */
	c = compile("profile:hz:99 { @a = arg0; @b = arg1; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "r0 = *(u64 *)(r6 +112)") > 0 &&
	      find(pc, 0, "r0 = *(u64 *)(r6 +104)") > 0);
	compiled_free(&c);
	c = compile("rawtracepoint:sched_switch { @a = arg2; }");
	pc = PROG0(c);
	CHECK(pc && find(pc, 0, "r0 = *(u64 *)(r6 +16)") > 0);
	compiled_free(&c);
}

/* ---- builtins ---- */

static void test_builtins(void)
{
	Compiled c = compile("BEGIN { @p = pid; @t = tid; @u = uid; @g = gid; @n = nsecs; @c = cpu; "
			     "@r = rand; @k[kstack] = 1; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	CHECK(count_of(pc, "call bpf_get_current_pid_tgid#14") == 2);
	CHECK(count_of(pc, "call bpf_get_current_uid_gid#15") == 2);
	CHECK(find(pc, 0, "call bpf_ktime_get_ns#5") > 0);
	CHECK(find(pc, 0, "call bpf_get_prandom_u32#7") > 0);
	CHECK(count_of(pc, "call bpf_get_smp_processor_id#8") == 2); /* prologue + cpu */
	int st = find(pc, 0, "call bpf_get_stackid#27");
	CHECK(st > 0);
	int ld = find(pc, 0, "r2 = map[");
	const Reloc *r = ld > 0 ? reloc_at(pc, ld) : NULL;
	CHECK(r && r->kind == R_KSTACK);
	CHECK(c.sc->uses_kstack && !c.sc->uses_ustack);
	compiled_free(&c);

	/* probe: the name stored as bytes */
	c = compile("BEGIN { @[probe] = 1; }");
	pc = PROG0(c);
	/* "BEGI" as a little-endian u32 */
	CHECK(pc && find(pc, 0, "*(u32 *)(r7 +") > 0);
	compiled_free(&c);
}

/* ---- control flow ---- */

static void test_control_flow(void)
{
	Compiled c = compile("BEGIN { $i = 0; while ($i < 10) { $i++; if ($i == 5) { continue; } "
			     "if ($i == 8) { break; } } @ = $i; }");
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	/* a backward jump closes the loop */
	bool back = false;
	for (int i = 0; i < pc->ninsns; i++)
		if (is_jump(&pc->insns[i]) && pc->insns[i].off < 0)
			back = true;
	CHECK(back);
	compiled_free(&c);

	/* unroll copies the body */
	c = compile("BEGIN { unroll(4) { @c++; } }");
	CHECK(PROG0(c) && count_of(PROG0(c), "call bpf_map_update_elem#2") == 4);
	compiled_free(&c);

	/* return jumps to the exit, code after it is dropped */
	c = compile("BEGIN { return; @x = 1; }");
	CHECK(PROG0(c) && find(PROG0(c), 0, "call bpf_map_update_elem#2") < 0);
	compiled_free(&c);

	/* integer variables live on the stack and are zeroed first */
	c = compile("BEGIN { $x = 5; @ = $x; }");
	pc = PROG0(c);
	CHECK(pc && !strcmp(insn(pc, 10), "*(u64 *)(r10 -16) = 0"));
	compiled_free(&c);
}

/* ---- stale layout: code must use the final map types ---- */

static bool same_code(const ProgCode *a, const ProgCode *b)
{
	if (a->ninsns != b->ninsns)
		return false;
	for (int i = 0; i < a->ninsns; i++)
		if (memcmp(&a->insns[i], &b->insns[i], sizeof(a->insns[i])))
			return false;
	return true;
}

static void test_final_types(void)
{
	/* @t's tuple widens (string[2] -> string[14], moving the int from +8
	 * to +16) only in the last pass, after "BEGIN { @t = ("x", 1); }" was
	 * generated.  That probe's code must be the same as when it comes last
	 * (when the type is certainly final). */
	const char *mid = "BEGIN { @t = @u; @u = @v; @v = @w; } "
			  "interval:s:2 { @u = (\"x\", 1); @v = (\"x\", 1); @w = (\"x\", 1); } "
			  "END { @w = (\"a long string\", 1); }";
	char a[512], b[512];
	/* (one BEGIN at most, as in bpftrace) */
	snprintf(a, sizeof(a), "interval:s:1 { @t = (\"x\", 1); } %s", mid);
	snprintf(b, sizeof(b), "%s interval:s:1 { @t = (\"x\", 1); }", mid);
	Compiled ca = compile(a), cb = compile(b);
	CHECK(ca.sc && cb.sc);
	if (ca.sc && cb.sc) {
		const ProgCode *pa = ca.sc->progs.v[0], *pb = cb.sc->progs.v[cb.sc->progs.n - 1];
		const MapInfo *t = ca.sc->maps.v[0];
		CHECK(t->val && t->val->kind == TY_TUPLE && t->val->offset[1] == 16);
		bool same = same_code(pa, pb);
		if (!same) {
			fprintf(stderr, "  stale tuple layout: @t = (\"x\", 1) generated before the "
					"type settled:\n");
			bpf_disasm(stderr, "first", pa->insns, pa->ninsns, NULL, NULL);
			bpf_disasm(stderr, "last", pb->insns, pb->ninsns, NULL, NULL);
		}
		CHECK(same);
	}
	compiled_free(&ca);
	compiled_free(&cb);
}

/* ---- invariants over many programs ---- */

static const char *const programs[] = {
	"BEGIN { printf(\"hello\\n\"); exit(); }",
	"END { print(1); }",
	"BEGIN { @a[comm, 1] = count(); @b = \"x\"; @c = (1, \"ab\"); }",
	"interval:s:1 { @y = @x; } BEGIN { @x = 5; }",
	TP_WRITE " /pid != 0/ { @[comm] = count(); @bytes = sum(args->count); }",
	TP_WRITE " { @h = hist(args->count); @l = lhist(args->count, 0, 100, 10); }",
	TP_WRITE " { @mn = min(args->count); @mx = max(args->count); @av = avg(args->count); "
		 "@st = stats(args->count); }",
	"tracepoint:sched:sched_switch { @[args->prev_comm, args->next_comm] = count(); }",
	"tracepoint:sched:sched_process_exec { printf(\"%s %d\\n\", str(args->filename), args->pid); }",
	"tracepoint:syscalls:sys_enter_openat { printf(\"%s\\n\", str(args->filename)); }",
	"tracepoint:syscalls:sys_exit_read /args->ret > 0/ { @ = hist(args->ret); }",
	"rawtracepoint:sched_switch { @[arg0] = count(); }",
	"profile:hz:99 { @[kstack, ustack(4)] = count(); }",
	"interval:ms:100 { @i++; if (@i > 10) { exit(); } }",
	"software:cpu:1000 { @ = count(); }",
	"BEGIN { $i = 0; while ($i < 10) { $i++; if ($i == 5) { continue; } if ($i == 8) { break; } } }",
	"BEGIN { unroll(3) { @c++; } }",
	"BEGIN { $x = (int8)300; $y = (uint16)-1; $z = -7 / 2; $w = 7 % 3; @r = $x + $y + $z + $w; }",
	"BEGIN { $t = (1, \"a\", (2, 3)); printf(\"%d %s\\n\", $t.0, $t.1); @t = $t.2; }",
	"BEGIN { @x = 1 ? \"ab\" : \"abcd\"; $s = pid ? comm : \"x\"; printf(\"%s\\n\", $s); }",
	"BEGIN { $s = comm; if ($s == \"bash\" || comm != \"zsh\" && $s != comm) { printf(\"%s\\n\", $s); } }",
	"BEGIN { @a = 1; delete(@a); @b[1] = 2; delete(@b[1]); clear(@b); zero(@b); print(@b); }",
	"BEGIN { time(); time(\"%H\\n\"); cat(\"/etc/%s\", \"hostname\"); }",
	"BEGIN { @ = nsecs; @e = elapsed; @c = cpu; @u = uid; @g = gid; @t = tid; @cg = cgroup; "
	"@ct = curtask; @r = rand; }",
	"BEGIN { printf(\"%s %s %s\\n\", ksym(1), ntop(0x0100007f), strftime(\"%H\", nsecs)); }",
	"BEGIN { @x = $1 + $#; @s = str($2); @z = str(curtask, 3); }",
	"BEGIN { @x = 1 << 3 >> 1 & 0xff | 2 ^ 1; @y = ~5; @z = !0; @n = -@x; @b = @x && @y || !@z; }",
	"BEGIN { @a = 1; @a += 2; @a -= 1; @a *= 3; @a /= 2; @a %= 5; @a <<= 1; @a >>= 1; }",
	"BEGIN { $x = 1; $x += 2; $x <<= 3; @ = $x++ + ++$x + $x-- + --$x; }",
	"BEGIN { @m[1, \"a\"] = 1; @m[2, \"bc\"] = 2; @v = @m[1, \"a\"]; }",
	"BEGIN, END { @[probe] = count(); }",
	"tracepoint:syscalls:sys_enter_* { @[probe] = count(); }",
	"BEGIN { @s = str(1); @big = str(2, 200); $t = (comm, @s); @t = $t; printf(\"%s\\n\", $t.1); }",
	"BEGIN { join(0); join(0, \",\"); }",
	"BEGIN { if (pid > 1) { exit(); } else { return; } @never = 1; }",
	"BEGIN { @x = sizeof(comm); @y = (1, 2).1; @s[\"k\"] = (\"v\", 1); @r = @s[\"k\"].1; }",
};

static void test_invariants(void)
{
	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		Compiled c = compile(programs[i]);
		CHECK(c.sc != NULL);
		if (c.sc) {
			bool ok = check_invariants(&c, programs[i]);
			CHECK(ok);
			if (!ok)
				dump(&c);
		}
		compiled_free(&c);
	}
}

/* ---- -d bpf ---- */

static void test_disasm_listing(void)
{
	const char *text = "BEGIN {\n  @x = 1;\n\n  printf(\"%d\\n\", @x);\n}\n";
	Compiled c = compile(text);
	const ProgCode *pc = PROG0(c);
	CHECK(pc != NULL);
	if (!pc)
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bpf_disasm(f, pc->spec->name, pc->insns, pc->ninsns, pc->lines, c.src.text);
	fclose(f);
	CHECK(buf && !strncmp(buf, "BEGIN:\n", 7));
	CHECK(buf && strstr(buf, "; BEGIN {  (line 1)\n"));
	CHECK(buf && strstr(buf, "; @x = 1;  (line 2)\n"));
	CHECK(buf && strstr(buf, "; printf(\"%d\\n\", @x);  (line 4)\n"));
	CHECK(buf && !strstr(buf, "(line 3)"));
	CHECK(buf && strstr(buf, "   0: (bf) r6 = r1\n"));
	CHECK(buf && strstr(buf, "call bpf_ringbuf_output#130"));
	/* comments come in source order, each before its code */
	char *l2 = buf ? strstr(buf, "(line 2)") : NULL, *l4 = buf ? strstr(buf, "(line 4)") : NULL;
	CHECK(l2 && l4 && l2 < l4);
	CHECK(l2 && l4 && strstr(l2, "call bpf_map_update_elem#2") < l4);
	free(buf);
	/* instructions carry their source lines */
	CHECK(pc->lines && pc->lines[0] == 1);
	int upd = find(pc, 0, "call bpf_map_update_elem#2");
	CHECK(upd > 0 && pc->lines[upd] == 2);
	int out = find(pc, 0, "call bpf_ringbuf_output#130");
	CHECK(out > 0 && pc->lines[out] == 4);
	compiled_free(&c);
}

/* ---- compile speed ---- */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_speed(void)
{
	StrBuf sb = {0};
	for (int i = 0; i < 200; i++) {
		switch (i % 4) {
		case 0:
			sb_printf(&sb, "interval:ms:%d { @c[%d] = count(); @h = hist(nsecs); }\n", 100 + i, i);
			break;
		case 1:
			sb_printf(&sb, "interval:ms:%d /pid > %d/ { printf(\"%%d %%s %%d\\n\", pid, comm, %d); "
				       "@s[comm] = sum(%d); }\n", 100 + i, i, i, i);
			break;
		case 2:
			sb_printf(&sb, "profile:hz:%d { $x = %d; while ($x > 0) { $x--; } @m = max($x); "
				       "@names[comm, %d] = 1; }\n", 50 + i, i % 8, i);
			break;
		default:
			sb_printf(&sb, "interval:ms:%d { if (comm == \"p%d\") { @t = (\"x\", %d); } else "
				       "{ @l = lhist(%d, 0, 100, 10); } }\n", 100 + i, i, i, i);
		}
	}
	double best = 1e9;
	int nprogs = 0;
	for (int rep = 0; rep < 3; rep++) {
		double t0 = now_ms();
		Compiled c = compile(sb.s);
		double dt = now_ms() - t0;
		best = dt < best ? dt : best;
		nprogs = c.sc ? c.sc->progs.n : -1;
		if (rep == 0 && c.sc)
			CHECK(check_invariants(&c, "200 probes"));
		compiled_free(&c);
	}
	CHECK(nprogs == 200);
	printf("test_codegen: 200-probe program (%zu bytes) compiles in %.2f ms\n", sb.len, best);
	CHECK(best < 500);

	/* the sys_enter_* wildcard (hundreds of tracepoints, format files
	 * read from tracefs) */
	double t0 = now_ms();
	Compiled c = compile("tracepoint:syscalls:sys_enter_* { @[probe] = count(); }");
	double dt = now_ms() - t0;
	if (c.sc)
		printf("test_codegen: tracepoint:syscalls:sys_enter_* (%d probes) compiles in %.2f ms\n",
		       c.sc->progs.n, dt);
	compiled_free(&c);
	sb_free(&sb);
}

int main(void)
{
	test_prologue();
	test_strcmp();
	test_count();
	test_count_no_uninit_stack();
	test_hist();
	test_minmax();
	test_map_assign();
	test_printf();
	test_exit();
	test_division();
	test_division_d();
	test_var_width_d();
	test_casts();
	test_tp_fields();
	test_builtins();
	test_control_flow();
	test_final_types();
	test_invariants();
	test_disasm_listing();
	test_speed();
	return check_done("test_codegen");
}
