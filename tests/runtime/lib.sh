# Shared by the scripted runtime tests: check NAME EXPECTED SONDE-ARGS... runs sonde
# and sets fail=1 with a diff-like report when its output differs.
check() { # name, expected, then sonde arguments
	local name=$1 want=$2; shift 2
	local got; got=$("$SONDE" "$@" 2>&1)
	if [ "$got" != "$want" ]; then
		printf '%s: sonde %s\n--- expected\n%s\n--- got\n%s\n' "$name" "$*" "$want" "$got"; fail=1
	fi
}
