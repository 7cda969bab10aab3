#!/usr/bin/env bash
# sonde trace's programs must stay cheap to verify: the verifier's work is
# what a user waits for before the command starts. The capture code is
# written so that paths with different record positions prune each other;
# without that the sys_exit program cost the verifier ~125 processed
# instructions per instruction (227,000 insns, a third of a second here).
# Checked with the statistics -v prints, for the option sets that change the
# programs (plain, -f with a large -s, -c, -T).
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
[ "$(id -u)" = 0 ] || exit 77
fail() { echo "FAIL: $*"; exit 1; }
for opts in "" "-f -s 5000" "-c" "-T -y"; do
	# shellcheck disable=SC2086
	out=$("$SONDE" trace -v $opts -o /dev/null -- true 2>&1) || fail "sonde trace -v $opts: $out"
	n=$(grep -c 'insns, verified in' <<<"$out")
	[ "$n" -ge 4 ] || fail "-v $opts printed no statistics: $out"
	while read -r what insns processed; do
		[ "$processed" -ge 0 ] || fail "$opts: $what: no processed count"
		[ "$processed" -le $((insns * 8)) ] ||
			fail "$opts: $what: $processed insns processed for $insns insns"
	done < <(sed -n 's/^sonde trace: \([a-z_]*\): \([0-9]*\) insns, verified in [0-9-]* us (\([0-9-]*\) insns processed)$/\1 \2 \3/p' <<<"$out")
done
echo ok
