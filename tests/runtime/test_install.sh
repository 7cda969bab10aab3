#!/usr/bin/env bash
# make install DESTDIR=...: the binary, the tools (found by the installed
# binary's --tools/--tool) and the man pages (man shows them); make deb: a
# package that dpkg installs and removes cleanly (into a dpkg root of its
# own, so that the machine's packages are not touched), with `man sonde`
# working from the installed tree.
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { printf 'FAIL %s\n' "$1"; [ -f "$tmp/log" ] && tail -20 "$tmp/log"; exit 1; }
command -v man >/dev/null || { echo "man is not installed (man-db)"; exit 77; }

make --no-print-directory install DESTDIR="$tmp/d" PREFIX=/usr/local >"$tmp/log" 2>&1 || fail "make install"
p=$tmp/d/usr/local
for f in bin/sonde share/sonde/tools/opensnoop.bt share/sonde/tools/biolatency.bt \
	share/man/man8/sonde.8 share/man/man8/sonde-trace.8 share/man/man8/sonde-flamegraph.8 \
	share/man/man8/sonde-probe.8 share/man/man8/sonde-dtrace.8; do
	[ -f "$p/$f" ] || fail "make install: no $f"
done
[ -x "$p/bin/sonde" ] || fail "make install: sonde not executable"
"$p/bin/sonde" --tools | grep -qE '^opensnoop +Which files' || fail "installed sonde --tools"
"$p/bin/sonde" -h | grep -qE 'sonde trace .*sonde trace -h' || fail "sonde -h: no trace subcommand"
"$p/bin/sonde" -h | grep -qE 'sonde flamegraph ' || fail "sonde -h: no flamegraph subcommand"
"$p/bin/sonde" trace -h 2>&1 | grep -q -- '-e trace=SET' || fail "sonde trace -h"
for page in sonde sonde-trace sonde-flamegraph sonde-probe sonde-dtrace; do
	MANWIDTH=80 man -M "$p/share/man" "$page" 2>/dev/null | grep -qi "^NAME" || fail "man $page"
done
MANWIDTH=80 man -M "$p/share/man" sonde 2>/dev/null | grep -q 'syscall_name' || fail "man sonde: content"
MANWIDTH=80 man -M "$p/share/man" sonde-probe 2>/dev/null | grep -q 'locals\.NAME' || fail "man sonde-probe: content"
MANWIDTH=80 man -M "$p/share/man" sonde-dtrace 2>/dev/null | grep -q 'errtags' || fail "man sonde-dtrace: content"
[ ! -e "$p/sbin/dtrace" ] || fail "make install: sbin/dtrace made without install-dtrace-link"
# the dtrace link: sonde run under that name is sonde dtrace (a #! script runs)
make --no-print-directory install-dtrace-link DESTDIR="$tmp/d" PREFIX=/usr/local >"$tmp/log" 2>&1 || fail "make install-dtrace-link"
[ "$(readlink "$p/sbin/dtrace")" = ../bin/sonde ] || fail "sbin/dtrace is not a link to ../bin/sonde"
"$p/sbin/dtrace" -V | grep -q '^dtrace: ' || fail "dtrace -V through the link"
printf '#!%s -qs\nBEGIN { printf("%%s\\n", $$1); exit(0); }\n' "$p/sbin/dtrace" > "$tmp/s.d"; chmod +x "$tmp/s.d"
[ "$("$tmp/s.d" hello 2>&1)" = hello ] || fail "a #!dtrace -qs script through the link: $("$tmp/s.d" hello 2>&1)"
make --no-print-directory uninstall DESTDIR="$tmp/d" PREFIX=/usr/local >"$tmp/log" 2>&1 || fail "make uninstall"
[ ! -e "$p/sbin/dtrace" ] && [ ! -e "$p/bin/sonde" ] || fail "make uninstall left sbin/dtrace or bin/sonde"

make --no-print-directory deb >"$tmp/log" 2>&1 || fail "make deb"
deb=$(ls build/sonde_*_"$(dpkg --print-architecture)".deb) || fail "no .deb built"
dpkg-deb -f "$deb" Package | grep -qx sonde || fail "package name"
r=$tmp/root
mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"; touch "$r/var/lib/dpkg/status"
dpkg --root="$r" --force-depends --force-script-chrootless -i "$deb" >"$tmp/log" 2>&1 || fail "dpkg -i"
dpkg --root="$r" -s sonde 2>/dev/null | grep -qx 'Status: install ok installed' || fail "dpkg -s after -i"
"$r/usr/bin/sonde" -V | grep -q '^sonde v' || fail "packaged sonde -V"
"$r/usr/bin/sonde" --tools | grep -qE '^biosnoop ' || fail "packaged sonde --tools"
MANWIDTH=80 man -M "$r/usr/share/man" sonde 2>/dev/null | grep -q 'bpftrace-language' || fail "man sonde (package)"
dpkg --root="$r" --force-script-chrootless -r sonde >"$tmp/log" 2>&1 || fail "dpkg -r"
left=$(find "$r/usr" -path '*sonde*' 2>/dev/null)
[ -z "$left" ] || fail "files left after dpkg -r: $left"
exit 0
