/* Attaching loaded BPF programs to perf events (tracepoints, software and
 * hardware events), and what an attachment holds: the fds whose closing
 * detaches it.  Used by the probe providers and by sonde trace. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a running probe holds: closing these fds detaches it. */
typedef struct Attached {
	int *fds;
	int n, cap;
} Attached;

void attached_add(Attached *a, int fd);
void attached_close(Attached *a);
/* after the output is complete: a child closes them once we have exited */
void attached_close_after_exit(Attached *a, int out_fd);

/* Returns the fd, or -errno with err filled. */
int open_perf_event(uint32_t type, uint64_t config, uint64_t period, bool freq,
		    int pid, int cpu, char *err, size_t errlen);
/* Runs prog_fd on the perf event pfd (a BPF link when the kernel has them),
 * and enables it; pfd, and the link, go into out. */
bool attach_perf_event(int pfd, int prog_fd, Attached *out, char *err, size_t errlen);
/* the same, the link carrying cookie (bpf_get_attach_cookie): a kernel
 * without BPF links cannot give one other than 0 */
bool attach_perf_event_cookie(int pfd, int prog_fd, uint64_t cookie, Attached *out, char *err, size_t errlen);
