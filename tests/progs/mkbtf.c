/* Writes a raw BTF file holding one struct no kernel has, for the
 * BPFTRACE_BTF / BPFTRACE_VMLINUX tests (test_btf_env.sh):
 *   struct sonde_btf_probe { long a; long b; int c; };   (24 bytes) */
#include <bpf/btf.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkbtf FILE\n");
		return 2;
	}
	struct btf *b = btf__new_empty();
	int l = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	if (!b || l < 0 || i < 0 || btf__add_struct(b, "sonde_btf_probe", 24) < 0 ||
	    btf__add_field(b, "a", l, 0, 0) || btf__add_field(b, "b", l, 64, 0) ||
	    btf__add_field(b, "c", i, 128, 0)) {
		perror("mkbtf: building BTF");
		return 1;
	}
	__u32 size;
	const void *raw = btf__raw_data(b, &size);
	FILE *f = fopen(argv[1], "wb");
	if (!raw || !f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	btf__free(b);
	return 0;
}
