/* profile-N's arg0 is the kernel PC (0 in user mode), arg1 the user PC (0
 * in the kernel): never both; busy shell loops (schedwork.sh's children)
 * are sampled in user mode */
profile-997
/ppid == $target/
{
	user += arg0 == 0 && arg1 != 0;
	both += arg0 != 0 && arg1 != 0;
	none += arg0 == 0 && arg1 == 0;
}

END
{
	printf("user %d both %d none %d\n", user > 0, both, none);
}
