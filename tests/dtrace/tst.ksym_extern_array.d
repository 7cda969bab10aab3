/* An extern array declaration gives a kernel variable its array type, as
 * in dtrace-utils: `x[i] reads an element, sizeof(`x) is the array's, and
 * `T x[]` has no size to check indices against.  __start_notes starts the
 * kernel's ELF notes (/sys/kernel/notes): the build-id note's header
 * (namesz 4, descsz 20, type 3) then its name "GNU"; __start_BTF starts a
 * struct btf_header: magic 0xeb9f, version 1, flags 0, hdr_len 24. */
#pragma D option quiet

extern char __start_notes[16];
extern unsigned int __start_BTF[];

BEGIN
{
	printf("%d %d %d %c%c%c %d\n", `__start_notes[0], `__start_notes[4], `__start_notes[8],
	    `__start_notes[12], `__start_notes[13], `__start_notes[14], sizeof(`__start_notes));
	printf("%s\n", stringof(`__start_notes) == "\004" ? "string" : "?");
	printf("%x %d\n", `__start_BTF[0], vmlinux`__start_BTF[1]);
	exit(0);
}
