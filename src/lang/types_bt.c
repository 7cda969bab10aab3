/* A type's name in bpftrace 0.17's words ("unsigned int32", "mac_address"),
 * and the word for its kind ("integer", "string"): its operators' messages
 * (src/bt/) and those of the functions both dialects share say them. */
#include <stdio.h>
#include <string.h>

#include "../util/util.h"
#include "types.h"

/* bpftrace's name of a type in its messages, appended to b: an aggregation
 * without "()", a tuple as "(int64,string[2])", an unsigned integer as
 * "unsigned int32", whatever C name the integer came with, macaddr()'s
 * value as "mac_address" */
static void bpf_type_name(const Type *t, StrBuf *b)
{
	char n[128];
	if (t->kind == TY_MACADDR) {
		sb_puts(b, "mac_address");
		return;
	}
	if (t->kind == TY_INT && t->is_bool) {
		sb_puts(b, "bool");
		return;
	}
	if (t->kind == TY_INT && !t->pointee) {
		sb_printf(b, "%sint%d", t->is_signed ? "" : "unsigned ", t->bits ? t->bits : 64);
		return;
	}
	if (t->kind == TY_INT && t->pointee && t->pointee->kind == TY_INT && !t->ctx) {
		bpf_type_name(t->pointee, b);
		sb_puts(b, " *");
		return;
	}
	type_name(t, n, sizeof(n));
	size_t len = strlen(n);
	if (t->kind == TY_TUPLE) {
		sb_putc(b, '(');
		for (int i = 0; i < t->nelem; i++) {
			if (i)
				sb_putc(b, ',');
			if (t->names) /* a record */
				sb_printf(b, "%s=", t->names[i]);
			bpf_type_name(t->elem[i], b);
		}
		sb_putc(b, ')');
	} else if (type_is_agg(t) && len >= 2 && !strcmp(n + len - 2, "()")) {
		sb_putn(b, n, len - 2);
	} else {
		sb_puts(b, n);
	}
}

const char *bpf_tn(const Type *t)
{
	static char buf[2][256];
	static int i;
	i = (i + 1) % 2;
	StrBuf b = {0};
	bpf_type_name(t, &b);
	snprintf(buf[i], sizeof(buf[i]), "%s", b.s ? b.s : "");
	sb_free(&b);
	return buf[i];
}

const char *bpf_kind(const Type *t)
{
	switch (t->kind) {
	case TY_INT: return t->pointee ? "pointer" : "integer";
	case TY_STR: return "string";
	case TY_TUPLE: return "tuple";
	case TY_RECORD: return "record";
	case TY_ARRAY: return "array";
	case TY_BUF: return "buffer";
	default: return bpf_tn(t);
	}
}
