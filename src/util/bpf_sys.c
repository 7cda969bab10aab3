#include "bpf_sys.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int fd = (int)syscall(__NR_bpf, cmd, attr, sizeof(*attr));
	return fd < 0 ? -errno : fd;
}

/* Kernels before 5.11 charge BPF memory to RLIMIT_MEMLOCK and refuse a
 * create with EPERM past it; newer ones charge the memory cgroup and never
 * do.  So the limit is raised only after an EPERM, and only if it is not
 * unlimited already (then once per process, as libbpf raises it): newer
 * kernels keep the caller's limit, which children started with -c inherit.
 * Returns whether the call is worth making again. */
static bool raised_memlock(int err)
{
	struct rlimit r;
	if (err != -EPERM || getrlimit(RLIMIT_MEMLOCK, &r) || r.rlim_cur == RLIM_INFINITY)
		return false;
	r.rlim_cur = r.rlim_max = RLIM_INFINITY;
	return setrlimit(RLIMIT_MEMLOCK, &r) == 0;
}

static int sys_bpf_retried(int cmd, union bpf_attr *attr)
{
	int fd = sys_bpf(cmd, attr);
	if (fd < 0 && raised_memlock(fd))
		fd = sys_bpf(cmd, attr);
	return fd;
}

static void copy_name(char *dst, const char *name)
{
	if (name)
		strncpy(dst, name, BPF_OBJ_NAME_LEN - 1);
}

int bpf_sys_map_create(enum bpf_map_type type, const char *name, uint32_t ksize,
		       uint32_t vsize, uint32_t entries, uint32_t flags)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = ksize;
	a.value_size = vsize;
	a.max_entries = entries;
	a.map_flags = flags;
	copy_name(a.map_name, name);
	int fd = sys_bpf_retried(BPF_MAP_CREATE, &a);
	errno = fd < 0 ? -fd : errno;
	return fd;
}

int bpf_sys_btf_load(const void *data, uint32_t size)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.btf = (uint64_t)(uintptr_t)data;
	a.btf_size = size;
	int fd = sys_bpf_retried(BPF_BTF_LOAD, &a);
	errno = fd < 0 ? -fd : errno;
	return fd;
}

/* The verifier may answer EAGAIN under memory pressure: libbpf tries 5 times. */
static int load_attempts(union bpf_attr *a)
{
	int fd = -EAGAIN;
	for (int i = 0; i < 5 && fd == -EAGAIN; i++)
		fd = sys_bpf_retried(BPF_PROG_LOAD, a);
	return fd;
}

int bpf_sys_prog_load(const BpfSysProg *p)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = p->type;
	a.insns = (uint64_t)(uintptr_t)p->insns;
	a.insn_cnt = (uint32_t)p->ninsns;
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.expected_attach_type = p->expected_attach_type;
	a.attach_btf_id = p->attach_btf_id;
	a.attach_btf_obj_fd = p->attach_btf_obj_fd;
	a.prog_btf_fd = p->prog_btf_fd;
	a.func_info = (uint64_t)(uintptr_t)p->func_info;
	a.func_info_cnt = p->func_info_cnt;
	a.func_info_rec_size = p->func_info_rec_size;
	copy_name(a.prog_name, p->name);
	if (p->log_buf && p->log_level) {
		a.log_buf = (uint64_t)(uintptr_t)p->log_buf;
		a.log_size = p->log_size;
		a.log_level = p->log_level;
	}
	int fd = load_attempts(&a);
	if (fd < 0 && p->log_buf && !p->log_level) { /* again, with the log that says why */
		a.log_buf = (uint64_t)(uintptr_t)p->log_buf;
		a.log_size = p->log_size;
		a.log_level = 1;
		fd = load_attempts(&a);
	}
	errno = fd < 0 ? -fd : errno;
	return fd;
}
