/* Where a literal is wanted, a positional parameter that is a number is
 * that literal, in both generations as in bpftrace (lhist's bounds, buf's
 * length, ustack's depth, strncmp's length: sema_posparam_fold); 0.26's
 * `$1` as a whole attach point, its strlen(), `username == username` (the
 * uids compared, 0.17 too).  On the real kernel:
 * tests/runtime/test_bt26_literals.sh. */
#include <stdlib.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"

static const BtGeneration *g026, *g017;

static Compiled compile_params(const BtGeneration *g, const char *text, char **params, int n)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .params = params,
		     .nparams = n};
	return compile_as_opts(g, text, &o);
}

static const Type *map_val(const Compiled *c, const char *name)
{
	for (int i = 0; c->sc && i < c->sc->maps.n; i++)
		if (!strcmp(c->sc->maps.v[i]->name, name))
			return c->sc->maps.v[i]->val;
	return NULL;
}

static void test_folded(void)
{
	char *p[] = {"0", "100", "10", "5"};
	for (int gi = 0; gi < 2; gi++) {
		const BtGeneration *g = gi ? g017 : g026;
		Compiled r = compile_params(g, gi ? "BEGIN { @h = lhist(1, $1, $2, $3); @b = buf(\"hello\", $4); "
						  "@s = strncmp(\"ab\", \"ac\", $4); }"
						: "begin { @h = lhist(1, $1, $2, $3); @b = buf(\"hello\", $4); "
						  "@s = strncmp(\"ab\", \"ac\", $4); @k[ustack($4)] = 1; }", p, 4);
		CHECK(r.sc != NULL);
		const Type *h = map_val(&r, "h"), *b = map_val(&r, "b");
		CHECK(h && h->kind == TY_LHIST && h->lh_min == 0 && h->lh_max == 100 && h->lh_step == 10);
		CHECK(b && b->kind == TY_BUF && b->size == 8 + 8); /* 5 bytes, rounded */
		compiled_free(&r);
	}
	/* a parameter that is no number is still no literal */
	char *q[] = {"x"};
	Compiled r = compile_params(g017, "BEGIN { @h = lhist(1, 0, 10, $1); }", q, 1);
	CHECK(!r.sc && r.err.set);
	compiled_free(&r);
}

static void test_attach_point(void)
{
	char *p[] = {"interval:ms:1"};
	Compiled r = compile_params(g026, "$1 { exit(); }", p, 1);
	CHECK(r.sc && r.sc->ast->nprobes == 1);
	if (r.sc)
		CHECK_STR(r.sc->ast->probes[0]->aps[0].text, "interval:ms:1");
	compiled_free(&r);
	r = compile_params(g017, "$1 { exit(); }", p, 1);
	CHECK(!r.sc && r.err.set);
	compiled_free(&r);
}

static void test_strlen_username(void)
{
	Compiled r = compile_as(g026, "begin { $n = strlen(\"hi\"); $e = username == username(); }");
	CHECK(r.sc != NULL);
	if (r.sc) {
		const Type *n = r.prog->probes[0]->body.v[0]->expr->type;
		const Type *e = r.prog->probes[0]->body.v[1]->expr->type;
		CHECK(n->kind == TY_INT && n->bits == 64 && !n->is_signed);
		CHECK(e->kind == TY_INT && e->is_bool);
	}
	compiled_free(&r);
	check_error_col(compile_as(g026, "begin { $n = strlen(1); }"), "strlen(1)", 21,
			"strlen() expects a string or a char array, not int64");
	check_error_col(compile_as(g017, "BEGIN { $n = strlen(\"a\"); }"), "0.17", 14,
			"Unknown function: strlen");
	r = compile_as(g017, "BEGIN { if (username == username) { } }");
	CHECK(r.sc != NULL);
	compiled_free(&r);
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_folded();
	test_attach_point();
	test_strlen_username();
	return check_done("test_literals_bt26");
}
