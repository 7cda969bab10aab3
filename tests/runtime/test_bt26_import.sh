#!/usr/bin/env bash
# bpftrace 0.26's `import "PATH";` on the real kernel: an imported file's
# macros, map declarations, C definitions and probes join the script (a .h
# file's C too) (its begin probe runs
# before the importing script's), a directory's .bt files in name order; an
# error in an imported file names that file, line and column and shows its
# line with a caret (0.26's FILE:LINE:COL); under SONDE_COMPAT=0.17 there is
# no import.
SONDE=${SONDE:-./sonde}
SONDE=$(realpath "$SONDE")
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT
dir=$(mktemp -d /tmp/sonde-import-XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
mkdir "$dir/lib"
cat >"$dir/lib/a.bt" <<'BT'
// helpers
macro add_one(x) { x + 1 }
let @seen = lruhash(16);
begin { printf("a.bt begin\n"); }
BT
cat >"$dir/lib/b.bt" <<'BT'
import "a.bt";
macro add_two(x) { add_one(add_one(x)) }
BT
cat >"$dir/main.bt" <<'BT'
import "lib";
begin { printf("main %d\n", add_two(1)); @seen[7] = 1; exit(); }
BT
out=$(cd "$dir" && "$SONDE" main.bt 2>/dev/null); rc=$?
want=$(printf 'a.bt begin\nmain 3\n\n\n@seen[7]: 1')
[ $rc = 0 ] && [ "$out" = "$want" ] || bad "import of a directory ($rc): $out"

# an error in an imported file: its name, line, column and text
cat >"$dir/lib/bad.bt" <<'BT'
begin {
  @x = 1;
  @x = "s";
}
BT
out=$(cd "$dir" && "$SONDE" -e 'import "lib/bad.bt"; begin { exit(); }' 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^$dir/lib/bad.bt:3:3-5: ERROR: Type mismatch for @x" <<<"$out" &&
	grep -q '^  @x = "s";$' <<<"$out" && grep -q '^  \^~$' <<<"$out" ||
	bad "error in an imported file ($rc): $out"
printf 'macro f( { }\n' >"$dir/lib/syntax.bt"
out=$(cd "$dir" && "$SONDE" -e 'import "lib/syntax.bt"; begin { exit(); }' 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^$dir/lib/syntax.bt:1:10-11: ERROR: syntax error" <<<"$out" ||
	bad "syntax error in an imported file ($rc): $out"

# C in imported files: a .h file's definitions, a .bt file's struct and
# #define, read on the real kernel (sizes and constants in the output)
cat >"$dir/defs.h" <<'H'
#define LIMIT 42
enum color { RED = 1, GREEN = 2 };
struct pt { int x; long y; };
H
cat >"$dir/cdefs.bt" <<'BT'
struct box { int w; int h; };
#define SIDE 7
macro area() { sizeof(struct box) * SIDE }
BT
out=$(cd "$dir" && "$SONDE" -e 'import "defs.h"; import "cdefs.bt";
begin { printf("%d %d %d %d\n", LIMIT, GREEN, sizeof(struct pt), area()); exit(); }' 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^42 2 16 56$' <<<"$out" || bad "C in imported files ($rc): $out"

# #include "x.h" in an imported file is found beside that file, and a
# header's own #include beside the header, not in the script's directory
mkdir -p "$dir/inc/sub"
printf '#include "sub/inner.h"\nstruct outer { struct inner i; int z; };\n' >"$dir/inc/outer.h"
printf 'struct inner { long a; long b; };\n#define INNER 5\n' >"$dir/inc/sub/inner.h"
printf '#include "outer.h"\nmacro osize() { sizeof(struct outer) }\n' >"$dir/inc/uses.bt"
out=$(cd "$dir" && "$SONDE" -e 'import "inc/uses.bt"; begin { printf("%d %d\n", osize(), INNER); exit(); }' 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^24 5$' <<<"$out" || bad "#include in an imported file ($rc): $out"

# 0.26's errors: a missing file, an unknown kind of file
out=$(cd "$dir" && "$SONDE" -e 'import "nope.bt"; begin { exit(); }' 2>&1); rc=$?
[ $rc = 1 ] && grep -q '^stdin:1:1-18: ERROR: Unable to find suitable path for import$' <<<"$out" &&
	grep -q '^HINT: checked: nope.bt$' <<<"$out" || bad "missing import ($rc): $out"
echo x >"$dir/notes.txt"
out=$(cd "$dir" && "$SONDE" -e 'import "notes.txt"; begin { exit(); }' 2>&1); rc=$?
[ $rc = 1 ] && grep -q 'ERROR: unknown import type: "notes.txt"$' <<<"$out" ||
	bad "unknown import type ($rc): $out"

out=$(cd "$dir" && SONDE_COMPAT=0.17 "$SONDE" -e 'import "lib/a.bt"; BEGIN { exit(); }' 2>&1); rc=$?
[ $rc != 0 ] || bad "0.17 has no import ($rc): $out"
exit $fail
