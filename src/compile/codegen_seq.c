/* printf in a pinned iterator (iter:NAME:PIN): the output goes to whoever
 * reads the pinned file later, long after sonde exited, so the program
 * writes it with bpf_seq_printf into the iterator's seq_file
 * (ctx->meta->seq) instead of sending an event, as bpftrace 0.17 does.  The
 * kernel formats it: each argument is one u64 (an integer's value, a
 * string's address), conversions limited to what its bstr_printf accepts
 * (d i u x X c s, flags and width, no precision; 12 arguments at most). */
#include <string.h>

#include "../lang/fmt.h"
#include "codegen.h"

#define SEQ_ARGS_MAX 12 /* the kernel's MAX_BPRINTF_VARARGS */

/* Whether the kernel's bstr_printf takes this conversion of arg. */
static bool seq_conv_ok(const FmtPiece *p, const Type *arg)
{
	if (p->skip || p->conv == FC_PTR || p->conv == FC_BUF || strchr(p->text, '.'))
		return false;
	if (p->conv == FC_STR)
		return arg->kind == TY_STR;
	return strchr("diuxXc", p->spec) && !strchr(p->text, 'h') && arg->kind == TY_INT;
}

/* Whether the kernel can print every conversion of the format with its
 * argument; the format itself goes to the kernel as written, as bpftrace
 * passes it (so "%%" is one "%", and %d shows the low 32 bits). */
static bool seq_format_ok(Gen *g, const Expr *call)
{
	const Fmt *fmt = call->args.v[0]->auxp;
	int ai = 1;
	for (int i = 0; i < fmt->npieces; i++) {
		const FmtPiece *p = &fmt->pieces[i];
		if (p->conv == FC_LITERAL)
			continue;
		const Expr *a = call->args.v[ai++];
		if (!seq_conv_ok(p, a->type)) {
			char tn[128];
			return error_at(g->err, a->loc, "printf() in a pinned iterator is written by the "
					"kernel (bpf_seq_printf), which cannot print %%%c of %s (it takes "
					"%%d %%i %%u %%x %%X %%c of integers and %%s of strings, with flags "
					"and width)", p->spec, type_name(a->type, tn, sizeof(tn)));
		}
	}
	return true;
}

void gen_seq_printf(Gen *g, const Expr *call)
{
	int n = call->args.n - 1;
	if (n > SEQ_ARGS_MAX) {
		error_at(g->err, call->loc, "printf() in a pinned iterator takes at most %d arguments "
			 "(the kernel's bpf_seq_printf)", SEQ_ARGS_MAX);
		return;
	}
	if (!seq_format_ok(g, call))
		return;
	const Expr *f = call->args.v[0];
	int mark = g->scratch_top, data = scratch_alloc(g, 8 * (n ? n : 1));
	for (int i = 0; i < n; i++) {
		const Expr *a = call->args.v[i + 1];
		if (a->type->kind == TY_STR)
			emit_scratch_ptr(g, BPF_REG_0, gen_mem(g, a));
		else
			gen_int(g, a);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, data + 8 * i);
	}
	/* ctx->meta->seq: both are the first member */
	emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, 0));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_1, 0));
	emit_ld_map_value(g, BPF_REG_2, R_RODATA, script_rodata_add(g->sc, f->sval, f->slen));
	emit(g, I_MOV64_IMM(BPF_REG_3, (int)f->slen + 1));
	if (n)
		emit_scratch_ptr(g, BPF_REG_4, data);
	else
		emit(g, I_MOV64_IMM(BPF_REG_4, 0));
	emit(g, I_MOV64_IMM(BPF_REG_5, 8 * n));
	emit_call(g, BPF_FUNC_seq_printf);
	g->scratch_top = mark;
}
