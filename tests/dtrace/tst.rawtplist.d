/* -l and -lv of the rawtp provider: a tracepoint event under its category,
 * a bare tracepoint (no tracefs event, only the kernel's BTF) under vmlinux,
 * their arguments' count from the BTF prototype */
