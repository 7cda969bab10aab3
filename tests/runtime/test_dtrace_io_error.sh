#!/usr/bin/env bash
# sonde dtrace's io:::done of a failed request: a loop device over a file
# on a 64 KiB tmpfs takes 16 direct 4 KiB writes; the 17th cannot be stored
# (ENOSPC in the loop driver), so its bufinfo_t has B_ERROR in b_flags and
# b_error 28 (ENOSPC), while the others have neither.
SONDE=${SONDE:-./sonde}
command -v losetup >/dev/null || { echo "losetup not found"; exit 77; }
tmp=$(mktemp -d)
dev= mnt=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	[ -n "$mnt" ] && umount "$mnt"
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$tmp/mnt"
mount -t tmpfs -o size=64k sonde-io-error "$tmp/mnt" 2>/dev/null || { echo "cannot mount a tmpfs"; exit 77; }
mnt=$tmp/mnt
truncate -s 1M "$mnt/disk" || exit 1
dev=$(losetup -f --show "$mnt/disk") || { echo "no loop device: $dev"; exit 77; }
name=$(basename "$dev")
cat >"$tmp/io.d" <<'D'
io:::done
/args[1]->dev_statname == $$1/
{
	@[args[0]->b_flags & B_ERROR ? "failed" : "done", args[0]->b_error] = count();
}
D
got=$(timeout 60 "$SONDE" dtrace -q -s "$tmp/io.d" "$name" \
	-c "dd if=/dev/zero of=$dev bs=4096 count=17 oflag=direct status=none" 2>&1)
want="dd: error writing '$dev': No space left on device

  failed                                                   28                1
  done                                                      0               16"
if [ "$got" != "$want" ]; then
	printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$got"
	exit 1
fi
exit 0
