/* proc provider: exec (before, in the old image), exec-success (in the new
 * one) and exit of the -c command */
proc:::exec
/pid == $target/
{
	printf("%s %s\n", probename, execname);
}

proc:::exec-success
/pid == $target/
{
	printf("%s %s\n", probename, execname);
}

proc:::exit
/pid == $target/
{
	printf("%s %s\n", probename, execname);
}
