/* Printing C-typed values (structs, unions, arrays) as bpftrace 0.17 does:
 *   value:  { .a = 1, .b = text, .in = { .x = 0 }, .arr = [1,2,3] }
 *   key:    {.a=1,.b=text,.in={.x=0},.p=0x1000}  (0.26: as the value, pointers 0x...)
 *   json:   { "a": 1, "b": "text", "arr": [1,2,3] }
 * Fields of anonymous members print flattened, as bpftrace does. */
#include <string.h>

#include "frontend_rt.h"
#include "output.h"
#include "value_ctype.h"

static int64_t read_int(const Type *t, const unsigned char *d, int bit_off, int bit_width)
{
	int w = type_csize(t);
	uint64_t v = 0;
	if (bit_width) {
		int n = (bit_off + bit_width + 7) / 8;
		memcpy(&v, d, (size_t)(n > 8 ? 8 : n));
		v >>= bit_off;
		if (bit_width < 64)
			v &= (1ULL << bit_width) - 1;
		if (t->is_signed && bit_width < 64 && (v >> (bit_width - 1)) & 1)
			v |= ~0ULL << bit_width;
		return (int64_t)v;
	}
	memcpy(&v, d, (size_t)(w > 8 ? 8 : w));
	if (t->is_signed && w < 8 && (v >> (w * 8 - 1)) & 1)
		v |= ~0ULL << (w * 8);
	return (int64_t)v;
}

static void fmt_c(StrBuf *sb, const OutCtx *o, Type *t, const unsigned char *d, bool in_key,
		  int bit_off, int bit_width, int depth);

static void fmt_fields(StrBuf *sb, const OutCtx *o, Type *t, const unsigned char *d,
		       bool in_key, bool *first, int depth)
{
	bool json = o->fmt == OUT_JSON;
	int n;
	const Field *f = type_fields(t, &n);
	for (int i = 0; i < n; i++) {
		if (!*f[i].name) {
			if (f[i].type->kind == TY_RECORD)
				fmt_fields(sb, o, f[i].type, d + f[i].offset, in_key, first, depth + 1);
			continue;
		}
		if (!*first)
			sb_puts(sb, in_key ? "," : ", ");
		*first = false;
		if (json && !in_key)
			sb_printf(sb, "\"%s\": ", f[i].name);
		else
			sb_printf(sb, in_key ? ".%s=" : ".%s = ", f[i].name);
		fmt_c(sb, o, f[i].type, d + f[i].offset, in_key, f[i].bit_off, f[i].bit_width,
		      depth + 1);
	}
}

static void fmt_c(StrBuf *sb, const OutCtx *o, Type *t, const unsigned char *d, bool in_key,
		  int bit_off, int bit_width, int depth)
{
	bool json = o->fmt == OUT_JSON && !in_key;
	if (depth > 32)
		return;
	switch (t->kind) {
	case TY_INT: {
		int64_t v = read_int(t, d, bit_off, bit_width);
		bool hex = in_key || (frontend_rt(o)->pointers_hex && o->fmt != OUT_JSON);
		if (t->pointee)
			sb_printf(sb, hex ? "0x%llx" : "%llu", (unsigned long long)v);
		else if (t->is_signed)
			sb_printf(sb, "%lld", (long long)v);
		else
			sb_printf(sb, "%llu", (unsigned long long)v);
		break;
	}
	case TY_STR: {
		size_t n = strnlen((const char *)d, (size_t)t->size);
		if (json) {
			sb_putc(sb, '"');
			json_escape(sb, (const char *)d, n);
			sb_putc(sb, '"');
		} else {
			sb_putn(sb, (const char *)d, n);
		}
		break;
	}
	case TY_ARRAY: {
		int esz = type_csize(t->pointee);
		sb_putc(sb, '[');
		for (int i = 0; i < t->count; i++) {
			if (i)
				sb_putc(sb, ',');
			fmt_c(sb, o, t->pointee, d + (size_t)i * (size_t)esz, in_key, 0, 0, depth + 1);
		}
		sb_putc(sb, ']');
		break;
	}
	case TY_RECORD: {
		bool first = true, tight = in_key || (json && frontend_rt(o)->json_records_compact);
		sb_puts(sb, tight ? "{" : "{ ");
		fmt_fields(sb, o, t, d, in_key, &first, depth);
		sb_puts(sb, tight ? "}" : " }");
		break;
	}
	default:
		value_format(sb, o, t, d, in_key);
	}
}

void value_format_ctype(StrBuf *sb, const OutCtx *o, const Type *t, const void *data,
			bool in_key)
{
	if (in_key && frontend_rt(o)->keys_as_values)
		in_key = false; /* bpftrace 0.26 prints a key as the value it is */
	fmt_c(sb, o, (Type *)t, data, in_key, 0, 0, 0);
}
