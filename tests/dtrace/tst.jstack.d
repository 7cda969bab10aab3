/* jstack() in a CPython 3.11 process: the native frames as ustack()
 * prints them, then the Python frames, innermost first, as dtrace prints a
 * ustack helper's annotations: "[ file:LINE (function) ]" two columns
 * right of the frames.  As an action and as an aggregation key (printed
 * after the process has exited); jstack(n) keeps n frames of each kind.
 * Debian's CPython has no frame pointers: past the first frame the
 * kernel's unwinder gives what the registers held, so the filter keeps
 * only the first. */
syscall::clock_nanosleep:entry
/pid == $target/
{
	jstack();
	@[jstack(2)] = count();
}
