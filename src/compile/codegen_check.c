/* -k / -kk: helper failures reported at run time, as bpftrace's
 * "WARNING: Failed to HELPER: ..." lines.  After a call of a helper the
 * script asked for (a map update, a probe read...), a check of r0 sends a
 * small record (event index, return value) only when the call failed; the
 * event's descriptor holds the helper and the source location.  Without
 * -k nothing is emitted: the option costs nothing when it is off. */
#include "codegen.h"

/* Helpers whose failure leaves a zero the script can see (a read of a bad
 * pointer, a missing key): bpftrace reports them only at -kk. */
static bool fails_to_zero(int helper)
{
	switch (helper) {
	case BPF_FUNC_probe_read:
	case BPF_FUNC_probe_read_str:
	case BPF_FUNC_probe_read_kernel:
	case BPF_FUNC_probe_read_kernel_str:
	case BPF_FUNC_probe_read_user:
	case BPF_FUNC_probe_read_user_str:
	case BPF_FUNC_map_lookup_elem:
		return true;
	default:
		return false;
	}
}

void gen_helper_check(Gen *g, int helper)
{
	int level = g->sc->opt.helper_check;
	if (!level || (level == 1 && fails_to_zero(helper)))
		return;
	EventDesc *ev = event_new(g, EV_HELPER_ERROR, 0);
	ev->size = 16;
	ev->helper = helper;
	ev->loc = g->loc;
	int ok = label_new(g), mark = g->scratch_top;
	/* a lookup fails with NULL, the others with a negative errno */
	emit_jmp_imm(g, helper == BPF_FUNC_map_lookup_elem ? BPF_JNE : BPF_JSGE, BPF_REG_0, 0, ok);
	int rec = scratch_alloc(g, 16);
	emit_st(g, BPF_DW, R_SCR, rec, g->sc->events.n - 1);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + 8);
	gen_event_send(g, rec, 16, false);
	/* r0 as the helper left it, for a caller that tests it; a failed
	 * lookup's NULL as a constant, which the verifier follows */
	if (helper == BPF_FUNC_map_lookup_elem)
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	else
		emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, rec + 8);
	label_place(g, ok);
	g->scratch_top = mark;
}
