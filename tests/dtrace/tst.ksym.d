/* Kernel variables written with a backquote: `x and vmlinux`x read the
 * kernel's memory at the address /proc/kallsyms gives (the run-time one,
 * KASLR included), as a long; &`x is that address, and a cast of it reads
 * the variable as another type.  __start_BTF (one of the few data symbols
 * a kernel without CONFIG_KALLSYMS_ALL lists) starts the kernel's BTF, so
 * its value is /sys/kernel/btf/vmlinux's first 8 bytes ($1 and $2: see
 * .args). */
#pragma D option quiet

BEGIN
{
	printf("address %s\n", (uint64_t)&`__start_BTF == $1 ? "as /proc/kallsyms" : "differs");
	printf("value %s\n", `__start_BTF == $2 ? "as /sys/kernel/btf/vmlinux" : "differs");
	printf("magic %x\n", vmlinux`__start_BTF & 0xffff);
	printf("hdr_len %d\n", ((struct btf_header *)&`__start_BTF)->hdr_len);
	this->f = (uint64_t)&`ksys_write;
	sym(this->f);
	printf("\n%a\n", this->f + 4);
	exit(0);
}
