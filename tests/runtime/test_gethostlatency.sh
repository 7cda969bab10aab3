#!/usr/bin/env bash
# tools/gethostlatency.bt (bpftrace's recipe as is): `getent ahosts
# localhost` calls getaddrinfo; one line with its pid, comm and host.
SONDE=${SONDE:-./sonde}
getent=$(command -v getent) || { echo "getent is not installed"; exit 77; }
got=$("$SONDE" -c "$getent ahosts localhost" tools/gethostlatency.bt 2>&1 | grep -v '^[0-9a-f:.]* *STREAM\|DGRAM\|RAW')
pat='^Attaching 7 probes\.\.\.
Tracing getaddr/gethost calls\.\.\. Hit Ctrl-C to end\.
TIME      PID    COMM              LATms HOST
[0-9]{2}:[0-9]{2}:[0-9]{2}  [0-9]+ +getent +[0-9]+ localhost
*$'
if ! [[ $got =~ $pat ]]; then
	printf -- '--- expected (regex)\n%s\n--- got\n%s\n' "$pat" "$got"; exit 1
fi
