/* Kernel symbols (/proc/kallsyms, needs root for real addresses) and the
 * feature probes behind sonde --info. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "syms_check.h"
#include "sym/features.h"
#include "sym/ksyms.h"

/* The address of a symbol of one of TYPES straight from /proc/kallsyms,
 * or 0; *found_name gets the first such symbol's name when want is NULL. */
static unsigned long long kallsyms_lookup(const char *want, const char *types, char *found_name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], type, name[256];
	unsigned long long addr, found = 0;
	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    strchr(types, type) && (!want || !strcmp(name, want))) {
			found = addr;
			if (found_name)
				strcpy(found_name, name);
		}
	if (f)
		fclose(f);
	return found;
}

static void test_ksyms(void)
{
	const char *name = "schedule";
	unsigned long long want = kallsyms_lookup(name, "Tt", NULL);
	if (!want) {
		printf("ksyms: no readable addresses (not root?), skipped\n");
		return;
	}
	CHECK(ksym_addr(&test_syms, name) == want);
	uint64_t off = 99;
	CHECK_STR(ksym_name(&test_syms, want, &off), name);
	CHECK(off == 0);
	CHECK_STR(ksym_name(&test_syms, want + 3, &off), name);
	CHECK(off == 3);
	CHECK(ksym_name(&test_syms, 0x1000, &off) == NULL);
	CHECK(ksym_addr(&test_syms, "no_such_symbol_in_any_kernel") == 0);
	/* kaddr() of data: the first bss/data/rodata symbol listed resolves,
	 * and never names a text address */
	char dname[256];
	unsigned long long daddr = kallsyms_lookup(NULL, "BbDdRr", dname);
	if (daddr) {
		CHECK(ksym_addr(&test_syms, dname) == daddr);
		uint64_t doff;
		const char *t = ksym_name(&test_syms, want, &doff);
		CHECK(t && strcmp(t, dname));
	}
	/* Repeated lookups reuse the loaded table. */
	for (int i = 0; i < 1000; i++)
		CHECK(ksym_name(&test_syms, want + 1, NULL) != NULL);
}

/* A text symbol name that two functions of vmlinux share, or 0. */
static bool kallsyms_duplicate(char *out)
{
	FILE *f = popen("awk '$2 ~ /^[tT]$/ && NF == 3 { if (c[$3]++) { print $3; exit } }' /proc/kallsyms", "r");
	bool ok = f && fscanf(f, "%255s", out) == 1;
	if (f)
		pclose(f);
	return ok;
}

/* The batch lookup (kprobe wildcards before Linux 6.2) agrees with a plain
 * reading of kallsyms; a shared name and an unknown one get 0. */
static void test_unique_addrs(void)
{
	unsigned long long sched = kallsyms_lookup("schedule", "Tt", NULL);
	if (!sched)
		return;
	char dup[256] = "no_duplicate_found";
	bool has_dup = kallsyms_duplicate(dup);
	const char *names[] = {"schedule", dup, "no_such_symbol_in_any_kernel", "vfs_read", "schedule"};
	uint64_t addrs[5] = {1, 1, 1, 1, 1};
	ksym_unique_addrs(names, 5, addrs);
	CHECK(addrs[0] == sched);
	CHECK(!has_dup || addrs[1] == 0);
	CHECK(addrs[2] == 0);
	CHECK(addrs[3] == kallsyms_lookup("vfs_read", "Tt", NULL));
	CHECK(addrs[4] == sched); /* a name asked twice is one function */
	ksym_unique_addrs(names, 0, addrs);
}

static void test_features(void)
{
	CHECK(kernel_has_btf() == (access("/sys/kernel/btf/vmlinux", R_OK) == 0));
	bool kp = kernel_has_kprobes();
	CHECK(kp == kernel_has_kprobes()); /* cached, stable */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	features_print(f);
	fclose(f);
	CHECK(!strncmp(buf, "System\n  OS: Linux ", 19));
	CHECK(strstr(buf, "\nKernel helpers\n  probe_read_kernel: "));
	CHECK(strstr(buf, "\nMap types\n  hash: "));
	CHECK(strstr(buf, "\nProgram types\n  kprobe: "));
	CHECK(strstr(buf, "\nProbe types\n  kprobe: "));
	CHECK(strstr(buf, kp ? "  kprobe: yes\n" : "  kprobe: no (kernel built without CONFIG_KPROBES"));
	CHECK(strstr(buf, "  fentry/fexit (kfunc/kretfunc): "));
	CHECK(strstr(buf, "  iterators (iter:task...): "));
	CHECK(strstr(buf, "\nSecurity\n  lockdown: "));
	CHECK(strstr(buf, "  kernel.perf_event_paranoid: "));
	free(buf);
}

int main(void)
{
	test_ksyms();
	test_unique_addrs();
	test_features();
	return check_done("ksyms");
}
