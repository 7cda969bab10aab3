#!/usr/bin/env bash
# sonde dtrace's io provider: io:::start and io:::done of three 4 KiB direct
# writes to a loop device made for the test, with bufinfo_t (b_bcount,
# b_blkno, b_flags, b_resid, b_error) and devinfo_t (dev_statname,
# dev_pathname, dev_major, dev_minor, dev_name: a loop disk has no parent
# device and its driver is built in, so <none>).
# Requests are matched start to done by block number, so other disks' I/O
# (other tests, the system) does not count.
SONDE=${SONDE:-./sonde}
command -v losetup >/dev/null || { echo "losetup not found"; exit 77; }
tmp=$(mktemp -d)
dev=
cleanup() { [ -n "$dev" ] && losetup -d "$dev"; rm -rf "$tmp"; }
trap cleanup EXIT
truncate -s 1M "$tmp/disk" || exit 1
dev=$(losetup -f --show "$tmp/disk") || { echo "no loop device: $dev"; exit 77; }
name=$(basename "$dev")
minor=$((16#$(stat -c %T "$dev")))
cat >"$tmp/io.d" <<'D'
io:::start
/args[1]->dev_statname == $$1/
{
	printf("start %s %d:%d %s %d bytes at block %d\n", args[1]->dev_statname,
	    args[1]->dev_major, args[1]->dev_minor,
	    args[0]->b_flags & B_WRITE ? "write" : "read", args[0]->b_bcount, args[0]->b_blkno);
	started[args[0]->b_blkno] = 1;
}

io:::done
/started[args[0]->b_blkno] && args[1]->dev_statname == $$1/
{
	printf("done %s %s %s resid %d error %d flags %x\n", args[2]->fi_pathname,
	    args[1]->dev_pathname, args[1]->dev_name, args[0]->b_resid, args[0]->b_error,
	    args[0]->b_flags);
}
D
got=$(timeout 60 "$SONDE" dtrace -q -s "$tmp/io.d" "$name" \
	-c "dd if=/dev/zero of=$dev bs=4096 count=3 oflag=direct status=none" 2>&1)
done="done <unknown> /dev/$name <none> resid 0 error 0 flags 100"
want="start $name 7:$minor write 4096 bytes at block 0
$done
start $name 7:$minor write 4096 bytes at block 8
$done
start $name 7:$minor write 4096 bytes at block 16
$done"
if [ "$got" != "$want" ]; then
	printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$got"
	exit 1
fi
exit 0
