/* sym()/func() print module`symbol, mod() the module, each as dtrace
 * prints them ("  %-50s", quiet or not), as statements, trace()'s
 * argument and aggregation keys; printf's %a of them adds the offset */
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	this->a = (uint64_t)curthread->sched_class->enqueue_task;
	sym(this->a);
	func(this->a + 4);
	mod(this->a);
	trace(sym(this->a + 1));
	printf("|\n%a|%a\n", sym(this->a + 4), mod(this->a));
	@[sym(this->a + 2), mod(this->a)] = count();
	@[func(0), mod(0)] = count();
	exit(0);
}

END
{
	printa(@);
	printa("%a|%a|%@d\n", @);
}
