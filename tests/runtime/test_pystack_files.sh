#!/usr/bin/env bash
# Python stacks system-wide (no -p, no -c) with more interpreter files than
# sonde once read (4): five copies of Debian's libpython3.11.so.1.0 under
# five directories, each loaded by a process of a small embedding program
# (LD_LIBRARY_PATH), plus /usr/bin/python3.11 and the system's libpython.
# Five processes run before sonde starts (their libpython's address read
# from their maps) and five more start after it (one Py_InitializeFromConfig
# program for every file, runtime/pybase.c): each one's frames are named.
SONDE=${SONDE:-./sonde}
LIB=/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0
[ -r $LIB ] && command -v cc >/dev/null || { echo "no $LIB or cc"; exit 77; }
tmp=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
printf 'extern int Py_BytesMain(int, char **);\nint main(int c, char **v) { return Py_BytesMain(c, v); }\n' \
	>"$tmp/embed.c"
cc -o "$tmp/pyfiles" "$tmp/embed.c" $LIB || { echo "cannot build the embedding program"; exit 1; }
for i in 1 2 3 4 5; do mkdir "$tmp/lib$i" && cp $LIB "$tmp/lib$i/"; done

# python process running function NAME under lib I, sleeping until killed
start() { # i, name
	LD_LIBRARY_PATH=$tmp/lib$1 "$tmp/pyfiles" -c "import time
def $2():
    print('ready', flush=True)
    while True:
        time.sleep(0.05)
$2()" >"$tmp/ready.$2" &
	pids+=($!)
	for _ in $(seq 600); do grep -q ready "$tmp/ready.$2" && return; sleep 0.05; done
}
for i in 1 2 3 4 5; do start $i before$i; done

"$SONDE" -q -e 'BEGIN { printf("attached\n"); }
tracepoint:syscalls:sys_enter_clock_nanosleep /comm == "pyfiles"/ { printf("%s\n", jstack(1)); }' \
	>"$tmp/out" 2>&1 &
spid=$!
for _ in $(seq 1200); do grep -q attached "$tmp/out" && break; kill -0 $spid 2>/dev/null || break; sleep 0.05; done
for i in 1 2 3 4 5; do start $i after$i; done

want=$(for w in before after; do for i in 1 2 3 4 5; do echo "[ <string>:5 ($w$i) ]"; done; done | sort)
names() { grep -o '\[ .* \]' "$tmp/out" | sort -u; }
for _ in $(seq 600); do [ "$(names)" == "$want" ] && break; kill -0 $spid 2>/dev/null || break; sleep 0.05; done
kill $spid 2>/dev/null; wait $spid 2>/dev/null
got=$(names)
[ "$got" == "$want" ] && exit 0
printf -- '--- expected\n%s\n--- got\n%s\n--- output\n' "$want" "$got"
head -20 "$tmp/out"
exit 1
