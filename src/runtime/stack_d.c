/* Stacks as dtrace(1) prints them (the D dialect): stack(), ustack() and
 * jstack() records and stack keys of aggregations.
 *
 * libdtrace's layout (dt_print_stack/dt_print_ustack): a "\n", then one
 * line per frame, indented by the stackindent option (14 by default):
 * "module`function+0xOFF" ("module`function" at the function's first
 * byte), "module`0xADDR" when only the module is known, "0xADDR" when
 * nothing is.  Kernel frames name their module "vmlinux" or the loaded
 * module's name, user frames the file's base name (libc.so.6). */
#include <string.h>

#include "ksyms.h"
#include "output.h"

enum { STACK_INDENT_D = 14 };

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static void put_frame(StrBuf *sb, const Type *t, const void *d, uint64_t ip)
{
	uint64_t off = 0;
	const char *mod = NULL;
	char kmod[64];
	const char *name = stack_frame_name(t, d, ip, &off, &mod);
	if (t->kind == TY_KSTACK)
		mod = name ? ksym_module(name, kmod, sizeof(kmod)) : NULL;
	else if (mod)
		mod = base_name(mod);
	unsigned long long a = (unsigned long long)ip, o = (unsigned long long)off;
	if (name && mod && off)
		sb_printf(sb, "%s`%s+0x%llx", mod, name, o);
	else if (name && mod)
		sb_printf(sb, "%s`%s", mod, name);
	else if (mod)
		sb_printf(sb, "%s`0x%llx", mod, a);
	else
		sb_printf(sb, "0x%llx", a);
}

static int stack_indent_d(const OutCtx *o)
{
	return o->agg.stackindent_set ? o->agg.stackindent : STACK_INDENT_D;
}

void stack_format_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips), indent = stack_indent_d(o);
	sb_putc(sb, '\n');
	for (int i = 0; i < n; i++) {
		sb_printf(sb, "%*s", indent, "");
		put_frame(sb, t, d, ips[i]);
		sb_putc(sb, '\n');
	}
}
