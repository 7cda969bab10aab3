/* Semantic analysis of valid programs: a table of programs that must
 * compile, C type extras, and the types sema infers for maps (basic,
 * widened, across probes, aggregations).  Tracepoint cases read format
 * files from tracefs (root in CI). */
#include "sema_check.h"

/* ---- valid programs ---- */

static const struct {
	const char *prog;
	int flags;
} valid[] = {
	{"BEGIN { printf(\"hello\\n\"); exit(); }"},
	{"END { print(1); }"},
	{"BEGIN { @a[comm, 1] = count(); @b = \"x\"; @c = (1, \"ab\"); }"},
	{"BEGIN { @s = \"a\"; @s = \"abc\"; }"},
	{"interval:s:1 { @y = @x; } BEGIN { @x = 5; }"},
	{TP_WRITE " /pid != 0/ { @[comm] = count(); @bytes = sum(args->count); }"},
	{TP_WRITE " { @h = hist(args->count); @l = lhist(args->count, 0, 100, 10); }"},
	{TP_WRITE " { @mn = min(args->count); @mx = max(args->count); @av = avg(args->count); "
		  "@st = stats(args->count); }"},
	{"tracepoint:sched:sched_switch { @[args->prev_comm] = count(); }"},
	{"tracepoint:sched:sched_process_exec { printf(\"%s %d\\n\", str(args->filename), args->pid); }"},
	{"tracepoint:syscalls:sys_enter_* { @[probe] = count(); }"},
	{"t:syscalls:sys_enter_openat { printf(\"%s\\n\", str(args->filename)); }"},
	{"tracepoint:syscalls:sys_exit_read { @ = hist(args->ret); }"},
	{"rawtracepoint:sched_switch { @[arg0] = count(); }"},
	{"rt:sched_switch { @[arg1, arg2] = count(); }"},
	{"profile:hz:99 { @[kstack] = count(); }"},
	{"profile:hz:99 { @[ustack(5), kstack(3)] = count(); @a = arg0; }"},
	{"profile:hz:99 { @[ustack(perf), kstack(perf, 3), kstack(bpftrace, 2)] = count(); }"},
	{"#!/usr/bin/env sonde\nprofile:hz:99 { @[kstack(bpftrace)] = count(); }"},
	{"interval:ms:100 { @i++; if (@i > 10) { exit(); } }"},
	{"software:cpu:1000 { @ = count(); }"},
	{"software:page-faults { @ = count(); }"},
	{"BEGIN { $i = 0; while ($i < 10) { $i++; if ($i == 5) { continue; } if ($i == 8) { break; } } }"},
	{"BEGIN { unroll(3) { @c++; } }"},
	{"BEGIN { $x = (int8)300; $y = (uint16)-1; $z = -7 / 2; $w = 7 % 3; @r = $x + $y + $z + $w; }"},
	{"BEGIN { $t = (1, \"a\", (2, 3)); printf(\"%d %s\\n\", $t.0, $t.1); @t = $t.2; }"},
	{"BEGIN { @x = 1 ? \"ab\" : \"abcd\"; }"},
	{"BEGIN { $s = comm; if ($s == \"bash\" || comm != \"zsh\") { printf(\"%s\\n\", $s); } }"},
	{"BEGIN { @a = 1; delete(@a); @b[1] = 2; delete(@b[1]); clear(@b); zero(@b); }"},
	{"BEGIN { time(); time(\"%H\\n\"); }"},
	{"BEGIN { @ = nsecs; @e = elapsed; @c = cpu; @u = uid; @g = gid; @t = tid; @cg = cgroup; "
	 "@ct = curtask; @r = rand; }"},
	{"BEGIN { printf(\"%s\\n\", ksym(1)); }"},
	{"BEGIN { printf(\"%s\\n\", ntop(0x0100007f)); printf(\"%s\\n\", ntop(2, 0x0100007f)); }"},
	{"BEGIN { printf(\"%s\\n\", strftime(\"%H:%M\", nsecs)); }"},
	{"BEGIN { @x = $1 + $#; @s = str($2); @m = $3; }"},
	{"BEGIN { @x = sizeof(uint32) + sizeof(comm); }"},
	{"BEGIN { @x = 1 << 3 >> 1 & 0xff | 2 ^ 1; @y = ~5; @z = !0; @n = -@x; }"},
	{"BEGIN { @a = 1; @a += 2; @a -= 1; @a *= 3; @a /= 2; @a %= 5; @a <<= 1; @a >>= 1; @a &= 7; "
	 "@a |= 8; @a ^= 1; }"},
	{"BEGIN { $x = 1; $x += 2; $x <<= 3; @ = $x; }"},
	{"BEGIN { cat(\"/etc/%s\", \"hostname\"); }"},
	{"BEGIN { print(@m); @m[1] = 1; print(@m, 2, 1); }"},
	{"BEGIN { if (1) { @a = 1; } else if (2) { @a = 2; } else { @a = 3; } }"},
	{"BEGIN { unroll($1) { @a++; } }"},
	{"struct s { unsigned char b[4]; unsigned char c[16]; }\n"
	 "BEGIN { $p = (struct s *)0; @a = ntop($p->b); @b = ntop($p->c); @c = ntop(10, $p->c); }"},
	{"struct task_struct { int x; }\nBEGIN { @ = curtask->x; }"},
	{"struct s { unsigned char u[4]; int x[3]; }\nBEGIN { $p = (struct s *)0; $b = buf(\"ab\", 2); "
	 "@k[$b] = buf($p->u); @e = $b == buf(\"ab\", 2); @f = $p->x != $p->x; @g = buf($p->x, 2); }"},
	{"BEGIN { @[strftime(\"%H\", nsecs), 1] = 1; $t = strftime(\"%M\", 0); @m[$t] = 2; }"},
	{"BEGIN { pid ? printf(\"a\") : pid > 1 ? exit() : print(1); }"},
	{"BEGIN { { @x = 1; } return; }"},
	{"BEGIN { @m[1, \"a\"] = 1; @m[2, \"bc\"] = 2; }"},
	{"BEGIN { @x = 0xffffffffffffffff; @y = 5000000000; }"},
	{"BEGIN, END { @[probe] = count(); }"},
	{"BEGIN { @x = (1, (2, \"a\")); @x = (1, (2, \"abc\")); }"},
	{"BEGIN { $x = kstack; printf(\"%s\\n\", $x); }"},
	{"BEGIN { @ = count(); print(@, 1, 2); @a = avg(1); print(@a); }"},
	{"BEGIN { @ = cpid; }", CPID},
	{"BEGIN { system(\"echo %d\", 1); }", UNSAFE},
	{"#include <linux/sched.h>\nBEGIN { @ = 1; }"},
	{"// comment\nBEGIN /* c */ { @x[1] = 1; @x[2]++; }"},
	/* maps read before the probe that assigns them */
	{"BEGIN { @c = @b; @b = @a; } END { @a = 1; }"},
};

/* offsetof folds to a constant; casts to typedef names; kptr/uptr set the
 * address space of a pointer. */
static void test_ctype_extras(void)
{
	Compiled r = compile_flags("struct in { char c; long y; };\n"
				   "struct s { int a; struct in in; char b[3]; };\n"
				   "typedef struct s s_t;\ntypedef unsigned short u16_t;\n"
				   "BEGIN { @o1 = offsetof(struct s, in.y); @o2 = offsetof(s_t, b);\n"
				   "  $p = (s_t *)0; @o3 = offsetof(*$p, in);\n"
				   "  @c = (u16_t)70000; @d = (u16_t)(1 + 2); $x = 3; @e = ($x) - 1;\n"
				   "  @k = kptr($p); @u = uptr(5); @v = uptr($p)->a; @w = kptr(uptr($p))->a;\n"
				   "  @z = sizeof(s_t *); }", 0);
	CHECK(r.sc != NULL);
	if (!r.sc) {
		fprintf(stderr, "FAIL: %d:%d: %s\n", r.err.loc.line, r.err.loc.col, r.err.msg);
		return;
	}
	const StmtList *b = &r.prog->probes[0]->body;
	CHECK(b->v[0]->expr->ival == 16);
	CHECK(b->v[1]->expr->ival == 24);
	CHECK(b->v[3]->expr->ival == 8);
	CHECK(b->v[4]->expr->kind == E_CAST && b->v[4]->expr->type->bits == 16);
	CHECK(b->v[5]->expr->kind == E_CAST && b->v[5]->expr->a->kind == E_BINOP);
	CHECK(b->v[7]->expr->kind == E_BINOP && b->v[7]->expr->op == OP_SUB);
	const Type *k = b->v[8]->expr->type, *u = b->v[9]->expr->type;
	CHECK(type_is_ptr(k) && !k->user && k->pointee->kind == TY_RECORD);
	CHECK(type_is_ptr(u) && u->user && u->pointee->kind == TY_NONE);
	CHECK(b->v[10]->expr->a->type->user && !b->v[11]->expr->a->type->user);
	CHECK(b->v[12]->expr->ival == 8);
	compiled_free(&r);
}

static void test_valid(void)
{
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		Compiled r = compile_flags(valid[i].prog, valid[i].flags);
		if (!r.sc) {
			check_failed++;
			fprintf(stderr, "FAIL: does not compile: %s\n  %d:%d: %s\n", valid[i].prog,
				r.err.loc.line, r.err.loc.col, r.err.msg);
		} else {
			check_passed++;
			CHECK(r.sc->progs.n >= 1);
		}
		compiled_free(&r);
	}
}

/* ---- inferred types ---- */

/* sizeof of a tuple: bpftrace's layout (elements at their own widths,
 * natural alignment), through variables and maps too */
static void test_tuple_sizeof(void)
{
	static const struct { const char *e; uint64_t size; } cases[] = {
		{"((int8)1, (int16)1, (int32)1)", 8}, {"(1, \"abc\")", 16}, {"(\"a\", \"b\")", 4},
		{"((int8)1, \"abc\")", 5}, {"((int8)1, ((int16)2, (int8)3))", 6},
		{"(\"abc\", (int32)1, (int8)2)", 12}, {"(comm, pid)", 24}, {"$t", 4}, {"@t", 4},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[200];
		snprintf(text, sizeof(text), "BEGIN { $t = ((int8)1, (int16)2); @t = ((int8)1, \"ab\"); "
			 "@s = sizeof(%s); }", cases[i].e);
		Compiled r = compile_flags(text, 0);
		CHECK(r.sc != NULL);
		if (r.sc) {
			const Expr *sz = r.prog->probes[0]->body.v[2]->expr;
			CHECK(sz->kind == E_SIZEOF && sz->ival == cases[i].size);
			if (sz->ival != cases[i].size)
				fprintf(stderr, "  sizeof(%s) = %llu\n", cases[i].e,
					(unsigned long long)sz->ival);
		}
		compiled_free(&r);
	}
}

static void test_types_basic(void)
{
	Compiled r = compile_flags("BEGIN { @a[comm, 1] = count(); @b = \"x\"; @c = (1, \"ab\"); }", 0);
	CHECK(r.sc != NULL);
	if (!r.sc)
		return;
	MapInfo *a = map_named(r.sc, "a"), *b = map_named(r.sc, "b"), *c = map_named(r.sc, "c");
	CHECK(a && b && c);
	if (!a || !b || !c)
		goto out;
	CHECK_STR(a->print_name, "@a");
	/* @a: key (string[16], int64), per-CPU count */
	CHECK(a->key && a->key->kind == TY_TUPLE && a->key->nelem == 2);
	if (a->key && a->key->kind == TY_TUPLE && a->key->nelem == 2) {
		CHECK(a->key->elem[0]->kind == TY_STR && a->key->elem[0]->size == 16);
		CHECK(a->key->elem[1]->kind == TY_INT && a->key->elem[1]->bits == 64);
		CHECK(a->key->offset[0] == 0 && a->key->offset[1] == 16);
		CHECK(a->key->size == 24);
	}
	CHECK(a->val && a->val->kind == TY_COUNT && a->val->size == 8);
	CHECK(a->percpu);
	/* @b: no key, string[2] */
	CHECK(b->key == NULL);
	CHECK(b->val && b->val->kind == TY_STR && b->val->size == 2);
	CHECK(!b->percpu);
	/* @c: tuple (int64, string[3]), elements 8-aligned */
	CHECK(c->val && c->val->kind == TY_TUPLE && c->val->nelem == 2);
	if (c->val && c->val->kind == TY_TUPLE && c->val->nelem == 2) {
		CHECK(c->val->elem[0]->kind == TY_INT && c->val->elem[0]->is_signed);
		CHECK(c->val->elem[1]->kind == TY_STR && c->val->elem[1]->size == 3);
		CHECK(c->val->offset[0] == 0 && c->val->offset[1] == 8);
		CHECK(c->val->size == 16);
	}
	CHECK_STR(tname(c->val), "tuple (int64, string[3])");
out:
	compiled_free(&r);
}

static void test_types_widen(void)
{
	/* strings widen to the largest assignment */
	Compiled r = compile_flags("BEGIN { @s = \"a\"; @s = \"abc\"; }", 0);
	MapInfo *s = map_named(r.sc, "s");
	CHECK(s && s->val && s->val->kind == TY_STR && s->val->size == 4);
	compiled_free(&r);

	/* keys widen too */
	r = compile_flags("BEGIN { @k[\"a\"] = 1; } END { @k[\"abcdef\"] = 2; }", 0);
	MapInfo *k = map_named(r.sc, "k");
	CHECK(k && k->key && k->key->kind == TY_STR && k->key->size == 7);
	compiled_free(&r);

	/* tuple elements widen, re-laying the tuple */
	r = compile_flags("BEGIN { @t = (\"x\", 1); @t = (\"0123456789\", 2); }", 0);
	MapInfo *t = map_named(r.sc, "t");
	CHECK(t && t->val && t->val->kind == TY_TUPLE);
	if (t && t->val && t->val->kind == TY_TUPLE) {
		CHECK(t->val->elem[0]->size == 11);
		CHECK(t->val->offset[1] == 16);
		CHECK(t->val->size == 24);
	}
	compiled_free(&r);

	/* ternary of two strings takes the larger */
	r = compile_flags("BEGIN { @x = 1 ? \"ab\" : \"abcd\"; }", 0);
	MapInfo *x = map_named(r.sc, "x");
	CHECK(x && x->val && x->val->kind == TY_STR && x->val->size == 5);
	compiled_free(&r);

	/* integers are stored as 64 bits, keeping their sign */
	r = compile_flags("BEGIN { @i = (int8)1; @u = (uint16)1; @p = pid; }", 0);
	MapInfo *i = map_named(r.sc, "i"), *u = map_named(r.sc, "u"), *p = map_named(r.sc, "p");
	CHECK(i && i->val && i->val->kind == TY_INT && i->val->bits == 64 && i->val->is_signed);
	CHECK(u && u->val && u->val->kind == TY_INT && u->val->bits == 64 && !u->val->is_signed);
	CHECK(p && p->val && p->val->kind == TY_INT && !p->val->is_signed);
	compiled_free(&r);
}

static void test_types_cross_probe(void)
{
	/* a map read in a probe before the one that assigns it gets its type */
	Compiled r = compile_flags("interval:s:1 { @y = @x; } BEGIN { @x = 5; }", 0);
	CHECK(r.sc != NULL);
	MapInfo *y = map_named(r.sc, "y"), *x = map_named(r.sc, "x");
	CHECK(x && x->val && x->val->kind == TY_INT);
	CHECK(y && y->val && y->val->kind == TY_INT);
	compiled_free(&r);

	r = compile_flags("interval:s:1 { printf(\"%s\\n\", @name[1]); } BEGIN { @name[1] = comm; }", 0);
	CHECK(r.sc != NULL);
	MapInfo *n = map_named(r.sc, "name");
	CHECK(n && n->val && n->val->kind == TY_STR && n->val->size == 16);
	CHECK(n && n->key && n->key->kind == TY_INT);
	compiled_free(&r);

	/* a chain of maps each read before it is assigned: every map is
	 * assigned, so this must compile (sema has to iterate until the
	 * types settle, not a fixed number of passes) */
	r = compile_flags("BEGIN { @d = @c; @c = @b; @b = @a; } END { @a = 1; }", 0);
	if (!r.sc)
		fprintf(stderr, "  chain of 4 maps: %d:%d: %s\n", r.err.loc.line, r.err.loc.col,
			r.err.msg);
	CHECK(r.sc != NULL);
	MapInfo *d = map_named(r.sc, "d");
	CHECK(d && d->val && d->val->kind == TY_INT);
	compiled_free(&r);
}

static void test_types_aggs(void)
{
	Compiled r = compile_flags(TP_WRITE " { @c = count(); @s = sum(args->count); "
					    "@mn = min(-1); @mx = max(args->count); @av = avg(1); "
					    "@st = stats(1); @h = hist(args->count); "
					    "@l = lhist(args->count, 0, 100, 10); }",
				   0);
	CHECK(r.sc != NULL);
	if (!r.sc)
		return;
	static const struct {
		const char *name;
		TypeKind kind;
		int size;
	} want[] = {
		{"c", TY_COUNT, 8}, {"s", TY_SUM, 8},   {"mn", TY_MIN, 16},
		{"mx", TY_MAX, 16}, {"av", TY_AVG, 16}, {"st", TY_STATS, 16},
		{"h", TY_HIST, HIST_BUCKETS * 8},       {"l", TY_LHIST, 12 * 8},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		MapInfo *m = map_named(r.sc, want[i].name);
		CHECK(m && m->val && m->val->kind == want[i].kind && m->val->size == want[i].size);
		CHECK(m && m->percpu && !m->key);
	}
	MapInfo *s = map_named(r.sc, "s"), *mn = map_named(r.sc, "mn"), *l = map_named(r.sc, "l");
	CHECK(s && s->val && !s->val->is_signed);  /* size_t */
	CHECK(mn && mn->val && mn->val->is_signed);
	CHECK(l && l->val && l->val->lh_min == 0 && l->val->lh_max == 100 && l->val->lh_step == 10);
	CHECK(l && l->val && lhist_buckets(l->val) == 12);
	compiled_free(&r);

	/* `probe` is as wide as the longest probe name, rounded to 8 */
	r = compile_flags("BEGIN, interval:ms:1500 { @[probe] = count(); }", 0);
	MapInfo *m = map_named(r.sc, "");
	/* "interval:ms:1500" is 16 bytes + NUL = 17 -> 24 */
	CHECK(m && m->key && m->key->kind == TY_STR && m->key->size == 24);
	CHECK(r.sc && r.sc->progs.n == 2 && r.sc->nattach == 2);
	compiled_free(&r);

	/* tracepoint field types */
	r = compile_flags("tracepoint:sched:sched_switch { @c[args->prev_comm] = args->prev_pid; "
			  "@f = args->prev_state; }",
			  0);
	MapInfo *c = map_named(r.sc, "c"), *f = map_named(r.sc, "f");
	CHECK(c && c->key && c->key->kind == TY_STR && c->key->size == 16);
	CHECK(c && c->val && c->val->kind == TY_INT && c->val->is_signed);
	CHECK(f && f->val && f->val->kind == TY_INT && f->val->is_signed);
	compiled_free(&r);

	/* __data_loc strings are strlen_max long */
	r = compile_flags("tracepoint:sched:sched_process_exec { @[args->filename] = count(); }", 0);
	m = map_named(r.sc, "");
	CHECK(m && m->key && m->key->kind == TY_STR && m->key->size == 64);
	compiled_free(&r);

	/* str(x, n) is n + 1 bytes (room for the NUL), capped at strlen_max */
	r = compile_flags("BEGIN { @a = str(1, 4); @b = str(1, 1000); @c = str(curtask, 4); }", 0);
	MapInfo *sa = map_named(r.sc, "a"), *sb = map_named(r.sc, "b"), *sc = map_named(r.sc, "c");
	CHECK(sa && sa->val && sa->val->kind == TY_STR && sa->val->size == 5);
	CHECK(sb && sb->val && sb->val->size == 64);
	CHECK(sc && sc->val && sc->val->size == 5);
	compiled_free(&r);

	/* other value kinds */
	r = compile_flags("BEGIN { @k = kstack(3); @u = ustack; @i = ntop(1); @y = ksym(1); "
			  "@t = strftime(\"%H\", nsecs); }",
			  0);
	MapInfo *k = map_named(r.sc, "k"), *u = map_named(r.sc, "u"), *i = map_named(r.sc, "i"),
		*y = map_named(r.sc, "y"), *t = map_named(r.sc, "t");
	CHECK(k && k->val && k->val->kind == TY_KSTACK && k->val->size == 8 &&
	      k->val->stack_depth == 3);
	CHECK(u && u->val && u->val->kind == TY_USTACK && u->val->size == 16);
	CHECK(i && i->val && i->val->kind == TY_INET && i->val->size == 24);
	CHECK(y && y->val && y->val->kind == TY_KSYM && y->val->size == 8);
	CHECK(t && t->val && t->val->kind == TY_TIMESTAMP && t->val->fmt &&
	      !strcmp(t->val->fmt, "%H"));
	CHECK(r.sc && r.sc->uses_kstack && r.sc->uses_ustack);
	compiled_free(&r);
}

int main(void)
{
	test_ctype_extras();
	test_valid();
	test_tuple_sizeof();
	test_types_basic();
	test_types_widen();
	test_types_cross_probe();
	test_types_aggs();
	return check_done("test_sema_types");
}
