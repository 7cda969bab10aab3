/* Code generation of expressions: arithmetic, casts (bpftrace's and D's
 * widths), tracepoint fields, built-in variables and control flow,
 * compiled without the kernel and asserted on the instructions. */
#include "codegen_check.h"
#include "dtrace/runtime_d.h"

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

int main(void)
{
	test_division();
	test_division_d();
	test_var_width_d();
	test_casts();
	test_tp_fields();
	test_builtins();
	test_control_flow();
	return check_done("test_codegen_expr");
}
