/* sonde flamegraph's model and drawing, without a kernel: folded stacks
 * into a merged tree (bad lines counted, not fatal), and the SVG: frames
 * escaped, widths proportional to counts, labels shortened to fit. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "flame/flame.h"

static FILE *text(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

static const FlameNode *kid(const FlameNode *n, const char *name)
{
	for (int i = 0; i < n->nkids; i++)
		if (!strcmp(n->kids[i]->name, name))
			return n->kids[i];
	return NULL;
}

static void test_tree(void)
{
	FlameTree t;
	FILE *f = text("main;work;hot 90\r\n"
		       "main;work;cold 10\n"
		       "\n"
		       "main;work;hot 5   \n"
		       "a frame with spaces;x_[k] 3\n"
		       "no count\n"
		       "main;neg -4\n"
		       "main;;gap 2\n");
	flame_tree_read(&t, f);
	fclose(f);
	CHECK(t.lines == 7);
	CHECK(t.bad == 2); /* "no count", a negative count */
	CHECK(t.root.value == 110);
	CHECK(t.depth == 3);
	const FlameNode *m = kid(&t.root, "main"), *w = m ? kid(m, "work") : NULL;
	CHECK(m && m->value == 107);
	CHECK(w && w->value == 105);
	CHECK(w && kid(w, "hot") && kid(w, "hot")->value == 95); /* merged */
	CHECK(m && kid(m, "gap") && kid(m, "gap")->value == 2);  /* empty frame skipped */
	CHECK(kid(&t.root, "a frame with spaces") != NULL);
	/* children sorted by name: the layout is stable */
	CHECK(w && w->nkids == 2 && !strcmp(w->kids[0]->name, "cold"));
	flame_tree_free(&t);
}

static void test_svg(void)
{
	FlameTree t;
	FILE *f = text("main;hot 3\nmain;cold<&> 1\n");
	flame_tree_read(&t, f);
	fclose(f);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	FlameSvgOpts o = {.title = "T&T", .units = "samples", .width = 420};
	flame_svg_write(out, &t, &o);
	fclose(out);
	CHECK(strstr(buf, "<?xml") == buf);
	CHECK(strstr(buf, ">T&amp;T</text>") != NULL);
	CHECK(strstr(buf, "<title>cold&lt;&amp;&gt; (1 samples, 25.00%)</title>") != NULL);
	CHECK(strstr(buf, "<title>hot (3 samples, 75.00%)</title>") != NULL);
	/* 400 drawable pixels: hot is 3/4 of them, cold 1/4 */
	CHECK(strstr(buf, "width=\"300.00\"") != NULL);
	CHECK(strstr(buf, "width=\"100.00\"") != NULL);
	CHECK(strstr(buf, "onload=\"fg_init()\"") != NULL);
	CHECK(strstr(buf, "</svg>\n") != NULL);
	free(buf);
	flame_tree_free(&t);
}

int main(void)
{
	test_tree();
	test_svg();
	return check_done("test_flame");
}
