/* The kprobe index (sym/kindex.c): its text, lookups by name in file
 * order, wildcards searched from their literal start, module filters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sym/kindex.h"

/* available_filter_functions' order: a name twice in vmlinux (statics), one
 * in vmlinux and a module, .part/.cold pieces, names just around tcp_ */
static const KIndexRow rows[] = {
	{"tcp_sendmsg", NULL, 0xffffffff81a00000, false},
	{"tcp_", NULL, 0x10, false},
	{"tcq_x", NULL, 0x20, false},
	{"tcp_close", NULL, 0, false},
	{"tcp_close", "dummy", 0, false},
	{"tcp_v4_rcv", NULL, 0x30, true},
	{"tcp_foo.part.0", NULL, 0x40, false},
	{"tcp_bar.cold", NULL, 0x50, false},
	{"tcpx", NULL, 0x60, false},
	{"dummy_open", "dummy", 0, false},
	{"aaa", NULL, 0x1, false},
	{"zzz", NULL, 0x2, false},
	{"tcp_close", "other", 0, false},
};

static KIndex make(void)
{
	KIndex ix;
	char *t = kindex_make(rows, (int)(sizeof(rows) / sizeof(rows[0])), &ix.len);
	ix.text = t;
	return ix;
}

/* "name[@addr][!]" for each match (! blacklisted), space-separated */
static const char *match(KIndex ix, const char *module, const char *glob)
{
	static char buf[1024];
	KIndexMatch *v;
	int n = kindex_match(ix, module, glob, &v);
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		size_t k = strlen(buf);
		snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? " " : "", v[i].name);
		k = strlen(buf);
		if (v[i].addr)
			snprintf(buf + k, sizeof(buf) - k, "@%llx", (unsigned long long)v[i].addr);
		if (v[i].black)
			strcat(buf, "!");
	}
	kindex_match_free(v, n);
	return buf;
}

static bool any(const KIndexLine *l, const void *arg)
{
	(void)l;
	(void)arg;
	return true;
}

static void test_text(KIndex ix)
{
	/* sorted by name; one name's lines in file order */
	CHECK(!strncmp(ix.text, "aaa 1 - -\ndummy_open 0 - dummy\ntcp_ 10 - -\n", 42));
	const char *close = strstr(ix.text, "tcp_close ");
	CHECK(close && !strncmp(close, "tcp_close 0 - -\ntcp_close 0 - dummy\ntcp_close 0 - other\n", 56));
	CHECK(strstr(ix.text, "\ntcp_v4_rcv 30 b -\n") != NULL);
	CHECK(ix.text[ix.len - 1] == '\n');
}

static void test_find(KIndex ix)
{
	KIndexLine l;
	CHECK(kindex_find(ix, "tcp_sendmsg", any, NULL, &l) && l.addr == 0xffffffff81a00000 && !l.module &&
	      !l.black && l.name_len == 11);
	CHECK(kindex_find(ix, "tcp_v4_rcv", any, NULL, &l) && l.black && l.addr == 0x30);
	CHECK(kindex_find(ix, "aaa", any, NULL, &l) && l.addr == 1); /* the first line */
	CHECK(kindex_find(ix, "zzz", any, NULL, &l) && l.addr == 2); /* the last */
	CHECK(!kindex_find(ix, "tcp", any, NULL, &l));		     /* a prefix is not a name */
	CHECK(!kindex_find(ix, "tcp_sendmsgx", any, NULL, &l));
	CHECK(!kindex_find(ix, "a", any, NULL, &l));
	CHECK(!kindex_find(ix, "zzzz", any, NULL, &l));
	/* in file order; by module */
	CHECK(kindex_find(ix, "tcp_close", any, NULL, &l) && !l.module);
	CHECK(kindex_find(ix, "tcp_close", kindex_line_in, "other", &l) && l.module_len == 5 &&
	      !strncmp(l.module, "other", 5));
	CHECK(!kindex_find(ix, "tcp_close", kindex_line_in, "dumm", &l));
	CHECK(!kindex_find(ix, "tcp_sendmsg", kindex_line_in, "dummy", &l));
	CHECK(!kindex_find((KIndex){NULL, 0}, "tcp_close", any, NULL, &l));
}

static void test_match(KIndex ix)
{
	CHECK_STR(match(ix, NULL, "tcp_*"), "tcp_@10 tcp_close tcp_sendmsg@ffffffff81a00000 tcp_v4_rcv@30!");
	CHECK_STR(match(ix, NULL, "tcp*"), "tcp_@10 tcp_close tcp_sendmsg@ffffffff81a00000 tcp_v4_rcv@30! tcpx@60");
	CHECK_STR(match(ix, NULL, "tc?_*"), "tcp_@10 tcp_close tcp_sendmsg@ffffffff81a00000 tcp_v4_rcv@30! tcq_x@20");
	CHECK_STR(match(ix, NULL, "*close"), "tcp_close");
	CHECK_STR(match(ix, NULL, "*"), "aaa@1 dummy_open tcp_@10 tcp_close tcp_sendmsg@ffffffff81a00000 "
					"tcp_v4_rcv@30! tcpx@60 tcq_x@20 zzz@2");
	CHECK_STR(match(ix, "dummy", "*"), "dummy_open tcp_close");
	CHECK_STR(match(ix, "other", "tcp_*"), "tcp_close");
	CHECK_STR(match(ix, NULL, "udp_*"), "");
	CHECK_STR(match(ix, NULL, "zzz*"), "zzz@2");
	/* a module's line first, then vmlinux's: the vmlinux address */
	static const KIndexRow late[] = {{"f_a", "mod", 0, false}, {"f_a", NULL, 0x99, false}};
	KIndex lx;
	lx.text = kindex_make(late, 2, &lx.len);
	CHECK_STR(match(lx, NULL, "f_*"), "f_a@99");
	CHECK_STR(match(lx, "mod", "f_*"), "f_a");
	free((char *)lx.text);
	CHECK_STR(match((KIndex){NULL, 0}, NULL, "*"), "");
}

int main(void)
{
	KIndex ix = make();
	test_text(ix);
	test_find(ix);
	test_match(ix);
	free((char *)ix.text);
	return check_done("kindex");
}
