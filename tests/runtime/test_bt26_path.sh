#!/usr/bin/env bash
# path(p[, size]) in iter:task_file on the real kernel: the path of a file
# this shell holds open on fd 7, whole and cut to a size (bpf_d_path keeps
# the path's end), as a map key; a pointer the verifier does not trust (a
# variable's) is refused with the reason; 0.17 takes no size.
SONDE=${SONDE:-./sonde}
fail=0
dir=$(mktemp -d /tmp/sonde-path.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/a/long/dir"
f="$dir/a/long/dir/file.txt"
: > "$f"
exec 7< "$f"
me=$BASHPID
sel="/ctx->task->tgid == $me && ctx->fd == 7/"
out=$(timeout 30 "$SONDE" -e "iter:task_file $sel { printf(\"[%s]\n\", path(ctx->file->f_path));
	printf(\"[%s]\n\", path(ctx.file.f_path, 9)); @[path(ctx->file->f_path, 16)] = count(); }" 2>&1)
grep -qxF "[$f]" <<<"$out" || { printf 'whole path:\n%s\n' "$out"; fail=1; }
grep -qxF "[file.txt]" <<<"$out" || { printf 'size 9:\n%s\n' "$out"; fail=1; }
grep -qxF "@[${f: -15}]: 1" <<<"$out" || { printf 'map key:\n%s\n' "$out"; fail=1; }
out=$(timeout 30 "$SONDE" -e "iter:task_file $sel { \$p = ctx->file; printf(\"%s\n\", path(\$p->f_path)); }" 2>&1)
grep -q "verifier rejected.*a helper argument must be a kernel pointer the verifier trusts" <<<"$out" ||
	{ printf 'untrusted:\n%s\n' "$out"; fail=1; }
out=$(SONDE_COMPAT=0.17 timeout 30 "$SONDE" -e "iter:task_file $sel { printf(\"[%s]\n\", path(ctx->file->f_path)); }" 2>&1)
grep -qxF "[$f]" <<<"$out" || { printf '0.17:\n%s\n' "$out"; fail=1; }
exec 7<&-
exit $fail
