/* proc provider's args[] on a known workload (procwork.sh): exec's path,
 * create's psinfo_t of the child, start and lwp-start in the new process,
 * signal-send's lwpsinfo_t/psinfo_t/signal, signal-handle's signal and
 * exit's reason (1 exited, 2 killed) */
proc:::exec
/pid == $target || ppid == $target/
{
	printf("exec %s\n", args[0]);
}

proc:::exec-success
/pid == $target || ppid == $target/
{
	printf("exec-success %s\n", execname);
}

proc:::create
/pid == $target/
{
	printf("create child of %s: %d, new pid %d\n", execname, args[0]->pr_ppid == pid,
	    args[0]->pr_pid != pid);
}

proc:::start
/ppid == $target/
{
	printf("start %s\n", execname);
}

proc:::lwp-start
/ppid == $target/
{
	printf("lwp-start first thread %d\n", tid == pid);
}

proc:::signal-send
/pid == $target || ppid == $target/
{
	printf("signal-send %d from %s to %s, lwp %d\n", args[2], execname,
	    args[1]->pr_pid == pid ? "itself" : args[1]->pr_pid == ppid ? "its parent" : "?",
	    args[0]->pr_lwpid == args[1]->pr_pid);
}

proc:::signal-handle
/ppid == $target/
{
	printf("signal-handle %d in %s\n", args[0], execname);
}

proc:::exit
/pid == $target || ppid == $target/
{
	printf("exit %s %d\n", execname, args[0]);
}
