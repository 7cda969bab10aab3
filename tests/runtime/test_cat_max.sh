#!/usr/bin/env bash
# cat() prints at most BPFTRACE_CAT_BYTES_MAX bytes (default 10240), so an
# endless file (/dev/zero) ends too.
set -u
prog='BEGIN { cat("/proc/sys/kernel/ostype"); printf("|\n"); cat("/dev/zero"); printf("|\n"); exit(); }'
got=$(BPFTRACE_CAT_BYTES_MAX=5 timeout 20 "$SONDE" -e "$prog" 2>&1 | od -An -c | tr -s ' \n' ' ')
want=$(printf 'Attaching 1 probe...\nLinux|\n\0\0\0\0\0|\n\n\n' | od -An -c | tr -s ' \n' ' ')
[ "$got" == "$want" ] || { echo "BPFTRACE_CAT_BYTES_MAX=5: got [$got] want [$want]"; exit 1; }
n=$(timeout 20 "$SONDE" -e 'BEGIN { cat("/dev/zero"); exit(); }' 2>&1 | wc -c)
# "Attaching 1 probe...\n" (21) + 10240 zero bytes + the two blank lines at exit
[ "$n" = $((21 + 10240 + 2)) ] || { echo "default limit: $n bytes printed"; exit 1; }
