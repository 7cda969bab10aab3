/* D's built-in variables in BEGIN (which fires in dtrace itself) */
BEGIN
{
	printf("%s:%s:%s:%s id=%d\n", probeprov, probemod, probefunc, probename, id);
	printf("pid %d ppid %d tid %d uid %d gid %d\n", pid == $pid, ppid == $ppid,
	    tid == $pid, uid == $uid, gid == $gid);
	printf("time %d %d %d\n", timestamp > 0, vtimestamp > 0,
	    walltimestamp / 1000000000 > 1600000000);
	printf("cpu %d thread %d errno %d\n", cpu >= 0, curthread != 0, errno);
	exit(0);
}
