#!/usr/bin/env bash
# Probes a Python program declares at run time (python/sonde_probes.py):
# the ELF it builds in memory is a valid shared object with stapsdt notes;
# sonde lists them in the running process (through /proc/PID/map_files),
# attaches, prints their arguments; @fbt entry/return pairs match the calls;
# the semaphores are down again once sonde has left.  Each @fbt function's
# probes are in a function of its name: D's fbt$PID::greet:entry matches
# greet's calls only (they were all in sonde_probe_entry, and matched none).
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x $PY ] || { echo "no $PY"; exit 77; }
export PYTHONPATH=$PWD/python
fail=0
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
expect() { [ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }; }

# the image alone: readelf sees four probes with semaphores and arguments
$PY -c 'import sonde_probes as sp, sys
p = sp.Provider("x"); p.probe("a", int, str); p.probe("b")
sys.stdout.buffer.write(sp.build_elf("x", list(p.probes.values())))' >"$tmp/x.so"
got=$(readelf -nW "$tmp/x.so" | grep -E "Provider|Name|Arguments" | sed -E 's/[[:space:]]+/ /g; s/^ //; s/ $//')
expect "readelf" "stapsdt 0x0000002b NT_STAPSDT (SystemTap probe descriptors) Provider: x
Name: a
Arguments: -8@%rdi 8@%rsi
stapsdt 0x0000001d NT_STAPSDT (SystemTap probe descriptors) Provider: x
Name: b
Arguments:" "$got"

$PY tests/python/probes_app.py wait >"$tmp/app.out" &
pid=$!
for _ in $(seq 200); do grep -q ready "$tmp/app.out" && break; sleep 0.05; done
got=$("$SONDE" -p $pid -l 'usdt:*' 2>&1 | grep -E ':(myapp|fbt):' | sed -E "s|/proc/$pid/map_files/[0-9a-f]+-[0-9a-f]+|MAP|")
expect "-l" "usdt:MAP:fbt:entry
usdt:MAP:fbt:entry
usdt:MAP:fbt:return
usdt:MAP:fbt:return
usdt:MAP:myapp:request__done
usdt:MAP:myapp:request__start" "$(sort <<<"$got")"
got=$("$SONDE" -q --no-warnings -p $pid -e '
usdt:*:myapp:request__start { printf("start %s %d\n", str(arg0), arg1); if (str(arg0) == "last") { exit(); } }
usdt:*:myapp:request__done { printf("done %d\n", arg0); }
usdt:*:fbt:entry { printf("-> %s(%s)\n", str(arg0), str(arg1)); @calls[str(arg0)] = count(); }
usdt:*:fbt:return { printf("<- %s = %s\n", str(arg0), str(arg1)); @rets[str(arg0)] = count(); }' 2>&1)
expect "fired" "start GET /0 0
-> handler(0, y=3)
<- handler = 0
done 0
start GET /1 1
-> handler(1, y=3)
<- handler = 3
done 10
start GET /2 2
-> handler(2, y=3)
<- handler = 6
done 20
-> greet('bob')
<- greet = 'hello bob'
start last -1


@calls[greet]: 1
@calls[handler]: 3
@rets[greet]: 1
@rets[handler]: 3" "$got"
wait $pid
expect "semaphores after detach" "ready
enabled after detach: False False" "$(cat "$tmp/app.out")"

$PY tests/python/probes_app.py >"$tmp/app.out" &
pid=$!
for _ in $(seq 200); do grep -q ready "$tmp/app.out" && break; sleep 0.05; done
got=$("$SONDE" dtrace -l -p $pid -n 'fbt$target::handler:' 2>&1 | awk 'NR > 1 { print $1 ~ /^[0-9]+$/, $2, $4, $5 }')
expect "dtrace -l fbt\$target::handler:" "1 fbt$pid handler entry
1 fbt$pid handler return" "$got"
got=$(timeout 60 "$SONDE" dtrace -q -p $pid -n 'myapp$target::: { }
fbt$target::greet:entry { printf("%s %s(%s)\n", probefunc, copyinstr(arg0), copyinstr(arg1)); exit(0); }' 2>&1)
expect "dtrace fbt\$target::greet:entry" "greet greet('bob')" "$got"
wait $pid
exit $fail
