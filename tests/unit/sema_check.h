/* What the semantic analysis tests share: compiling a bpftrace 0.17 program
 * with the test readers and run flags (--unsafe, -c), finding a map by name
 * and naming a type.  Used by test_sema*.c. */
#pragma once
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "compile_check.h"
#include "compile/script.h"
#include "bt/generation_bt.h"
#include "compile/sema.h"
#include "sym/features.h"
#include "sym/ksyms.h"

#define TP_WRITE "tracepoint:syscalls:sys_enter_write"

/* ---- helpers ---- */

enum { UNSAFE = 1, CPID = 2 };

static char *params[] __attribute__((unused)) = {"1", "two"};

static inline Options make_opts(int flags)
{
	Options o = {.sym = &test_syms, .strlen_max = 64, .map_keys_max = 4096, .params = params, .nparams = 2,
		     .self_pid = 4242, .unsafe = flags & UNSAFE, .cpid = flags & CPID ? 77 : 0};
	frontend_use(&bt_generation_named("0.17")->fe, &o, NULL);
	return o;
}

static inline Compiled compile_flags(const char *text, int flags)
{
	Options o = make_opts(flags);
	return compile_with(text, &o);
}

static inline MapInfo *map_named(Script *sc, const char *name)
{
	for (int i = 0; sc && i < sc->maps.n; i++)
		if (!strcmp(sc->maps.v[i]->name, name))
			return sc->maps.v[i];
	return NULL;
}

static inline const char *tname(const Type *t)
{
	static char buf[8][128];
	static int i;
	i = (i + 1) % 8;
	return t ? type_name(t, buf[i], sizeof(buf[i])) : "(no type)";
}
