#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

/* Lines of the verifier log that are trace, not a reason. */
static bool log_noise(const char *p, size_t len)
{
	static const char *const prefixes[] = {
		"processed ", "verification time", "stack depth", "cur state", "old state", "from ",
		"; ", "last_idx", "regs=", "parent ", "func#", "mark_precise", "Live regs", "Global ",
		"Validating", "0: R1=", "reg type unsupported",
	};
	if (!len || (p[0] >= '0' && p[0] <= '9'))
		return true; /* instruction trace: "12: (bf) r6 = r1" */
	if (p[0] == 'R' && len > 2 && p[1] >= '0' && p[1] <= '9' && (p[2] == '=' || p[3] == '='))
		return true; /* register state dump */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(p, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The verifier's reason, in one line: the last line of its log that is not
 * trace, and the instruction it was looking at (last "N: (..)" line). */
void bpf_verifier_reason(const char *log, char *out, size_t n, int *insn)
{
	const char *best = NULL, *p = log;
	size_t best_len = 0;
	*insn = -1;
	while (*p) {
		size_t len = strcspn(p, "\n");
		int at;
		if (sscanf(p, "%d: (", &at) == 1)
			*insn = at;
		if (!log_noise(p, len)) {
			best = p;
			best_len = len;
		}
		p += len + (p[len] == '\n');
	}
	snprintf(out, n, "%.*s", best ? (int)best_len : 15, best ? best : "no reason given");
	const char *at = strstr(out, "insn ");
	if (at)
		*insn = atoi(at + 5);
}

/* Common reasons in plainer words; the kernel's own text follows. */
const char *bpf_verifier_words(const char *r)
{
	static const struct {
		const char *key, *words;
	} table[] = {
		{"infinite loop", "a loop may never end"},
		{"too large", "the program is too large or too complex to verify"},
		{"invalid mem access", "a memory access the kernel cannot prove safe"},
		{"invalid access to map value", "an access outside a map value"},
		{"unreachable insn", "unreachable code"},
		{"back-edge", "a loop the kernel cannot bound"},
		{"unknown func", "a helper function this kernel does not offer to this probe type"},
		{"!read_ok", "a register read before it was set"},
		{"stack", "the program needs more than the 512-byte BPF stack"},
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strstr(r, table[i].key))
			return table[i].words;
	return NULL;
}

/* a 4 MiB verifier log (level 1) for the load o describes */
static char *with_log(struct bpf_prog_load_opts *o)
{
	size_t n = 4u << 20;
	char *log = xcalloc(1, n);
	o->log_buf = log;
	o->log_size = (uint32_t)n;
	o->log_level = 1;
	return log;
}

int bpf_prog_load_code(BpfProg *p, const BpfLoadAttr *a, bool verbose, char **log_out)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = a->expected_attach_type,
		    .attach_btf_id = a->attach_btf_id, .attach_btf_obj_fd = (__u32)a->attach_btf_obj_fd);
	/* a log only when verbose (bpftrace's -v shows it: on success the
	 * verifier's statistics) or on failure: logging slows every load */
	char *log = verbose ? with_log(&o) : NULL;
	int fd = bpf_prog_load(a->type, a->name, "GPL", p->insns, (size_t)p->ninsns, &o);
	if (fd >= 0 && log)
		p->vlog = xstrdup(log);
	if (fd < 0 && !log) { /* load again, now with the log that says why */
		log = with_log(&o);
		fd = bpf_prog_load(a->type, a->name, "GPL", p->insns, (size_t)p->ninsns, &o);
	}
	if (fd >= 0) {
		free(log);
		log = NULL;
	}
	*log_out = log;
	return fd;
}
