#include "load.h"

#include <bpf/btf.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/bpf_sys.h"
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
		{"cannot use helper bpf_probe_write_user", "the kernel refuses bpf_probe_write_user "
		 "while it is locked down (lockdown=integrity or stricter), and to some probe types always"},
		{"infinite loop", "a loop may never end"},
		{"too large", "the program is too large or too complex to verify"},
		{"invalid mem access", "a memory access the kernel cannot prove safe"},
		{"invalid access to map value", "an access outside a map value"},
		{"unreachable insn", "unreachable code"},
		{"back-edge", "a loop the kernel cannot bound"},
		{"trusted_ptr_", "a helper argument must be a kernel pointer the verifier trusts, one "
		 "loaded straight from the probe's context (path(ctx->file->f_path) in iter:task_file, "
		 "path(args.file->f_path) in fentry), not a number, a cast or a pointer read from memory"},
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
static char *with_log(BpfSysProg *o)
{
	size_t n = 4u << 20;
	char *log = xcalloc(1, n);
	o->log_buf = log;
	o->log_size = (uint32_t)n;
	o->log_level = 1;
	return log;
}

/* A program with subprograms (for loops' callbacks) needs BTF saying
 * where each function starts, and that the callbacks are static (the
 * verifier's rule for a function passed to a helper): one type blob,
 * `long main(void *)` and `static long cbN(long, long, long, long)`.
 * libbpf builds the blob; sonde's own bpf() loads it (libbpf's
 * btf__load_into_kernel would first probe the kernel for memcg accounting).
 * Returns the BTF's fd (-1: failed; o unchanged), the func_info in *fi. */
static int subprog_btf(const BpfProg *p, BpfSysProg *o, struct bpf_func_info **fi)
{
	struct btf *btf = btf__new_empty();
	if (!btf)
		return -1;
	int lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	int vptr = btf__add_ptr(btf, 0);
	int main_proto = btf__add_func_proto(btf, lng);
	btf__add_func_param(btf, "ctx", vptr);
	int cb_proto = btf__add_func_proto(btf, lng);
	static const char *const params[] = {"a", "b", "c", "d"};
	for (int i = 0; i < 4; i++)
		btf__add_func_param(btf, params[i], lng);
	*fi = xcalloc((size_t)p->nfuncs + 1, sizeof(**fi));
	(*fi)[0] = (struct bpf_func_info){0, (uint32_t)btf__add_func(btf, "sonde", BTF_FUNC_GLOBAL, main_proto)};
	for (int i = 0; i < p->nfuncs; i++) {
		char name[32];
		snprintf(name, sizeof(name), "sonde_loop%d", i);
		(*fi)[i + 1] = (struct bpf_func_info){(uint32_t)p->funcs[i],
			(uint32_t)btf__add_func(btf, name, BTF_FUNC_STATIC, cb_proto)};
	}
	uint32_t size = 0;
	const void *raw = btf__raw_data(btf, &size);
	int fd = raw ? bpf_sys_btf_load(raw, size) : -1;
	btf__free(btf);
	if (fd < 0)
		return -1;
	o->prog_btf_fd = (uint32_t)fd;
	o->func_info = *fi;
	o->func_info_cnt = (uint32_t)p->nfuncs + 1;
	o->func_info_rec_size = sizeof(**fi);
	return fd;
}

int bpf_prog_load_code(BpfProg *p, const BpfLoadAttr *a, bool verbose, char **log_out)
{
	BpfSysProg o = {.type = a->type, .name = a->name, .insns = p->insns,
			.ninsns = (size_t)p->ninsns, .expected_attach_type = a->expected_attach_type,
			.attach_btf_id = a->attach_btf_id,
			.attach_btf_obj_fd = (uint32_t)a->attach_btf_obj_fd};
	struct bpf_func_info *fi = NULL;
	int btf_fd = p->nfuncs ? subprog_btf(p, &o, &fi) : -1;
	/* a log only when verbose (bpftrace's -v shows it: on success the
	 * verifier's statistics) or on failure: logging slows every load */
	char *log = verbose ? with_log(&o) : NULL;
	int fd = bpf_sys_prog_load(&o);
	if (fd >= 0 && log)
		p->vlog = xstrdup(log);
	if (fd < 0 && !log) { /* load again, now with the log that says why */
		log = with_log(&o);
		fd = bpf_sys_prog_load(&o);
	}
	if (fd >= 0) {
		free(log);
		log = NULL;
	}
	if (btf_fd >= 0)
		close(btf_fd);
	free(fi);
	*log_out = log;
	return fd;
}
