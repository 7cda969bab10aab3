/* curpsinfo and curlwpsinfo (psinfo_t, lwpsinfo_t translated from the
 * task): a setsid'd /bin/true leads its session and group; its ids agree
 * with D's variables; it runs on the CPU it is on */
syscall::exit_group:entry
/curpsinfo->pr_fname == "true" && (pid == $target || ppid == $target)/
{
	printf("pid %d ppid %d uid %d euid %d gid %d egid %d\n", curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_uid == uid, curpsinfo->pr_euid == uid,
	    curpsinfo->pr_gid == gid, curpsinfo->pr_egid == gid);
	printf("session %d group %d nlwp %d dmodel %d\n", curpsinfo->pr_sid == pid,
	    curpsinfo->pr_pgid == pid, curpsinfo->pr_nlwp, curpsinfo->pr_dmodel);
	printf("fname %s psargs %s\n", curpsinfo->pr_fname, curpsinfo->pr_psargs);
	printf("started %d\n", curpsinfo->pr_start.tv_sec >= walltimestamp / 1000000000 - 60 &&
	    curpsinfo->pr_start.tv_sec <= walltimestamp / 1000000000 &&
	    curpsinfo->pr_start.tv_nsec < 1000000000);
	printf("lwpid %d state %c %d onpro %d pri %d name %s\n", curlwpsinfo->pr_lwpid == tid,
	    curlwpsinfo->pr_sname, curlwpsinfo->pr_state, curlwpsinfo->pr_onpro == cpu,
	    curlwpsinfo->pr_pri == curthread->prio, curlwpsinfo->pr_name);
}
