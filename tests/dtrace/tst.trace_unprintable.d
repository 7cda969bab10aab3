/* trace() of a string prints it as text when every byte before its end is
 * printable (isprint, isspace, backspace or bell: libdtrace's rule), else
 * its record (strsize + 1 bytes, zeros after the string) as tracemem()'s hex and
 * ASCII dump, as dtrace prints a char array holding such bytes */
#pragma D option quiet
#pragma D option strsize=20

BEGIN
{
	trace("tab\tnewline\n");
	trace("");
	trace("ctrl\001");
	trace(strjoin("caf", "\xe9"));
	trace("bell\a");
	printf("|\n");
	exit(0);
}
