/* Code generation tests: compile small programs (no kernel loading) and
 * assert on the BPF instructions, relocations and the -d bpf listing: the
 * prologue and self filtering, string compares, final map types, the
 * invariants over many programs, and compile speed.  Maps and events are in
 * test_codegen_maps.c, expressions in test_codegen_expr.c. */
#include <time.h>

#include "codegen_check.h"

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
	test_final_types();
	test_invariants();
	test_disasm_listing();
	test_speed();
	return check_done("test_codegen");
}
