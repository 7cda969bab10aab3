/* An integer extern declaration gives a kernel variable its width
 * (undeclared it is a long, 8 bytes): the first two bytes of the kernel's
 * BTF are its magic, 0xeb9f; each declaration types its own variable. */
#pragma D option quiet

extern unsigned short __start_BTF;
extern short __stop___tracepoints_ptrs;

BEGIN
{
	printf("%x %d %d\n", `__start_BTF, sizeof(`__start_BTF), `__start_BTF > 0);
	printf("%d\n", sizeof(`__stop___tracepoints_ptrs));
	exit(0);
}
