/* Small queries on Types: aggregation test, structural equality and the
 * words error messages use for a type. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "types.h"

Type *type_new(Arena *a, TypeKind k, int size)
{
	Type *t = arena_alloc(a, sizeof(Type));
	t->kind = k;
	t->size = size;
	return t;
}

void type_enum_add(Arena *a, Type *t, const char *name, int64_t v)
{
	Enumerator *n = arena_alloc(a, sizeof(Enumerator));
	n->name = name;
	n->value = v;
	const Enumerator **tail = &t->enumerators;
	while (*tail)
		tail = (const Enumerator **)&(*tail)->next;
	*tail = n;
}

const char *type_enum_name(const Type *t, int64_t v)
{
	for (const Enumerator *e = t->enumerators; e; e = e->next)
		if (e->value == v)
			return e->name;
	return NULL;
}

bool type_is_agg(const Type *t)
{
	return t && t->kind >= TY_COUNT && t->kind <= TY_STDDEV;
}

bool type_agg_scalar(const Type *t)
{
	return t && (t->kind == TY_COUNT || t->kind == TY_SUM || t->kind == TY_AVG ||
		     t->kind == TY_MIN || t->kind == TY_MAX);
}

/* Structural equality: same kind and the same layout-relevant fields, so
 * two equal types can share a map. */
int type_elem_slot(const Type *to, const Type *from, int i)
{
	if (!to->names || !from->names)
		return i < to->nelem ? i : -1;
	if (i < to->nelem && !strcmp(to->names[i], from->names[i]))
		return i;
	for (int j = 0; j < to->nelem; j++)
		if (!strcmp(to->names[j], from->names[i]))
			return j;
	return -1;
}

bool type_equal(const Type *a, const Type *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->size != b->size)
		return false;
	switch (a->kind) {
	case TY_INT:
		return a->bits == b->bits && a->is_signed == b->is_signed;
	case TY_RECORD:
		return a->cname && b->cname && !strcmp(a->cname, b->cname);
	case TY_ARRAY:
		return a->count == b->count && type_equal(a->pointee, b->pointee);
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_AVG:
	case TY_STATS:
		return a->is_signed == b->is_signed;
	case TY_TUPLE:
		if (a->nelem != b->nelem || !a->names != !b->names)
			return false;
		for (int i = 0; i < a->nelem; i++)
			if (!type_equal(a->elem[i], b->elem[i]) ||
			    (a->names && strcmp(a->names[i], b->names[i])))
				return false;
		return true;
	case TY_KSYM:
	case TY_USYM:
		return a->dsym == b->dsym;
	case TY_LHIST:
		return a->lh_min == b->lh_min && a->lh_max == b->lh_max &&
		       a->lh_step == b->lh_step;
	case TY_TSERIES:
		return a->ts_interval == b->ts_interval && a->ts_count == b->ts_count &&
		       a->ts_agg == b->ts_agg;
	case TY_LLQUANTIZE:
		return a->llq_factor == b->llq_factor && a->llq_low == b->llq_low &&
		       a->llq_high == b->llq_high && a->llq_steps == b->llq_steps;
	case TY_KSTACK:
	case TY_USTACK:
	case TY_PYSTACK:
		return a->line_max == b->line_max && a->stack_depth == b->stack_depth && a->stack_mode == b->stack_mode;
	case TY_TIMESTAMP:
	case TY_CGROUP_PATH:
		return (!a->fmt && !b->fmt) || (a->fmt && b->fmt && !strcmp(a->fmt, b->fmt));
	default:
		return true;
	}
}

static const char *simple_name(TypeKind k)
{
	switch (k) {
	case TY_NONE: return "none";
	case TY_KSTACK: return "kstack";
	case TY_USTACK: return "ustack";
	case TY_PYSTACK: return "pystack";
	case TY_KSYM: return "ksym";
	case TY_USYM: return "usym";
	case TY_SYSCALL: return "syscall";
	case TY_INET: return "inet";
	case TY_TIMESTAMP: return "timestamp";
	case TY_STRERROR: return "strerror";
	case TY_USERNAME: return "username";
	case TY_MACADDR: return "macaddr";
	case TY_CGROUP_PATH: return "cgroup_path";
	case TY_SIGNAL: return "signal_name";
	case TY_COUNT: return "count()";
	case TY_SUM: return "sum()";
	case TY_MIN: return "min()";
	case TY_MAX: return "max()";
	case TY_AVG: return "avg()";
	case TY_STATS: return "stats()";
	case TY_HIST: return "hist()";
	case TY_TSERIES: return "tseries()";
	case TY_LHIST: return "lhist()";
	case TY_QUANTIZE: return "quantize()";
	case TY_LLQUANTIZE: return "llquantize()";
	case TY_STDDEV: return "stddev()";
	case TY_CTX: return "args";
	default: return "?";
	}
}

/* Bounded appender: text past the end of the buffer is dropped. */
typedef struct NameBuf {
	char *buf;
	int n, len;
} NameBuf;

static void nb_put(NameBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void nb_put(NameBuf *b, const char *fmt, ...)
{
	int left = b->n - b->len;
	if (left <= 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(b->buf + b->len, (size_t)left, fmt, ap);
	va_end(ap);
	if (w > 0)
		b->len += w < left ? w : left - 1;
}

static void put_name(NameBuf *b, const Type *t)
{
	switch (t->kind) {
	case TY_INT:
		if (t->pointee) {
			if (t->ctx) /* as bpftrace names a context pointer */
				nb_put(b, "(ctx) ");
			put_name(b, t->pointee);
			nb_put(b, t->pointee->pointee && t->pointee->kind == TY_INT ? "*" : " *");
		} else if (t->cname) {
			nb_put(b, "%s", t->cname);
		} else if (t->is_bool) {
			nb_put(b, "bool");
		} else {
			nb_put(b, "%sint%d", t->is_signed ? "" : "u", t->bits ? t->bits : 64);
		}
		break;
	case TY_RECORD:
		nb_put(b, "%s", t->cname ? t->cname : "struct");
		break;
	case TY_ARRAY:
		put_name(b, t->pointee);
		nb_put(b, "[%d]", t->count);
		break;
	case TY_NONE:
		nb_put(b, "%s", t->cname ? t->cname : "none");
		break;
	case TY_STR:
		nb_put(b, "string[%d]", t->size);
		break;
	case TY_BUF:
		nb_put(b, "buffer[%d]", t->size > 8 ? t->size - 8 : 0);
		break;
	case TY_TUPLE:
		nb_put(b, t->names ? "record (" : "tuple (");
		for (int i = 0; i < t->nelem; i++) {
			if (i)
				nb_put(b, ", ");
			if (t->names)
				nb_put(b, "%s=", t->names[i]);
			put_name(b, t->elem[i]);
		}
		nb_put(b, ")");
		break;
	default:
		nb_put(b, "%s", simple_name(t->kind));
		break;
	}
}

const char *type_name(const Type *t, char *buf, int n)
{
	if (n <= 0)
		return "";
	buf[0] = 0;
	NameBuf b = {buf, n, 0};
	if (!t)
		nb_put(&b, "none");
	else
		put_name(&b, t);
	return buf;
}
