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

#include "../sym/pylayout.h"
#include "../python/pystack_format.h"
#include "../sym/ksyms.h"
#include "../runtime/output.h"
#include "../util/util.h"

enum { STACK_INDENT_D = 14 };

/* A frame's function and module (kernel: "vmlinux" or the module's name,
 * user: the file's base name); either may be NULL. */
static const char *frame_parts(const OutCtx *o, const Type *t, const void *d, uint64_t ip,
			       uint64_t *off, const char **mod, char *kmod, size_t kmod_len)
{
	*off = 0;
	*mod = NULL;
	const char *name = stack_frame_name(o->sym, t, d, ip, off, mod);
	if (t->kind == TY_KSTACK)
		*mod = name ? ksym_module(o->sym, name, kmod, kmod_len) : NULL;
	else if (*mod)
		*mod = path_basename(*mod);
	return name;
}

/* "mod`name+0xoff" (with_off and off not 0), "mod`name", "mod`0xADDR", "0xADDR" */
static void put_named(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, uint64_t ip,
		      bool with_off)
{
	uint64_t off;
	const char *mod;
	char kmod[64];
	const char *name = frame_parts(o, t, d, ip, &off, &mod, kmod, sizeof(kmod));
	unsigned long long a = (unsigned long long)ip, ao = (unsigned long long)off;
	if (name && mod && off && with_off)
		sb_printf(sb, "%s`%s+0x%llx", mod, name, ao);
	else if (name && mod)
		sb_printf(sb, "%s`%s", mod, name);
	else if (mod)
		sb_printf(sb, "%s`0x%llx", mod, a);
	else
		sb_printf(sb, "0x%llx", a);
}

static void put_frame_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, uint64_t ip)
{
	put_named(sb, o, t, d, ip, true);
}

static int stack_indent_d(const OutCtx *o)
{
	return o->agg.stackindent_set ? o->agg.stackindent : STACK_INDENT_D;
}

/* A Python frame as a ustack helper's annotation prints in dtrace(1):
 * two columns right of the frames, "[ file:LINE (function) ]", cut at
 * jstack's strsize. */
static void put_py_frame(StrBuf *sb, const Type *t, int indent, const char *text)
{
	size_t n = strlen(text);
	if (t->line_max > 0 && n > (size_t)t->line_max)
		n = (size_t)t->line_max;
	sb_printf(sb, "%*s", indent + 2, "");
	sb_putn(sb, text, n);
	sb_putc(sb, '\n');
}

/* jstack(): the native frames as ustack() prints them, then the Python
 * frames innermost first.  A ustack helper puts them under the frames of
 * the interpreter loop; sonde cannot, since a CPython built without frame
 * pointers (Debian's) hides those frames from the kernel's unwinder. */
static void jstack_format_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	Type native = {.kind = TY_USTACK, .size = 16, .stack_depth = t->stack_depth};
	stack_format_d(sb, o, &native, (const char *)d + pystack_size(t->stack_depth));
	uint64_t stop;
	int n = pystack_nframes(t, d, &stop), indent = stack_indent_d(o);
	char text[PYC_FILE + PYC_NAME + 64];
	for (int i = 0; i < n; i++) {
		pystack_frame(o->pycode_fd, d, i, false, text, sizeof(text));
		put_py_frame(sb, t, indent, text);
	}
	if (stop)
		put_py_frame(sb, t, indent, pystack_stop_text(stop));
}

void stack_format_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	if (t->kind == TY_PYSTACK) {
		jstack_format_d(sb, o, t, d);
		return;
	}
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips), indent = stack_indent_d(o);
	sb_putc(sb, '\n');
	for (int i = 0; i < n; i++) {
		sb_printf(sb, "%*s", indent, "");
		put_frame_d(sb, o, t, d, ips[i]);
		sb_putc(sb, '\n');
	}
}

/* printf's %k: dt_print_stack's layout with the conversion's own format
 * for each frame ("%-20s") and its indent (the width of a left-aligned
 * %-Nk, else none) */
void stack_printf_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, int indent,
		    const char *cfmt)
{
	if (t->kind == TY_PYSTACK) {
		stack_format_d(sb, o, t, d);
		return;
	}
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips);
	StrBuf frame = {0};
	sb_putc(sb, '\n');
	for (int i = 0; i < n; i++) {
		sb_reset(&frame);
		put_frame_d(&frame, o, t, d, ips[i]);
		sb_putc(&frame, 0);
		sb_printf(sb, "%*s", indent, "");
		sb_printf(sb, cfmt, frame.s);
		sb_putc(sb, '\n');
	}
	sb_free(&frame);
}

/* printf's %a (a kernel address) and %A (a usym() value: the address,
 * then the process id), as dtrace_addr2str/dtrace_uaddr2str name them */
void sym_format_d(StrBuf *sb, const OutCtx *o, bool user, const void *d)
{
	uint64_t addr;
	memcpy(&addr, d, 8);
	Type t = {.kind = user ? TY_USTACK : TY_KSTACK};
	put_frame_d(sb, o, &t, d, addr);
}

/* The text of a sym() mod() usym() umod() uaddr() value, as libdtrace's
 * dt_print_sym/mod/usym/umod make it: sym "mod`name" (the module and the
 * address when no symbol has it), mod the module, uaddr the name and
 * offset; the address alone when nothing is known. */
void sym_text_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	uint64_t addr, off;
	memcpy(&addr, d, 8);
	Type st = {.kind = t->kind == TY_USYM ? TY_USTACK : TY_KSTACK};
	if (t->dsym != DSYM_MOD) {
		put_named(sb, o, &st, d, addr, t->dsym == DSYM_ADDR);
		return;
	}
	const char *mod;
	char kmod[64];
	frame_parts(o, &st, d, addr, &off, &mod, kmod, sizeof(kmod));
	if (mod)
		sb_puts(sb, mod);
	else
		sb_printf(sb, "0x%llx", (unsigned long long)addr);
}
