/* What this kernel supports: probe types, program and map types, helpers,
 * BTF; for --info and for errors that name a missing feature. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

bool kernel_has_kprobes(void);  /* kprobe PMU or kprobe_events */
bool kernel_has_kprobe_multi(void); /* one BPF link for many kprobes */
bool kernel_has_uprobes(void);
bool kernel_has_btf(void);
bool kernel_has_bpf_sdiv(void); /* BPF_SDIV/BPF_SMOD (cpu v4, Linux 6.6+); cached */
/* The running kernel's release is MAJOR.MINOR or later (uname) */
bool kernel_at_least(int major, int minor);
/* 0 when the kernel loads and attaches fentry programs (BPF trampolines),
 * else the errno; tracing_why() puts it in words.  Cached. */
int kernel_fentry_errno(void);
const char *tracing_why(int e);
/* 0 when the kernel loads and attaches tp_btf programs (BPF_PROG_TYPE_TRACING
 * on a raw tracepoint's BTF: bpftrace 0.26's rawtracepoint with args), else
 * the errno as kernel_fentry_errno's.  Cached. */
int kernel_tp_btf_errno(void);
void features_print(FILE *out); /* sonde --info */
