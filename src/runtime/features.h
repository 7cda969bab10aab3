/* What this kernel supports: probe types, program and map types, helpers,
 * BTF; for --info and for errors that name a missing feature. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

bool kernel_has_kprobes(void);  /* kprobe PMU or kprobe_events */
bool kernel_has_kprobe_multi(void); /* one BPF link for many kprobes */
bool kernel_has_uprobes(void);
bool kernel_has_btf(void);
void features_print(FILE *out); /* sonde --info */
