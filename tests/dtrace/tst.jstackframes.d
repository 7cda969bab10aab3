/* -x jstackframes=N: jstack()'s frames of each kind (native, Python);
 * -x jstackstrsize=N cuts each Python frame's line at N bytes. */
syscall::clock_nanosleep:entry
/pid == $target/
{
	jstack();
}
