# kprobe:FUNC+OFFSET: the instruction after vfs_read's fentry call is at +5,
# or +9 on kernels built with IBT (an endbr64 first), where +5 is not
# an instruction boundary; a probe at a boundary counts each of dd's 20 reads,
# one inside the fentry call is refused by name.
ok=0
for off in 5 9; do
	out=$(sonde -e "kprobe:vfs_read+$off /pid == cpid/ { @[probe] = count(); }" \
		-c 'dd if=/dev/zero of=/dev/null bs=1 count=20 status=none' 2>&1)
	case $out in
	*"@[kprobe:vfs_read+$off]: 20"*) ok=$((ok + 1)) ;;
	*"cannot attach kprobe:vfs_read+$off: the offset is not at an instruction boundary"*) ;;
	*) echo "+$off: $out"; exit 1 ;;
	esac
done
[ $ok -ge 1 ] || { echo "none of +5, +9 attached"; exit 1; }
exit 0
