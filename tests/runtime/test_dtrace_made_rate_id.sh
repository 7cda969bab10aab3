#!/usr/bin/env bash
# A profile-N/tick-N rate not in the provider's list is made on demand and
# numbered after every listed probe: a run must give it the id `-l` shows
# (the run skips reading the syscall probes, but counts them for it).
set -u
SONDE=${SONDE:-$(dirname "$0")/../../sonde}
for p in tick-1ms profile-1234; do
	listed=$("$SONDE" dtrace -l -n "$p" 2>/dev/null | awk 'NR == 2 { print $1 }')
	ran=$(timeout 30 "$SONDE" dtrace -n "$p { exit(0); }" 2>/dev/null | awk 'NR == 2 { print $2 }')
	[ -n "$listed" ] && [ "$listed" == "$ran" ] ||
		{ echo "$p: -l says id '$listed', the run's heading '$ran'"; exit 1; }
done
exit 0
