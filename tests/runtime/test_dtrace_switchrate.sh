#!/usr/bin/env bash
# sonde dtrace -x switchrate: the period at which the event buffer is read
# is the timeout of the event loop's epoll_wait (seen with strace, so no
# timing decides the result): sonde's 20 ms without the option, 250 ms for
# 4hz, 1000 ms for the pragma's 1s.  strace runs without -f: a traced -c
# child could split sonde's line into "unfinished" and "resumed" halves.
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
command -v strace >/dev/null || { echo "strace not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timeouts() { # sonde dtrace args...: the distinct epoll_wait timeouts
	strace -qq -e trace=epoll_wait,epoll_pwait -o "$tmp/st" "$SONDE" dtrace -q "$@" \
		-c 'sleep 0.3' >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
	sed -nE 's/.*epoll_p?wait\([0-9]+, [^,]+, [0-9]+, (-?[0-9]+).*/\1/p' "$tmp/st" | sort -u | tr '\n' ' '
}
check() { # want got what
	[ "$1" == "$2" ] || { echo "$3: epoll_wait timeouts '$2', expected '$1'"; exit 1; }
}
check "20 " "$(timeouts -n 'tick-1s { }')" "default"
check "250 " "$(timeouts -x switchrate=4hz -n 'tick-1s { }')" "-x switchrate=4hz"
printf '#pragma D option switchrate=1s\ntick-1s { }\n' >"$tmp/s.d"
check "1000 " "$(timeouts -s "$tmp/s.d")" "#pragma D option switchrate=1s"
exit 0
