/* Compiling with the test program's readers (syms_check.h) and checking
 * the type a script gives its first map: shared by the tests of 0.26's
 * language rules. */
#ifndef MAP_TYPE_CHECK_H
#define MAP_TYPE_CHECK_H
#include "compile_check.h"
#include "syms_check.h"

static inline Compiled compile_gen(const BtGeneration *g, const char *text)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .sym = &test_syms};
	return compile_as_opts(g, text, &o);
}

/* the type name of the first map's value once `text` compiles ("" if not) */
static inline void check_map_type(const BtGeneration *g, const char *text, const char *want)
{
	Compiled c = compile_gen(g, text);
	char buf[160] = "";
	if (c.sc && c.sc->maps.n)
		type_name(c.sc->maps.v[0]->val, buf, sizeof(buf));
	if (strcmp(buf, want)) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got: %s (%s)\n  want: %s\n", text, buf,
			c.err.set ? c.err.msg : "no error", want);
	} else {
		check_passed++;
	}
	compiled_free(&c);
}
#endif
