/* printa()'s formats are printf's: %a names a kernel address key as
 * module`symbol, %S escapes a string key, flags and widths apply to keys
 * and to %@ values alike */
syscall::getppid:entry
/pid == $target/
{
	@[(uint64_t)curthread->sched_class->enqueue_task, "x\ty"] = count();
}

END
{
	printa("%-30a %6s %@d|\n", @);
	printa("%a %S %@5d|%%\n", @);
}
