#!/usr/bin/env bash
# deploy/: the systemd unit's command line runs as a user holding only the
# capabilities the unit grants (and each of them is needed for what the unit's
# comment says), the unit passes systemd-analyze verify, and the DaemonSet
# grants the same capabilities and runs the same kind of command.
SONDE=${SONDE:-./sonde}
unit=deploy/systemd/sonde-metrics@.service
ds=deploy/kubernetes/sonde-daemonset.yaml
command -v capsh >/dev/null || { echo "capsh not installed"; exit 77; }
command -v curl >/dev/null || { echo "curl not installed"; exit 77; }
tmp=$(mktemp -d /tmp/sonde-deploy.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { printf 'FAIL: %s\n--- output\n%s\n' "$1" "$out"; exit 1; }

unit_value() { sed -nE "s/^$1=//p" "$unit"; }
caps=$(unit_value CapabilityBoundingSet)
[ -n "$caps" ] || { out=$(cat "$unit"); fail "no CapabilityBoundingSet in $unit"; }
[ "$(unit_value AmbientCapabilities)" = "$caps" ] || { out=$(cat "$unit"); fail "ambient and bounding sets differ"; }

# the DaemonSet grants the same set (its names lack the CAP_ prefix)
out=$(python3 - "$ds" <<'EOF'
import sys, yaml
for doc in yaml.safe_load_all(open(sys.argv[1])):
    if doc and doc.get("kind") == "DaemonSet":
        c = doc["spec"]["template"]["spec"]["containers"][0]
        print(" ".join("CAP_" + n for n in c["securityContext"]["capabilities"]["add"]))
        print(" ".join(c["args"]))
EOF
) || fail "cannot read $ds"
[ "$(sed -n 1p <<<"$out")" = "$caps" ] || fail "the DaemonSet's capabilities differ from the unit's ($caps)"
grep -q -- "--metrics 0.0.0.0:[0-9]* --tool " <<<"$(sed -n 2p <<<"$out")" || fail "the DaemonSet does not run a tool with --metrics"

# sonde and its tools where user nobody can read them
mkdir -p "$tmp/bin" && cp "$SONDE" "$tmp/bin/sonde" && cp -r tools "$tmp/bin/tools"
chmod -R a+rX "$tmp/bin"

# only the capabilities of the unit that this machine's bounding set has
have=$(capsh --print | sed -n 's/^Bounding set =//p' | tr ',' ' ')
grant=()
for c in $caps; do
	lc=$(tr 'A-Z' 'a-z' <<<"$c")
	grep -qw "$lc" <<<"$have" && grant+=("$lc")
done
as_nobody() { # capabilities (comma list) command
	local c=$1; shift
	timeout 20 capsh --caps="$c+eip cap_setpcap,cap_setuid,cap_setgid+ep" --keep=1 --user=nobody \
		--addamb="$c" -- -c "$*"
}
all=$(IFS=,; echo "${grant[*]}")

# the unit's ExecStart, with its variables as the unit sets them by default
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cmd=$(unit_value ExecStart | sed -e "s|/usr/local/bin/sonde|$tmp/bin/sonde|" -e 's/%i/runqlat/' \
	-e "s/\${SONDE_METRICS}/127.0.0.1:$port/" -e 's/\$SONDE_TOOL_ARGS//')
as_nobody "$all" "exec $cmd" > "$tmp/unit.out" 2>&1 &
pids+=($!)
got=""
for _ in $(seq 100); do
	got=$(curl -s "http://127.0.0.1:$port/metrics") && grep -q '^sonde_usecs_bucket' <<<"$got" && break
	sleep 0.1
done
out="$got$(cat "$tmp/unit.out")"
grep -q '^sonde_usecs_bucket{le="+Inf"}' <<<"$got" || fail "the unit's command served no runqlat histogram"

# each capability the comment names is needed for its job: without
# CAP_SYSLOG kernel frames are bare addresses, without CAP_SYS_ADMIN no uprobe
without() { local IFS=,; local out=() c; for c in "${grant[@]}"; do [ "$c" = "$1" ] || out+=("$c"); done; echo "${out[*]}"; }
kst="'profile:hz:999 { @[kstack(1)] = count(); } interval:ms:500 { exit(); }'"
out=$(as_nobody "$all" "$tmp/bin/sonde -q -e $kst" 2>&1)
grep -qE "^ +[a-z_][a-z0-9_.]*\+[0-9]+$" <<<"$out" || fail "no kernel symbol with the unit's capabilities"
if grep -qw cap_syslog <<<"$all"; then
	out=$(as_nobody "$(without cap_syslog)" "$tmp/bin/sonde -q -e $kst" 2>&1)
	# the kernel hides kallsyms' addresses from such a user unless perf is open to all
	hidden=$(( $(cat /proc/sys/kernel/kptr_restrict) > 0 || $(cat /proc/sys/kernel/perf_event_paranoid) > 1 ))
	grep -qE '^ +[a-z_][a-z0-9_.]*\+[0-9]+$' <<<"$out" && [ "$hidden" = 1 ] &&
		fail "kernel symbols without CAP_SYSLOG: the unit's comment is wrong"
fi
bash_bin=$(readlink -f "$(command -v bash)")
upr="'uprobe:$bash_bin:main { @ = count(); } interval:ms:200 { exit(); }'"
out=$(as_nobody "$all" "$tmp/bin/sonde -q -e $upr" 2>&1) || fail "no uprobe with the unit's capabilities"
out=$(as_nobody "$(without cap_sys_admin)" "$tmp/bin/sonde -q -e $upr" 2>&1) &&
	fail "a uprobe attached without CAP_SYS_ADMIN: the unit's comment is wrong"

# systemd checks the unit (the binary path made real for the check)
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/local/bin/sonde|$tmp/bin/sonde|" "$unit" > "$tmp/sonde-metrics@runqlat.service"
	out=$(systemd-analyze verify --man=no "$tmp/sonde-metrics@runqlat.service" 2>&1 | grep -v 'Documentation=') ||
		true
	[ -z "$out" ] || fail "systemd-analyze verify complains"
fi
echo "deploy: the unit runs runqlat as nobody with $all; the DaemonSet grants the same"
