#!/usr/bin/env bash
# -o FILE: program output (Attaching line, printf, maps) goes to FILE.
# bpftrace 0.17 quirk: the "\n\n" printed before the exit-time maps goes to
# stdout, not to FILE, and FILE gets no blank line between maps.
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$("$SONDE" -o "$tmp/out" -e 'BEGIN { printf("hello\n"); @x = 3; @y[1] = 4; @z[2] = 5; exit(); }' 2>&1 | od -c)
want=$'Attaching 1 probe...\nhello\n@x: 3\n@y[1]: 4\n@z[2]: 5'
got=$(cat "$tmp/out")
[ "$out" == "$(printf '\n\n' | od -c)" ] || { echo "stdout should be two newlines: $out"; exit 1; }
[ "$got" == "$want" ] || { printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$got"; exit 1; }
# json into a file
"$SONDE" -f json -o "$tmp/j" -e 'BEGIN { printf("a\n"); exit(); }' || exit 1
want=$'{"type": "attached_probes", "data": {"probes": 1}}\n{"type": "printf", "data": "a\\n"}'
got=$(cat "$tmp/j")
[ "$got" == "$want" ] || { printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$got"; exit 1; }
exit 0
