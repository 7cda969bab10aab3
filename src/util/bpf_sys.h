/* sonde's own bpf() calls for creating maps and loading programs and BTF.
 * libbpf's bpf_map_create/bpf_prog_load first probe the kernel with two
 * program loads (memcg accounting, object names: ~0.45 ms of every
 * start-up); sonde's kernels have object names (4.15+), and memlock is
 * raised only when a create fails for it (kernels before 5.11). */
#pragma once
#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/* A program load: what bpf_prog_load_opts held for sonde's loads. */
typedef struct BpfSysProg {
	enum bpf_prog_type type;
	const char *name; /* cut to 15 characters, as libbpf does */
	const struct bpf_insn *insns;
	size_t ninsns;
	uint32_t expected_attach_type, attach_btf_id, attach_btf_obj_fd;
	uint32_t prog_btf_fd, func_info_cnt, func_info_rec_size;
	const void *func_info;
	char *log_buf; /* log_level 0 with a buffer: a failed load is made again with level 1 */
	uint32_t log_size, log_level;
} BpfSysProg;

/* Each returns the new fd, or -errno (errno set too), as libbpf's do. */
int bpf_sys_map_create(enum bpf_map_type type, const char *name, uint32_t ksize,
		       uint32_t vsize, uint32_t entries, uint32_t flags);
int bpf_sys_prog_load(const BpfSysProg *p);
/* a BTF blob (a program's func_info types), without a log */
int bpf_sys_btf_load(const void *data, uint32_t size);
