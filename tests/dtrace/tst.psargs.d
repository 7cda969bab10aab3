/* psinfo_t's pr_psargs: the arguments joined with spaces, at most 79 bytes
 * (PRARGSZ 80 with the NUL); the child's at proc:::create (read in the
 * parent, whose memory the child's is a copy of); the program's name for a
 * process other than the one the probe fires in (signal-send's target) */
proc:::create
/pid == $target/
{
	printf("create [%s]\n", args[0]->pr_psargs);
}

proc:::exec-success
/ppid == $target/
{
	printf("exec-success [%s]\n", curpsinfo->pr_psargs);
}

proc:::signal-send
/ppid == $target && args[2] == 10/
{
	printf("signal-send from [%s] to [%s]\n", curpsinfo->pr_psargs, args[1]->pr_psargs);
}

syscall::exit_group:entry
/pid == $target || ppid == $target/
{
	printf("exit [%s] %d\n", curpsinfo->pr_psargs, strlen(curpsinfo->pr_psargs));
}
