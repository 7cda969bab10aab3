#!/usr/sbin/dtrace -s
/*
 * errinfo.d - failed system calls: a line for each (process, call,
 * errno), or with -D SUMMARY... here: lines as they happen, counts at the end.
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%16s %16s %6s  %s\n", "EXEC", "SYSCALL", "ERRNO", "DESC");
}

syscall:::return
/errno != 0 && pid == $target/
{
	printf("%16s %16s %6d  %s\n", execname, probefunc, errno,
	    errno == 2 ? "No such file or directory" :
	    errno == 13 ? "Permission denied" :
	    errno == 9 ? "Bad file number" : "");
	@errs[execname, probefunc, errno] = count();
}

dtrace:::END
{
	printf("\n%16s %16s %6s %6s\n", "EXEC", "SYSCALL", "ERRNO", "COUNT");
	printa("%16s %16s %6d %@6d\n", @errs);
}
