#!/usr/bin/env bash
# Positional parameters follow the program, so they need a scripted test:
# $1.. as numbers and via str(), $# counts them, missing ones are 0 / "".
SONDE=${SONDE:-./sonde}
fail=0
check() { # expected, then sonde arguments
	local want=$1; shift
	local got; got=$("$SONDE" "$@" 2>&1)
	if [ "$got" != "$want" ]; then
		printf 'sonde %s\n--- expected\n%s\n--- got\n%s\n' "$*" "$want" "$got"; fail=1
	fi
}
check $'Attaching 1 probe...\n42 7 hello 42 3' \
	-e 'BEGIN { printf("%d %d %s %s %d\n", $1, $2, str($3), str($1), $#); exit(); }' 42 7 hello
check $'Attaching 1 probe...\n0 [] 2' \
	-e 'BEGIN { printf("%d [%s] %d\n", $4, str($5), $#); exit(); }' 1 2
check $'Attaching 1 probe...\n-5 16' \
	-e 'BEGIN { printf("%d %d\n", $1, $2); exit(); }' -- -5 0x10
exit $fail
