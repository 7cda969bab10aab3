# percpu_kaddr(name[, cpu]) (bpftrace 0.26) on a kernel that knows its
# per-CPU variables' addresses (Debian's has CONFIG_KALLSYMS_ALL; the host's
# does not, so tests/bt26 holds its two upstream tests back there).  Each
# CPU's run queue names its own CPU (struct rq's cpu), the current CPU's is
# the one `cpu` names, two CPUs' are at different addresses, a CPU the
# machine lacks gives 0 (whose fields read as 0), a null check written
# with && counts, and bpftrace's two tests (tests/runtime/call:
# "percpu_kaddr this cpu", "percpu_kaddr field access") pass as written:
# the verifier refused the second before sonde split the helper's result
# on NULL itself (builtins/percpu.c).
# timeout: 200
fail() { echo "$*"; exit 1; }
grep -q ' runqueues$' /proc/kallsyms || { echo "the kernel has no CONFIG_KALLSYMS_ALL"; exit 77; }
[ "$(grep -c '^processor' /proc/cpuinfo)" -ge 2 ] || { echo "needs two CPUs (VM_SMP)"; exit 77; }
run() { SONDE_COMPAT= timeout 60 sonde -e "$1" 2>&1; }
out=$(run 'begin {
	$r0 = (struct rq *)percpu_kaddr("runqueues", 0);
	$r1 = (struct rq *)percpu_kaddr("runqueues", 1);
	$here = (struct rq *)percpu_kaddr("runqueues");
	if ($r0 != 0 && $r1 != 0) {
		printf("cpus %d %d, this cpu %d, apart %d\n", $r0.cpu, $r1.cpu,
		       (uint64)$here.cpu == cpu, $r0 != $r1);
	}
	$none = (struct rq *)percpu_kaddr("runqueues", 4096);
	printf("cpu 4096: %d, its cpu field %d\n", $none == 0, $none.cpu);
	exit();
}')
echo "$out" | grep -qx 'cpus 0 1, this cpu 1, apart 1' || fail "run queues: [$out]"
echo "$out" | grep -qx 'cpu 4096: 1, its cpu field 0' || fail "a CPU past the machine's: [$out]"
out=$(run 'begin { if (*percpu_kaddr("process_counts") == *percpu_kaddr("process_counts", cpu)) { printf("SUCCESS\n") } exit(); }')
echo "$out" | grep -qx SUCCESS || fail "percpu_kaddr this cpu: [$out]"
out=$(run 'begin { $runq = ((struct rq *)percpu_kaddr("runqueues", 0)); if ($runq != 0) { printf("nr_running: %d\n", $runq.nr_running) } exit() }')
echo "$out" | grep -qE '^nr_running: [0-9]+$' || fail "percpu_kaddr field access: [$out]"
exit 0
