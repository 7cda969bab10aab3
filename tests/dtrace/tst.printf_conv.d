/* printf's DTrace conversions: %S and %C escape what is not printable (C's
 * letters, \" and \\, octal for the rest), %a names a kernel address as
 * module`symbol+0xoff (0 has none: 0x0), %Y a walltimestamp as
 * "2026 Nov 25 02:40:00" (the filter keeps its shape), %k a stack with the
 * conversion's format for each frame and no indent */
#pragma D option quiet

BEGIN
{
	printf("[%S]\n", "tab\there\nquote\" back\\ bell\a");
	printf("[%C%C%C][%3C]\n", 'a', '\n', 1, 'z');
	printf("[%10S][%-6S]\n", "a\tb", "c");
	this->fn = (uint64_t)curthread->sched_class->enqueue_task;
	printf("[%a][%a][%-30a][%a]\n", this->fn, this->fn + 4, this->fn, 0);
	printf("[%Y][%-22Y][%24Y]\n", walltimestamp, walltimestamp, walltimestamp);
	printf("%k", stack(1));
	exit(0);
}
