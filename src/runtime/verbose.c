/* -v: what bpftrace 0.17 prints per program as it attaches it (its
 * "Program ID", the verifier's statistics, "Attaching PROBE") and, after a
 * -c command exits by itself, "Child exited with code: N". */
#include "verbose.h"

#include <string.h>
#include <sys/wait.h>

#include <bpf/bpf.h>

#include "../probes/provider.h"
#include "../util/util.h"

/* bpftrace's name of a probe: its attach points joined by ",", each with
 * the provider's full name (u: is uprobe:) and the rest as written */
static void probe_orig_name(StrBuf *b, const Probe *pr)
{
	for (int i = 0; i < pr->naps; i++) {
		const char *text = pr->aps[i].text;
		size_t n = strcspn(text, ":");
		char *type = xstrndup(text, n);
		const Provider *p = provider_find(type);
		free(type);
		sb_printf(b, "%s%s%s", i ? "," : "", p ? p->name : "", p ? text + n : text);
	}
}

void verbose_attaching(const Runtime *rt, const ProgCode *pc)
{
	if (!rt->opt.verbose || !pc->probe)
		return;
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(pc->fd, &info, &len) == 0)
		fprintf(rt->out.f, "\nProgram ID: %u\n", info.id);
	fprintf(rt->out.f, "\nThe verifier log: \n%s\n", pc->vlog ? pc->vlog : "");
	fflush(rt->out.f);
	StrBuf b = {0};
	probe_orig_name(&b, pc->probe);
	fprintf(stderr, "Attaching %s\n", b.s ? b.s : "");
	sb_free(&b);
}

void verbose_child_exit(const Runtime *rt, int status)
{
	if (!rt->opt.verbose || status < 0 || !WIFEXITED(status))
		return;
	fprintf(rt->out.f, "Child exited with code: %d\n", WEXITSTATUS(status));
	fflush(rt->out.f);
}
