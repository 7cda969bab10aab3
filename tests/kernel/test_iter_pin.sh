# iter:task_file:PIN with a relative path pins under /sys/fs/bpf (bpftrace
# 0.17's spelling); reading the pinned file runs the program, whose printf
# the kernel writes into it (bpf_seq_printf).  A known process holds a known
# file on fd 3.
fail() { echo "$*"; exit 1; }
rm -f /sys/fs/bpf/sonde_files
sleep 60 </dev/null >/dev/null 2>&1 3</etc/passwd &
sp=$!
trap 'kill $sp; rm -f /sys/fs/bpf/sonde_files' EXIT
sleep 0.2
out=$(sonde -e 'iter:task_file:sonde_files /ctx->task->pid == '$sp' && ctx->fd == 3/ { printf("%s:%d %d:%s\n", ctx->task->comm, ctx->task->pid, ctx->fd, str(ctx->file->f_path.dentry->d_name.name)); }' 2>&1)
[ "$out" = "Attaching 1 probe...
Program pinned to /sys/fs/bpf/sonde_files" ] || fail "sonde said: [$out]"
got=$(cat /sys/fs/bpf/sonde_files)
[ "$got" = "sleep:$sp 3:passwd" ] || fail "the pinned file read: [$got]"
exit 0
