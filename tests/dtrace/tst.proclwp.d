/* proc provider: create for new processes, lwp-create/lwp-start/lwp-exit
 * for threads, exit once per process, exec-failure's errno and
 * signal-discard of an ignored signal (workload: procwork2.sh); lwp-exits
 * are counted and printed at the end */
proc:::create
/pid == $target/
{
	printf("create by %s\n", execname);
}

proc:::lwp-create
/ppid == $target/
{
	printf("lwp-create in %s: new thread %d\n", execname,
	    args[0]->pr_lwpid != args[1]->pr_pid && args[1]->pr_pid == pid);
}

proc:::lwp-start
/ppid == $target && tid != pid/
{
	printf("lwp-start of a thread in %s\n", execname);
}

/* counted, not printed: a joined thread's exit and its process's can reach
 * the buffer in either order (the joiner wakes before lwp-exit fires) */
proc:::lwp-exit
/ppid == $target/
{
	@lwpexit[execname, tid == pid ? "first" : "second"] = count();
}

proc:::exit
/ppid == $target/
{
	printf("exit %s %d\n", execname, args[0]);
}

proc:::exec-failure
/ppid == $target/
{
	printf("exec-failure errno %d\n", args[0]);
}

proc:::signal-discard
/pid == $target/
{
	printf("signal-discard %d to %s\n", args[2], args[1]->pr_pid == pid ? "itself" : "?");
}
