#!/usr/bin/env bash
# iter:task, iter:task_file, iter:task_vma run on this kernel: a known
# sleeper (stdio on /dev/null, fd 3 on /etc/os-release) must be listed by
# task with its comm and pid, by task_file with exactly its four files (fds below 4: it inherits others), and
# by task_vma with exactly the ranges of /proc/PID/maps (less vsyscall,
# which is no vma); sonde exits by
# itself after the iteration; pinned (iter:task:PATH), the pinned file prints
# it on each read.  Errors: unknown iterator, pin path taken or empty, ctx
# outside iter probes.  -l/-lv list them as bpftrace 0.17 (plus task_vma).
SONDE=${SONDE:-./sonde}
fail=0
"$SONDE" --info | grep -q '^  iterators (iter:task...): yes' || { echo "kernel refuses iterators"; exit 77; }
check() { # name, expected, then sonde arguments
	local name=$1 want=$2; shift 2
	local got; got=$(timeout 30 "$SONDE" "$@" 2>&1)
	if [ "$got" != "$want" ]; then
		printf '%s: sonde %s\n--- expected\n%s\n--- got\n%s\n' "$name" "$*" "$want" "$got"; fail=1
	fi
}
sleep 60 </dev/null >/dev/null 2>&1 3</etc/os-release &
sp=$!
trap 'kill $sp 2>/dev/null' EXIT
sleep 0.2

check "task" "Attaching 1 probe...
sleep:$sp" -e 'iter:task /ctx->task->pid == $1/ { printf("%s:%d\n", ctx->task->comm, ctx->task->pid); }' "$sp"
out=$(timeout 30 "$SONDE" -e 'iter:task { printf("%s:%d\n", ctx->task->comm, ctx->task->pid); }')
grep -qx "sleep:$sp" <<<"$out" || { echo "iter:task without a filter misses sleep:$sp"; fail=1; }
grep -qx ':0' <<<"$out" && { echo "iter:task printed the iterator's end call (:0)"; fail=1; }

check "task_file" "Attaching 1 probe...
sleep:$sp 0:null
sleep:$sp 1:null
sleep:$sp 2:null
sleep:$sp 3:os-release" -e 'it:task_file /ctx->task->pid == $1 && ctx->fd < 4/ { printf("%s:%d %d:%s\n", ctx->task->comm, ctx->task->pid, ctx->fd, str(ctx->file->f_path.dentry->d_name.name)); }' "$sp"

want=$(printf 'Attaching 1 probe...\n'; grep -v '\[vsyscall\]' /proc/$sp/maps | awk '{print $1}')
check "task_vma" "$want" -e 'iter:task_vma /ctx->task->pid == $1/ { printf("%lx-%lx\n", ctx->vma->vm_start, ctx->vma->vm_end); }' "$sp"

check "unknown iterator" "stdin:1:1-11: ERROR: iter:tasks: unknown iterator (iter:task, iter:task_file and iter:task_vma are)
iter:tasks {}
^~~~~~~~~~" -e 'iter:tasks {}'
# pinning (iter:NAME:PIN): a bpf file system of our own, so the machine's
# /sys/fs/bpf is left alone; each read of the pinned file runs the program,
# whose printf the kernel formats (bpf_seq_printf: "%%" is one "%")
bpffs=$(mktemp -d)
if mount -t bpf bpf "$bpffs" 2>/dev/null; then
	trap 'kill $sp 2>/dev/null; umount "$bpffs"; rmdir "$bpffs"' EXIT
	prog='iter:task:'$bpffs'/tasks /ctx->task->pid == $1/ { printf("%s:%d %x|%5d|%-4s|%c %%\n", ctx->task->comm, ctx->task->pid, 255, 7, "ab", 65); }'
	check "pin" "Attaching 1 probe...
Program pinned to $bpffs/tasks" -e "$prog" "$sp"
	for i in 1 2; do
		got=$(cat "$bpffs/tasks")
		[ "$got" = "sleep:$sp ff|    7|ab  |A %" ] || { echo "read $i of the pinned iterator: [$got]"; fail=1; }
	done
	check "pin exists" "Attaching 1 probe...
sonde: cannot pin iter:task to $bpffs/tasks: File exists (remove it first)" -e "$prog" "$sp"
	"$SONDE" -e "$prog" "$sp" >/dev/null 2>&1 && { echo "pinning over an existing file exited 0"; fail=1; }
	rm -f "$bpffs/tasks"
	got=$("$SONDE" -e "iter:task:$bpffs/t { printf(\"%p\\n\", 1); }" 2>&1 | head -1)
	case $got in
	*": ERROR: printf() in a pinned iterator is written by the kernel (bpf_seq_printf), which cannot print %p of int64 (it takes %d %i %u %x %X %c of integers and %s of strings, with flags and width)") ;;
	*) echo "pin %p: [$got]"; fail=1 ;;
	esac
	[ -e "$bpffs/t" ] && { echo "a refused program was pinned"; fail=1; }
else
	echo "note: cannot mount a bpf file system here: pinning not tested"
fi
check "pin empty" "stdin:1:1-11: ERROR: iter:task:: the pin path after 'task:' is empty
iter:task: {}
^~~~~~~~~~" -e 'iter:task: {}'
check "ctx elsewhere" "stdin:1:7-16: ERROR: invalid program type
END { print(ctx); exit(); }
      ~~~~~~^~~
hint: ctx is a struct pt_regs * in kprobe, uprobe and usdt probes, a struct bpf_perf_event_data * in profile, interval, software, hardware and watchpoint probes, the iterator's record in iter probes" -e 'END { print(ctx); exit(); }'
check "-lv" "iter:task
    struct task_struct * task
iter:task_file
    struct task_struct * task
    int fd
    struct file * file
iter:task_vma
    struct task_struct * task
    struct vm_area_struct * vma" -lv 'iter:*'
check "-l" "iter:task_file" -l 'it:task_f*'
exit $fail
