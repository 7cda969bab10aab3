/* Code generation of maps, aggregations and events (printf, exit):
 * compiled without the kernel, asserted on the instructions, relocations
 * and event descriptors. */
#include "codegen_check.h"

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

int main(void)
{
	test_count();
	test_count_no_uninit_stack();
	test_hist();
	test_minmax();
	test_map_assign();
	test_printf();
	test_exit();
	return check_done("test_codegen_maps");
}
