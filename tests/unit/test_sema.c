/* Semantic analysis tests: every class of error sonde reports, with the
 * exact message and line:col of the first error, and every error of a
 * program as bpftrace 0.17 lists them.  Valid programs and inferred types
 * are in test_sema_types.c.
 *
 * Compiling runs probe expansion, so tracepoint cases read format files from
 * tracefs (root in CI); BEGIN/END/interval/profile/software need nothing. */
#include "sema_check.h"

/* ---- invalid programs ---- */

typedef struct ErrCase {
	const char *prog;
	int line, col;
	const char *msg;
	int flags;
} ErrCase;


static const ErrCase err_cases[] = {
	/* syntax (parser) */
	{"BEGIN { @x = 1 + ; }", 1, 18, "syntax error, unexpected ;\nhint: expecting an expression"},
	{"BEGIN { printf(\"a\" }", 1, 15, "missing ')' to close '('"},
	{"BEGIN { @x = 1;", 1, 7, "missing '}' to close '{'"},
	{"BEGIN { @x = (nosuch)1; }", 1, 14, "cannot cast to 'nosuch': unknown type 'nosuch'"},
	{"BEGIN { @x = (nosuch *)1; }", 1, 14, "cannot cast to 'nosuch *': unknown type 'nosuch'"},
	{"BEGIN { @x = 99999999999999999999; }", 1, 14, "integer literal too large"},
	{"BEGIN {\n  @x = 1;\n  @y = $z;\n}", 3, 8, "Undefined or undeclared variable: $z"},

	/* attach points */
	{"foo:bar { }", 1, 1, "unknown probe type 'foo' in 'foo:bar' (try tracepoint:, rawtracepoint:, "
			      "profile:, interval:, software:, kprobe:, kretprobe:, uprobe:, uretprobe:, usdt:, "
			      "watchpoint:, asyncwatchpoint:, hardware:, kfunc:, kretfunc:, iter:, BEGIN or END)"},
	{"BEGIN { }\nnosuch:x { }", 2, 1, "unknown probe type 'nosuch' in 'nosuch:x' (try tracepoint:, "
			      "rawtracepoint:, profile:, interval:, software:, kprobe:, kretprobe:, uprobe:, uretprobe:, "
			      "usdt:, watchpoint:, asyncwatchpoint:, hardware:, kfunc:, kretfunc:, iter:, BEGIN or END)"},
	{"tracepoint:nosuchcat:nosuchtp { }", 1, 1, "tracepoint not found: nosuchcat:nosuchtp"},
	{"tracepoint:nosuch*:x { }", 1, 1, "no tracepoint matches 'tracepoint:nosuch*:x'"},
	{"tracepoint:sys_enter_write { }", 1, 1, "tracepoint probe type requires 2 arguments\n"
						 "hint: tracepoint:CATEGORY:NAME, got 'tracepoint:sys_enter_write'"},
	{"rawtracepoint:nosuch_zz* { }", 1, 1, "no tracepoint matches 'rawtracepoint:nosuch_zz*'"},
	{"interval:m:1 { }", 1, 1, "unknown time unit in 'interval:m:1' (use s, ms, us or hz)"},
	{"interval:s:0 { }", 1, 1, "interval probes are written interval:UNIT:N with UNIT one of s, ms, us, "
				   "hz and N a positive integer, got 'interval:s:0'"},
	{"interval:s:abc { }", 1, 1, "interval probes are written interval:UNIT:N with UNIT one of s, ms, "
				     "us, hz and N a positive integer, got 'interval:s:abc'"},
	{"profile:hz { }", 1, 1, "profile probes are written profile:UNIT:N with UNIT one of s, ms, us, hz "
				 "and N a positive integer, got 'profile:hz'"},
	{"interval { }", 1, 1, "'interval' needs more parts, e.g. interval:..."},
	{"BEGIN:foo { }", 1, 1, "BEGIN takes no arguments"},
	{"software:nosuch:10 { }", 1, 1, "unknown software event in 'software:nosuch:10' (see sonde -l "
					 "'software:*')"},
	{"software:cpu:xyz { }", 1, 1, "software event count must be a positive integer (or 1e6), got 'xyz'"},

	/* builtins */
	{"BEGIN { @x = nosuchbuiltin; }", 1, 14, "Unknown identifier: 'nosuchbuiltin'"},
	{"BEGIN { @x = arg10; }", 1, 14, "Unknown identifier: 'arg10'"},
	{TP_WRITE " { @x = arg0; }", 1, 44, "arg0 is not available in tracepoint probes (use "
					    "args->FIELD; sonde -lv lists them)"},
	{"BEGIN { @x = arg0; }", 1, 14, "arg0 is not available in BEGIN probes"},
	{"BEGIN { @x = args->fd; }", 1, 14, "args is only available in tracepoint and uprobe probes, not in BEGIN"},
	{"interval:s:1 { @x = args; }", 1, 21, "args is only available in tracepoint and uprobe probes, not in "
					       "interval"},
	{"BEGIN { @x = retval; }", 1, 14, "retval is only available in return probes"},
	{"END { printf(\"%d\\n\", retval); }", 1, 22, "retval is only available in return probes"},
	{"profile:hz:99 { @ = retval; }", 1, 21, "retval is only available in return probes"},
	{"rawtracepoint:sched_switch { @ = retval; }", 1, 34, "retval is only available in return probes"},
	{"BEGIN { @x = cpid; }", 1, 14, "cpid is only available when a command is run with -c"},
	{"BEGIN { @x = func; }", 1, 14, "func is only available in uprobes and kprobes"},

	/* functions: names, argument counts, contexts */
	{"BEGIN { nosuchfn(1); }", 1, 9, "Unknown function: nosuchfn"},
	{"BEGIN { exit(1); }", 1, 9, "exit() requires no arguments (1 provided)"},
	{"BEGIN { @x = count(1); }", 1, 14, "count() requires no arguments (1 provided)"},
	{"BEGIN { @x = str(); }", 1, 14, "str() requires at least one argument (0 provided)"},
	{"BEGIN { @x = str(1, 2, 3); }", 1, 14, "str() takes up to 2 arguments (3 provided)"},
	{"BEGIN { @x = lhist(1, 2); }", 1, 14, "lhist() requires 4 arguments (2 provided)"},
	{"BEGIN { @x = hist(); }", 1, 14, "hist() requires one argument (0 provided)"},
	{"BEGIN { @x = 1; print(@x, 1, 2, 3); }", 1, 17, "print() takes up to 3 arguments (4 provided)"},
	{"BEGIN { $x = printf(\"a\"); }", 1, 14, "printf() does not return a value"},
	{"BEGIN { @x = exit(); }", 1, 14, "exit() does not return a value"},
	{"BEGIN { count(); }", 1, 9, "count() should be directly assigned to a map\n"
	 "hint: @name = count(...)"},
	{"BEGIN { $x = count(); }", 1, 14, "count() should be directly assigned to a map\n"
	 "hint: @name = count(...)"},
	{"BEGIN { @x = 1 + hist(2); }", 1, 18, "hist() should be directly assigned to a map\n"
	 "hint: @name = hist(...)"},
	{"BEGIN { @x += count(); }", 1, 9, "count() cannot be used with a compound assignment"},
	{"BEGIN { @x = hist(\"a\"); }", 1, 14, "hist() only supports integer arguments (string provided)"},
	{"BEGIN { @x = sum(comm); }", 1, 14, "sum() only supports integer arguments (string provided)"},
	{"BEGIN { clear(@x[1]); }", 1, 9,
	 "The map passed to clear() should not be indexed by a key"},
	{"BEGIN { clear(1); }", 1, 9,
	 "clear() expects a map to be provided"},
	{"BEGIN { @x = 1; print(1, 2); }", 1, 17,
	 "Non-map print() only takes 1 argument, 2 found"},
	{"BEGIN { time(1); }", 1, 9,
	 "time() expects a string literal (integer provided)"},
	{"BEGIN { join(comm); }", 1, 14, "join() argument 1 must be an integer"},
	{"BEGIN { @x = sizeof(struct foo); }", 1, 14, "sizeof: unknown type 'struct foo': it is not defined in the "
					     "script nor in the kernel's BTF"},

	/* maps */
	{"BEGIN { @x = 1; @x = \"a\"; }", 1, 17, "Type mismatch for @x: trying to assign value of type 'string[2]' when map already contains a value of type 'int64"},
	{"BEGIN { @a = count(); @a = sum(1); }", 1, 23, "Type mismatch for @a: trying to assign value of type 'sum' when map already contains a value of type 'count"},
	{"BEGIN { @x = count(); @x = 1; }", 1, 23, "Type mismatch for @x: trying to assign value of type 'int64' when map already contains a value of type 'count"},
	{"BEGIN { @x = (1, \"a\"); @x = (1, 2); }", 1, 24,
	 "Type mismatch for @x: trying to assign value of type 'tuple (int64, int64)' when map already contains a value of type 'tuple (int64, string[2])"},
	{"BEGIN { @x[1] = 1; @x[\"a\"] = 1; }", 1, 20,
	 "Argument mismatch for @x: trying to access with arguments: [string[2]] when map expects arguments: [unsigned int64]"},
	{"BEGIN { @x[1] = 1; @x = 2; }", 1, 20,
	 "Argument mismatch for @x: trying to access with arguments: [] when map expects arguments: [unsigned int64]"},
	{"BEGIN { @x = 1; @x[1] = 2; }", 1, 17,
	 "Argument mismatch for @x: trying to access with arguments: [unsigned int64] when map expects arguments: []"},
	{"BEGIN { @x = 1 } END { @y = @x[1]; }", 1, 29,
	 "Argument mismatch for @x: trying to access with arguments: [unsigned int64] when map expects arguments: []"},
	{"BEGIN { @y = @z; }", 1, 14, "Undefined map: @z\nhint: it is read but never assigned a value"},
	{"BEGIN { print(@y); }", 1, 15, "Undefined map: @y\nhint: it is never assigned a value"},
	{"BEGIN { delete(@x[1]); }", 1, 16, "Undefined map: @x\nhint: it is never assigned a value"},
	{TP_WRITE " { @x[args] = 1; }", 1, 42, "a value of type args cannot be a map key"},
	{TP_WRITE " { @x = args; }", 1, 44, "a value of type args cannot be stored in a map"},
	{"BEGIN { @x = \"a\"; @x++; }", 1, 21, "The ++ operator can not be used on expressions of type 'string[2]'"},
	{"BEGIN { @x = count(); @x++; }", 1, 25, "The ++ operator can not be used on expressions of type 'count'"},
	{"BEGIN { @x = hist(1); @y = @x + 1; }", 1, 28,
	 "Type mismatch for '+': comparing 'hist' with 'int64'"},

	/* variables */
	{"BEGIN { @x = $y; }", 1, 14, "Undefined or undeclared variable: $y"},
	{"BEGIN { $x++; }", 1, 9, "Undefined or undeclared variable: $x"},
	{"BEGIN { $x = 1; $x = \"a\"; }", 1, 20, "Type mismatch for $x: trying to assign value of type "
						"'string[2]' when variable already contains a value of type 'int64'"},
	/* str() reads memory: bpftrace refuses a string */
	{"BEGIN { @x = str(comm); }", 1, 14, "str() expects an integer or a pointer type as first "
					   "argument (string[16] provided)"},
	{TP_WRITE " { $a = args; }", 1, 44, "a value of type args cannot be stored in a variable"},
	/* variables are per probe: $x of BEGIN does not exist in END */
	{"BEGIN { $x = 1; } END { @ = $x; }", 1, 29, "Undefined or undeclared variable: $x"},

	/* printf and friends */
	{"BEGIN { printf(\"%d %d\\n\", 1); }", 1, 9, "printf: Not enough arguments for format string "
						    "(1 supplied, 2 expected)"},
	{"BEGIN { printf(\"%d\\n\", 1, 2); }", 1, 9, "printf: Too many arguments for format string "
						    "(2 supplied, 1 expected)"},
	{"BEGIN { printf(\"%d\\n\", \"str\"); }", 1, 9, "printf: %d specifier expects a value of "
						    "type integer (string supplied)"},
	{"BEGIN { printf(\"%s\\n\", 1); }", 1, 9, "printf: %s specifier expects a value of "
					       "type string (integer supplied)"},
	{"BEGIN { $f = \"x\"; printf($f); }", 1, 19,
	 "printf() expects a string literal (string provided)"},
	{"BEGIN { system(\"ls\"); }", 1, 9,
	 "system() is an unsafe function being used in safe mode\nhint: --unsafe allows it"},

	/* control flow */
	{"BEGIN { unroll(0) { } }", 1, 16, "unroll minimum value is 1"},
	{"BEGIN { unroll(101) { } }", 1, 16, "unroll maximum value is 100"},
	{"BEGIN { $n = 2; unroll($n) { } }", 1, 24, "unroll needs a literal count from 1 to 100"},
	{"BEGIN { unroll($2) { } }", 1, 16, "$2 is 'two', not a number: use str($2) for a string"},
	{"BEGIN { unroll($3) { } }", 1, 16, "unroll minimum value is 1"},
	{"struct s { unsigned char b[5]; }\nBEGIN { $p = (struct s *)0; @a = ntop($p->b); }", 2, 34, "ntop() argument must be 4 or 16 bytes in size"},
	{"#define S \"text\"\nBEGIN { @ = S; }", 2, 13,
	 "'S' is a macro whose value is not a constant sonde can evaluate (only integer constant "
	 "expressions are)"},
	{"struct task_struct { int x; }\nBEGIN { @ = curtask->pid; }", 2, 13, "Struct/union of type 'struct task_struct' does not contain a field named 'pid'"},
	{"BEGIN { $x = buf(comm); }", 1, 14, "buf() expects a length argument for non-array type string"},
	{"BEGIN { $x = buf(1); }", 1, 14, "buf() expects a length argument for non-array type int64"},
	{"BEGIN { $x = buf(\"ab\", pid); }", 1, 24, "buf(): the length of a buffer of a string must be a literal"},
	{"struct s { int x[3]; long y[3]; }\nBEGIN { $p = (struct s *)0; $c = $p->x == $p->y; }", 2, 40,
	 "Only arrays of same sized integer support comparison operators."},
	{"BEGIN { $c = buf(\"a\", 1) < buf(\"b\", 1); }", 1, 26, "buffers can only be compared with == and !="},
	{"BEGIN { pid ? 1 : printf(\"n\"); }", 1, 9,
	 "Ternary operator must return the same type: have 'integer' and 'none'"},
	{"BEGIN { pid ? exit() : \"s\"; }", 1, 9,
	 "Ternary operator must return the same type: have 'none' and 'string'"},
	{"BEGIN { break; }", 1, 9, "break used outside of a loop"},
	{"BEGIN { continue; }", 1, 9, "continue used outside of a loop"},
	{"BEGIN { if (1) { break; } }", 1, 18, "break used outside of a loop"},
	{"BEGIN { @x = comm ? 1 : 2; }", 1, 14, "Invalid condition in ternary: string"},
	{"BEGIN { if (comm) { } }", 1, 1, "Invalid condition in if(): string"},
	{"BEGIN /comm/ { }", 1, 8, "Invalid type for predicate: string"},

	/* lhist / str / stacks / kaddr */
	{"BEGIN { @x = lhist(1, 0, 10, 0); }", 1, 14, "lhist() step must be >= 1 (0 provided)"},
	{"BEGIN { @x = lhist(1, 10, 10, 1); }", 1, 14, "lhist() step is too large for the given range "
						 "(provided step 1 for range 0)"},
	{"BEGIN { @x = lhist(1, 10, 5, 1); }", 1, 14, "lhist() min must be less than max (provided "
						"min 10 and max 5)"},
	{"BEGIN { @x = lhist(1, -10, 5, 1); }", 1, 14, "lhist() min must be non-negative (provided "
						 "min -10)"},
	{"BEGIN { @x = lhist(1, 0, 100000, 1); }", 1, 14, "lhist() too many buckets, must be <= 1000 "
							"(would need 100000)"},
	{"BEGIN { $y = 1; @x = lhist(1, $y, 10, 1); }", 1, 22, "lhist() expects a integer literal "
								"(integer provided)"},
	{"BEGIN { @x = str(1, -1); }", 1, 21, "str(): the length must not be negative"},
	{"BEGIN { @x = str(1, -3); }", 1, 21, "str(): the length must not be negative"},
	{"BEGIN { @x = kstack(0); }", 1, 14, "kstack(): the depth must be from 1 to 127"},
	{"BEGIN { @x = kstack(200); }", 1, 14, "kstack(): the depth must be from 1 to 127"},
	{"BEGIN { @x = kstack(fast, 3); }", 1, 21, "kstack(): unknown stack mode 'fast' (bpftrace or perf)"},
	{"BEGIN { @x = ustack(perf, 0); }", 1, 14, "ustack(): the depth must be from 1 to 127"},
	{"BEGIN { @x = ustack(128); }", 1, 14, "ustack(): the depth must be from 1 to 127"},
	{"BEGIN { @x = kaddr(\"no_such_symbol_xyz\"); }", 1, 20, "Failed to resolve kernel symbol: "
								 "no_such_symbol_xyz\nhint: /proc/kallsyms has no such symbol "
								 "(most data symbols appear there only with CONFIG_KALLSYMS_ALL)"},

	/* fields, tuples, casts, operators */
	{TP_WRITE " { @x = args->nosuch; }", 1, 50, "Struct/union of type "
						    "'struct _tracepoint_syscalls_sys_enter_write' does not contain "
						    "a field named 'nosuch'"},
	{"BEGIN { $t = (1, 2); @x = $t.2; }", 1, 30, "tuple index .2 is out of range (the tuple has 2 "
						     "elements)"},
	{"BEGIN { @x = comm.foo; }", 1, 19, "a value of type string[16] has no field 'foo'"},
	{"BEGIN { @x = comm[1]; }", 1, 18, "cannot index a value of type string[16]: [] works on arrays, "
					   "pointers and maps"},
	{"BEGIN { @x = (struct foo *)1; }", 1, 14, "Unknown struct/union: 'struct foo'\nhint: it is not "
						   "defined in the script nor in the kernel's BTF"},
	{"BEGIN { @x = (int8)comm; }", 1, 14, "Casts are not supported for type: \"string[16]\""},
	{"BEGIN { @x = \"a\" < \"b\"; }", 1, 18, "The < operator can not be used on expressions of types string[2], string[2]"},
	{"BEGIN { @x = 1 + \"a\"; }", 1, 14, "Type mismatch for '+': comparing 'int64' with 'string[2]'"},
	{"BEGIN { @x = ksym(1) + 1; }", 1, 14, "Type mismatch for '+': comparing 'ksym' with 'int64'"},
	{"BEGIN { @x = 1 ? 1 : \"a\"; }", 1, 14, "Ternary operator must return the same type: have 'integer' and 'string'"},
	{"BEGIN { @x = -comm; }", 1, 14, "The - operator can not be used on expressions of type 'string[16]'"},
	{"BEGIN { @x = *comm; }", 1, 14, "The dereference operator can not be used on expressions of type 'string[16]'"},
	{"BEGIN { @x = &comm; }", 1, 14, "the address-of operator '&' is not supported"},
	{"BEGIN { @x = $2; }", 1, 14, "$2 is 'two', not a number: use str($2) for a string"},
	/* C types (the kernel's BTF) */
	{"BEGIN { @x = curtask->pidd; }", 1, 14, "Struct/union of type 'struct task_struct' does not "
						 "contain a field named 'pidd'\nhint: did you mean 'pid', 'prio', 'dl'?"},
	{"BEGIN { @x = curtask.pid; }", 1, 14, "Can not access field 'pid' on type 'struct task_struct *'. Try "
					       "dereferencing it first, or using '->'"},
	{"BEGIN { $a = 1; @x = $a[0]; }", 1, 24, "cannot index a value of type int64: [] works on "
						 "arrays, pointers and maps"},
	{"struct s { char b[600]; }\nBEGIN { @[*(struct s *)0] = 1; }", 2, 11,
	 "struct s is 600 bytes: too large for a map key (512 at most); use one of its fields"},
	{"struct big { char a[300000]; };\nBEGIN { print(*(struct big *)0); }", 2, 9,
	 "print(): 300000 bytes of arguments are too large for one event (the limit is 262136)"},
	{"struct s { int a; }\nBEGIN { @x = ((struct s *)0)->b; }", 2, 15,
	 "Struct/union of type 'struct s' does not contain a field named 'b'\nhint: did you mean 'a'?"},
	/* offsetof, kptr/uptr */
	{"struct s { int a; struct { int bb; } in; }\nBEGIN { @x = offsetof(struct s, in.b); }", 2, 14,
	 "'in' (struct {...}) has no field 'b'\nhint: did you mean 'bb'?"},
	{"struct s { int aa; }\nBEGIN { @x = offsetof(struct s, ab); }", 2, 14,
	 "struct s has no field 'ab'\nhint: did you mean 'aa'?"},
	{"struct s { int a; }\nBEGIN { @x = offsetof(struct s, a.b); }", 2, 14,
	 "offsetof: 'a.b' is not a struct or union member, cannot reach 'b' in it"},
	{"BEGIN { @x = offsetof(struct nosuch_zz, a); }", 1, 14,
	 "offsetof: unknown type 'struct nosuch_zz': it is not defined in the script nor in the "
	 "kernel's BTF"},
	{"BEGIN { @x = offsetof(uint32, a); }", 1, 14, "offsetof needs a struct or union, not uint32"},
	{"BEGIN { @x = offsetof(struct s a); }", 1, 32,
	 "syntax error, unexpected identifier\nhint: expecting ',' and a field name in offsetof"},
	{"BEGIN { @x = kptr(\"a\"); }", 1, 14, "kptr() only supports integer or pointer arguments (string provided)"},
	{"BEGIN { @x = *uptr(1); }", 1, 14, "cannot dereference void *: cast it to a pointer to a "
	 "type first"},
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const ErrCase *c = &err_cases[i];
		Options o = make_opts(c->flags);
		expect_error(c->prog, &o, c->line, c->col, c->msg);
	}
}

/* Every error of a program, as bpftrace 0.17 lists them: its first pass's
 * errors all, its final pass's only when the first found none, and an
 * unknown function alone (found before either); no error that only
 * follows from another. */
typedef struct ErrList {
	const char *prog;
	const char *want; /* "L:C: msg" lines */
} ErrList;

static const ErrList err_lists[] = {
	{"BEGIN { @x = $a + $b; printf(\"%d %d\\n\", $c, $d); }",
	 "1:14: Undefined or undeclared variable: $a\n1:19: Undefined or undeclared variable: $b\n"
	 "1:41: Undefined or undeclared variable: $c\n1:45: Undefined or undeclared variable: $d\n"},
	/* $a has no error of its own; @m keeps int64 */
	{"BEGIN { $a = $b + 1; @c = $a; @m = 1; @m = \"s\"; @m = \"t\"; }",
	 "1:14: Undefined or undeclared variable: $b\n"
	 "1:39: Type mismatch for @m: trying to assign value of type 'string[2]' when map already "
	 "contains a value of type 'int64\n"
	 "1:49: Type mismatch for @m: trying to assign value of type 'string[2]' when map already "
	 "contains a value of type 'int64\n"},
	/* the final pass's errors (1 + "a", @k's keys) wait for the first's */
	{"BEGIN /$x/ { printf(\"%s\\n\", 1 + \"a\"); @k[1] = 1; @k[\"a\"] = 2; }\n"
	 "END { @q = count(); @q = 1; @r = @nope; }",
	 "1:8: Undefined or undeclared variable: $x\n"
	 "2:21: Type mismatch for @q: trying to assign value of type 'int64' when map already "
	 "contains a value of type 'count\n"},
	{"BEGIN { @l = lhist(1, 10, 0, 1); print(@nope); }",
	 "1:14: lhist() min must be less than max (provided min 10 and max 0)\n"
	 "1:14: lhist() step is too large for the given range (provided step 1 for range -10)\n"
	 "1:40: Undefined map: @nope\nhint: it is never assigned a value\n"},
	{"BEGIN { printf(\"%d\\n\", $x); nosuch(1); other(2); }", "1:29: Unknown function: nosuch\n"},
	/* a value with an error gives no type: no error for its later reads */
	{"BEGIN { @m = $b; @n = @m + 1; $v = str(comm); $v = 1; }",
	 "1:14: Undefined or undeclared variable: $b\n"
	 "1:36: str() expects an integer or a pointer type as first argument (string[16] provided)\n"
	 "1:50: Type mismatch for $v: trying to assign value of type 'int64' when variable already "
	 "contains a value of type 'string[64]'\n"},
	/* a second BEGIN is found after the semantic pass */
	{"BEGIN { @x = $a; } BEGIN { break; }",
	 "1:14: Undefined or undeclared variable: $a\n1:28: break used outside of a loop\n"},
};

static void test_error_lists(void)
{
	for (size_t i = 0; i < sizeof(err_lists) / sizeof(err_lists[0]); i++) {
		const ErrList *c = &err_lists[i];
		Compiled r = compile_flags(c->prog, 0);
		char got[4096] = "";
		for (const Error *e = r.err.set ? &r.err : NULL; e; e = e->next)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%d:%d: %s\n",
				 e->loc.line, e->loc.col, e->msg);
		if (r.sc || strcmp(got, c->want)) {
			check_failed++;
			fprintf(stderr, "FAIL: %s\n  got:\n%s  want:\n%s", c->prog, got, c->want);
		} else {
			check_passed++;
		}
		compiled_free(&r);
	}
}

/* Errors whose text depends on this machine. */
static void test_machine_errors(void)
{
	/* kprobes: an explanation on kernels without CONFIG_KPROBES */
	static const char *const kp[] = {"kprobe:do_sys_open { }", "kretprobe:do_sys_open { }"};
	for (int i = 0; i < 2; i++) {
		Compiled r = compile_flags(kp[i], 0);
		if (!kernel_has_kprobes()) {
			CHECK(!r.sc && r.err.set);
			CHECK(strstr(r.err.msg, "CONFIG_KPROBES") != NULL);
			CHECK(strstr(r.err.msg, i ? "kretprobe:do_sys_open: " : "kprobe:do_sys_open: ") ==
			      r.err.msg);
			CHECK(r.err.loc.line == 1 && r.err.loc.col == 1);
		} else {
			CHECK(r.sc != NULL);
		}
		compiled_free(&r);
	}
	/* with kprobes, retval belongs to kretprobe only */
	if (kernel_has_kprobes()) {
		Options o = make_opts(0);
		expect_error("kprobe:do_sys_open { @ = retval; }", &o, 0, 0,
			     "retval is only available in return probes");
	}
	/* the "with -c" and "--unsafe" variants compile */
	Compiled r = compile_flags("BEGIN { @ = cpid; }", CPID);
	CHECK(r.sc != NULL);
	compiled_free(&r);
	r = compile_flags("BEGIN { system(\"echo %d\", 1); }", UNSAFE);
	CHECK(r.sc != NULL);
	compiled_free(&r);
	/* kaddr of a symbol that exists */
	if (ksym_addr(&test_syms, "_stext")) {
		r = compile_flags("BEGIN { @k = kaddr(\"_stext\"); }", 0);
		CHECK(r.sc != NULL);
		compiled_free(&r);
	}
}

/* Errors codegen reports (after sema accepted the program). */
static void test_codegen_errors(void)
{
	StrBuf sb = {0};
	sb_puts(&sb, "BEGIN { @x = ");
	for (int i = 0; i < 70; i++)
		sb_puts(&sb, "1+(");
	sb_puts(&sb, "1");
	for (int i = 0; i < 70; i++)
		sb_puts(&sb, ")");
	sb_puts(&sb, "; }");
	Compiled r = compile_flags(sb.s, 0);
	CHECK(!r.sc && r.err.set);
	CHECK_STR(r.err.msg, "expression too deeply nested for the 512-byte BPF stack");
	CHECK(r.err.loc.line == 1);
	compiled_free(&r);
	sb_free(&sb);

	r = compile_flags("BEGIN { if (pid) { unroll(100) { unroll(100) { @a[comm, pid] = hist(pid); } } } }",
			  0);
	CHECK(!r.sc && r.err.set);
	CHECK_STR(r.err.msg, "program too large: a jump is out of range (BEGIN)");
	/* it should point at the probe (it has no location at all) */
	if (r.err.loc.line != 1) {
		check_failed++;
		fprintf(stderr, "FAIL: 'program too large' has no location (%d:%d)\n", r.err.loc.line,
			r.err.loc.col);
	} else {
		check_passed++;
	}
	compiled_free(&r);
}

/* Messages that name two types of the same kind must tell them apart. */
static void test_message_quality(void)
{
	Compiled r = compile_flags("BEGIN { @a = lhist(1,0,10,1); @a = lhist(1,0,20,1); }", 0);
	CHECK(!r.sc && r.err.set);
	/* "map @a holds lhist() here but lhist() elsewhere" says nothing */
	if (r.err.set && strstr(r.err.msg, "lhist() here but lhist() elsewhere")) {
		check_failed++;
		fprintf(stderr, "FAIL: confusing message: %s\n", r.err.msg);
	} else {
		check_passed++;
	}
	compiled_free(&r);
}

int main(void)
{
	test_errors();
	test_error_lists();
	test_machine_errors();
	test_codegen_errors();
	test_message_quality();
	return check_done("test_sema");
}
