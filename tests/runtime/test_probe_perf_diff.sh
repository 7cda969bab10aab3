#!/usr/bin/env bash
# sonde probe -F/-L/-V against perf probe (Debian's linux-perf): the same
# stdout, stderr and exit status, on a test program built -O0, -O2 and
# DWARF 4 with compressed sections, on a copy without debug info, and on
# sonde itself (about 200 of its functions).
cd "$(dirname "$0")/../.."
set -f # arguments hold globs
command -v perf >/dev/null || { echo "perf (linux-perf) is not installed"; exit 77; }
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 runs=0 chance=0 bias=0
# perf 6.1 decides whether an inline call site's line is probe-able from an
# uninitialized variable (cu_find_lineinfo when the address has no statement
# line); sonde lists such lines.  A -L listing that differs only in which
# lines are numbered (so also where it ends) is counted apart, not failed.
by_chance() {
	local x y
	x=$(sed -E 's/^ *[0-9-]+  /         /' <<<"$1")
	y=$(sed -E 's/^ *[0-9-]+  /         /' <<<"$2")
	[[ "$x" == "$y"* || "$y" == "$x"* ]]
}
# perf 6.1 names the place of a function whose DIE has only DW_AT_ranges
# (split into hot and cold parts) from a symbol lookup off by the module's
# bias (@<check_agg+8> for cmp_ent): a -V listing that differs only in the
# @<SYMBOL+OFFSET> lines is counted apart too.
by_bias() {
	[ "$(sed -E 's/^\t@<[^>]*>$/@/' <<<"$1")" == "$(sed -E 's/^\t@<[^>]*>$/@/' <<<"$2")" ]
}
same() { # BIN ARGS...
	local bin=$1; shift
	local a b ra rb
	a=$(perf --buildid-dir "$tmp/buildid" probe -x "$bin" "$@" 2>&1); ra=$?
	b=$("$SONDE" probe -x "$bin" "$@" 2>&1); rb=$?
	runs=$((runs + 1))
	if [ "$a" != "$b" ] && [ "$1" = -L ] && [ $ra = $rb ] && by_chance "$a" "$b"; then
		chance=$((chance + 1))
	elif [ "$a" != "$b" ] && [ "$1" = -V ] && [ $ra = $rb ] && by_bias "$a" "$b"; then
		bias=$((bias + 1))
	elif [ "$a" != "$b" ] || [ $ra != $rb ]; then
		fails=$((fails + 1))
		echo "DIFF: $bin $* (perf $ra, sonde $rb)"
		diff <(echo "$a") <(echo "$b") | head -10
	fi
}
strip -o "$tmp/nodebug" build/progs/probe_target_O0
for bin in build/progs/probe_target_O0 build/progs/probe_target_O2 build/progs/probe_target_dw4z; do
	for args in "-F" "-F w*" "-F !w*&o*" "--filter m* -F w*" "-L weigh" "-L main" "-L open_named" \
		"-L probe_target.c:20" "-L probe_target.c:20-24" "-L weigh:2+2" "-L weigh:-4" "-L weigh:2-4" \
		"-V weigh" "-V main" "-V main:4" "-V weigh:3" "-V open_named:3" "-V probe_target.c:30" \
		"-V weigh --externs" "-V weigh --filter s*" "-V main:4 --filter s*" "-V weigh%return" \
		"-V weigh+4" "-V main;weigh*" "-V open_named;snprintf*" \
		"-V weigh:1" "-L nosuch" "-V nosuch" "-L weigh:50" "-V weigh:50" "-L probe_target.c:500" \
		"-V probe_target.c:29" "-L nofile.c:3" "-V total" "-L calls"; do
		# shellcheck disable=SC2086
		same "$bin" $args
	done
done
same "$tmp/nodebug" -L main
same "$tmp/nodebug" -V main
same "$tmp/nodebug" -F
# sonde itself (-O2, many CUs, inlines, location lists): a function split
# into hot and cold parts has only DW_AT_ranges, and perf names its place
# from a symbol lookup off by its module bias (parse_program+672 for
# dwarf_func, or no symbol for F.cold); those are left out of -V
cp "$SONDE" "$tmp/sonde_bin"
same "$tmp/sonde_bin" -F
cold=" $(readelf -sW "$tmp/sonde_bin" | awk '$8 ~ /\.cold$/ {sub(/\.cold$/, "", $8); print $8}' | tr '\n' ' ') "
# about 170 functions spread over the binary (every 3rd when sonde had 600:
# with 1700 it took over the runner's 120 s).  A loaded machine compares
# fewer: the sample stops 70 s into the test, so that the runner's 120 s
# never decide the result (how many were compared is printed)
funcs=$(perf probe -x "$tmp/sonde_bin" -F)
step=$(( $(wc -w <<<"$funcs") / 170 )); [ $step -ge 3 ] || step=3
i=0
for f in $funcs; do
	i=$((i + 1))
	[ $((i % step)) = 0 ] || continue
	[ $SECONDS -lt 70 ] || { echo "note: sample of sonde's functions stopped at $i of $(wc -w <<<"$funcs") (70 s)"; break; }
	same "$tmp/sonde_bin" -L "$f"
	case "$cold" in *" $f "*) continue ;; esac
	case "$f" in *.cold) continue ;; esac
	# perf sometimes cannot name the place at all ("Failed to find symbol at
	# 0x...", then "@<(null)+0>"): which functions hit that depends on the
	# binary's layout (cmp_ent in one build), so those are perf's failures
	perf probe -x "$tmp/sonde_bin" -V "$f" 2>&1 | grep -q '^Failed to find symbol' && continue
	same "$tmp/sonde_bin" -V "$f"
done
# names that several symbols share (static functions and variables of
# different files: `i.1`, `cmp_name`): perf takes the lowest address
for f in $(sort <<<"$funcs" | uniq -d); do
	[ $SECONDS -lt 90 ] || break
	same "$tmp/sonde_bin" -L "$f"
	case "$cold" in *" $f "*) continue ;; esac
	same "$tmp/sonde_bin" -V "$f"
done
# the kernel without its debug info: perf's message, then which package has it
if [ ! -e "/usr/lib/debug/boot/vmlinux-$(uname -r)" ]; then
	for opt in -L -V; do
		# the reason perf gives depends on what it finds ("Invalid ELF file"
		# for a vmlinux without sections): compared up to the colon
		norm='s/^(Failed to find the path for the kernel):.*/\1/'
		a=$(perf probe "$opt" vfs_read 2>&1 | sed -E "$norm"; echo "rc=${PIPESTATUS[0]}")
		b=$("$SONDE" probe "$opt" vfs_read 2>&1 | sed -E "$norm"; echo "rc=${PIPESTATUS[0]}")
		runs=$((runs + 1))
		hint="sonde: the kernel's debug info is not installed: Debian's package linux-image-$(uname -r)-dbg provides it"
		if [ "$(grep -vxF "$hint" <<<"$b")" != "$a" ] || ! grep -qxF "$hint" <<<"$b"; then
			fails=$((fails + 1))
			echo "DIFF: kernel $opt"; diff <(echo "$a") <(echo "$b")
		fi
	done
fi
echo "$runs comparisons, $fails different, $chance -L listings differing only in inline call sites," \
	"$bias -V listings only in the place's name"
[ $fails = 0 ]
