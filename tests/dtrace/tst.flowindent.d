/* -F (flowindent): the "CPU FUNCTION" heading, and each entry probe's
 * function indented under the calls still open (" -> ", two columns a
 * level), returns unindented (" <- "), a system call's arrows " => " and
 * " <= ", other probes "| FUNCTION:NAME".  One call of middle(), which
 * calls leaf(); the program sleeps first, so its probes are in place. */
pid$target:a.out:middle:entry,
pid$target:a.out:leaf:entry,
pid$target:a.out:leaf:return,
pid$target:a.out:middle:return
{
}

syscall::exit_group:entry
/pid == $target/
{
}

syscall::exit_group:entry
/pid == $target/
{
	exit(0);
}
