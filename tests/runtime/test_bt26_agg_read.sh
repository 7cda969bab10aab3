#!/usr/bin/env bash
# bpftrace 0.26 reads a count/sum/avg/min/max map as a number (print(@m[k]),
# printf, arithmetic, conditions): the program combines every CPU's slot of
# the key (compile/codegen_aggread.c).  The child calls getpgid(424242)
# 2*(cpu+1) times pinned to each CPU it may run on, so the values are known and come
# from several CPUs' slots.  hist/lhist/stats keys are refused in 0.26's
# words; 0.17 refuses all of them.
SONDE=${SONDE:-./sonde}
fail=0
unset SONDE_COMPAT
bad() { printf '%s\n' "$*"; fail=1; }
child='import os
cpus = sorted(os.sched_getaffinity(0))
for c in cpus:
    os.sched_setaffinity(0, {c})
    for i in range(2 * (c + 1)):
        try: os.getpgid(424242)
        except OSError: pass
print("cpus", " ".join(map(str, cpus)), flush=True)
os.sched_setaffinity(0, set(cpus))
try: os.getpgid(424243)
except OSError: pass'
prog='tracepoint:syscalls:sys_enter_getpgid /pid == cpid && args.pid == 424242/ {
  @c[1] = count(); @s[1] = sum(cpu + 1); @a[1] = avg(cpu * 10); @mn[1] = min(cpu + 5); @mx[1] = max(cpu + 5);
}
tracepoint:syscalls:sys_enter_getpgid /pid == cpid && args.pid == 424243/ {
  print(@c[1]); print(@s[1]); print(@a[1]); print(@mn[1]); print(@mx[1]); print(@c[2]);
  $t = @c[1] + @s[1]; printf("t %d\n", $t);
  if (@c[1] > 1) { printf("more than one\n"); }
  exit();
}'
out=$(timeout 20 "$SONDE" -e "$prog" -c "python3 -c '$child'" 2>&1)
read -r -a cpus <<<"$(sed -n 's/^cpus //p' <<<"$out")"
[ "${#cpus[@]}" -gt 0 ] || bad "no child output: $out"
c=0 s=0 tot=0 mn=999 mx=0
for k in "${cpus[@]}"; do
	n=$((2 * (k + 1)))
	c=$((c + n)); s=$((s + n * (k + 1))); tot=$((tot + n * k * 10))
	((k + 5 < mn)) && mn=$((k + 5))
	((k + 5 > mx)) && mx=$((k + 5))
done
want=$(printf '%s\n' $c $s $((tot / c)) $mn $mx 0 "t $((c + s))" "more than one")
got=$(grep -v -e '^cpus ' -e '^Attached' -e '^@' -e '^$' <<<"$out")
[ "$got" = "$want" ] || bad "values (cpus ${cpus[*]}): want $(tr '\n' ' ' <<<"$want")/ got: $out"
err=$(timeout 10 "$SONDE" -e 'begin { @h[1] = hist(3); print(@h[1]); }' 2>&1)
grep -q '^stdin:1:26-38: ERROR: Map type hist_t cannot print the value of individual keys. You must print the whole map.$' <<<"$err" \
	|| bad "hist: $err"
err=$(timeout 10 "$SONDE" -e 'begin { @l[1] = lhist(3, 0, 10, 1); print(@l[1]); }' 2>&1)
grep -q 'ERROR: Map type lhist_t cannot print the value of individual keys' <<<"$err" || bad "lhist: $err"
err=$(timeout 10 "$SONDE" -e 'begin { @t[1] = stats(3); print(@t[1]); }' 2>&1)
grep -q 'ERROR: stats_t type passed to print() is not printable' <<<"$err" || bad "stats: $err"
err=$(SONDE_COMPAT=0.17 timeout 10 "$SONDE" -e 'BEGIN { @c[1] = count(); print(@c[1]); }' 2>&1)
grep -q 'ERROR: The map passed to print() should not be indexed by a key' <<<"$err" || bad "0.17: $err"
err=$(SONDE_COMPAT=0.17 timeout 10 "$SONDE" -e 'BEGIN { @c = count(); $x = @c; }' 2>&1)
grep -q 'ERROR: @c holds count(), which can only be printed' <<<"$err" || bad "0.17 read: $err"
exit $fail
