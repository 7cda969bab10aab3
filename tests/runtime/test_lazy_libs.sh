#!/usr/bin/env bash
# libdw (with liblzma, libbz2) and libprotobuf-c are loaded when a run first
# reads DWARF or writes a pprof profile, not at start-up (Makefile's LDLIBS,
# sym/libdw_load.c, export/protobuf_load.c): the dynamic sonde does not need
# them, a run that reads no DWARF works without them, and one that does says
# which library is missing.
SONDE=${SONDE:-./sonde}
fail() { printf 'FAIL: %s\n--- output\n%s\n' "$1" "$out"; exit 1; }

needed=$(readelf -d "$SONDE" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "$SONDE is linked statically: nothing loaded later"; exit 77; }
out=$needed
grep -qE '^(libdw|liblzma|libbz2|libprotobuf-c)\.' <<<"$needed" && fail "loaded at start-up"

command -v unshare >/dev/null || { echo "unshare not installed"; exit 77; }
# the libraries hidden in a private mount namespace
hide() {
	local libs=
	for l in libdw.so.1 libprotobuf-c.so.1; do
		libs+=" $(readlink -f "$(ldconfig -p | awk -v l="$l" '$1 == l { print $NF; exit }')")"
	done
	unshare -m --propagation private sh -c \
		'for f in '"$libs"'; do mount --bind /dev/null "$f" || exit 99; done; exec "$@"' sh "$@"
}
out=$(hide "$SONDE" -e 'BEGIN { printf("up\n"); exit(); }' 2>&1)
rc=$?
[ $rc = 99 ] && { echo "cannot hide the libraries (bind mounts)"; exit 77; }
[ $rc = 0 ] && grep -q '^up$' <<<"$out" || fail "a run without DWARF needs the libraries"

out=$(hide "$SONDE" probe -x build/progs/probe_target_O0 -L main 2>&1)
[ $? = 1 ] || fail "reading DWARF without libdw did not fail"
grep -q '^sonde: reading debug info needs libdw.so.1 (elfutils; Debian: apt install libdw1): ' <<<"$out" ||
	fail "no message naming libdw"
out=$(hide "$SONDE" -q -f pprof -o /dev/null -e 'BEGIN { @[kstack] = count(); exit(); }' 2>&1)
[ $? = 1 ] || fail "-f pprof without libprotobuf-c did not fail"
grep -q '^sonde: -f pprof needs libprotobuf-c.so.1 (Debian: apt install libprotobuf-c1): ' <<<"$out" ||
	fail "no message naming libprotobuf-c"
echo ok
