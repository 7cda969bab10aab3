/* -k / -kk: a helper's failure, reported as bpftrace 0.17 does: a
 * "WARNING: Failed to HELPER: ERRNO TEXT (-ERRNO)" diagnostic at the call's
 * source location, in the program's output (text), or a "helper_error"
 * record (json).  The record is the event index and the helper's return
 * value (compile/codegen_check.c). */
#include <string.h>

#include "runtime.h"

/* the names bpftrace prints: libbpf's helper names without "bpf_" */
static const char *helper_name(int helper)
{
	switch (helper) {
	case BPF_FUNC_map_lookup_elem: return "map_lookup_elem";
	case BPF_FUNC_map_update_elem: return "map_update_elem";
	case BPF_FUNC_map_delete_elem: return "map_delete_elem";
	case BPF_FUNC_probe_read: return "probe_read";
	case BPF_FUNC_probe_read_str: return "probe_read_str";
	case BPF_FUNC_probe_read_kernel: return "probe_read_kernel";
	case BPF_FUNC_probe_read_kernel_str: return "probe_read_kernel_str";
	case BPF_FUNC_probe_read_user: return "probe_read_user";
	case BPF_FUNC_probe_read_user_str: return "probe_read_user_str";
	case BPF_FUNC_send_signal: return "send_signal";
	default: return "helper";
	}
}

void helper_error_print(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	int64_t ret;
	memcpy(&ret, data + 8, 8);
	const char *name = helper_name(ev->helper);
	FILE *f = rt->out.f;
	if (rt->out.fmt == OUT_JSON) {
		fprintf(f, "{\"type\": \"helper_error\", \"helper\": \"%s\", \"retcode\": %lld, "
			"\"line\": %d, \"col\": %d}\n", name, (long long)ret, ev->loc.line, ev->loc.col);
		return;
	}
	Error e = {.set = true, .loc = ev->loc};
	/* a lookup fails with NULL, which bpftrace prints as the number */
	if (ret < 0)
		snprintf(e.msg, sizeof(e.msg), "Failed to %s: %s (%lld)", name, strerror((int)-ret),
			 (long long)ret);
	else
		snprintf(e.msg, sizeof(e.msg), "Failed to %s: %lld", name, (long long)ret);
	diag_print_warning(f, &rt->sc->ast->src, &e);
}
