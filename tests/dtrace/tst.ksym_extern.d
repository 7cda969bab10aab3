/* A kernel variable takes its type from an extern declaration, as in
 * dtrace-utils: `x reads the declared type (members, sizeof) and &`x is a
 * pointer to it.  __start_BTF (one of the few data symbols a kernel
 * without CONFIG_KALLSYMS_ALL lists) starts the kernel's BTF: a struct
 * btf_header with magic 0xeb9f, version 1 and hdr_len 24. */
#pragma D option quiet

extern struct btf_header __start_BTF;

BEGIN
{
	printf("magic %x version %d hdr_len %d\n", `__start_BTF.magic, `__start_BTF.version,
	    vmlinux`__start_BTF.hdr_len);
	printf("sizeof %d, via & %d\n", sizeof(`__start_BTF), (&`__start_BTF)->hdr_len);
	exit(0);
}
