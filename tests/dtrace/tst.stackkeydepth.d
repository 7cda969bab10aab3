/* A stack aggregation key is its first N frames, as the kernel records
 * them in DTrace: getppid() called from two functions gives user stacks
 * that differ in their second frame only, so ustack() with
 * -x ustackframes=1 is one key counting all 6 calls, ustack(2) two keys
 * of 3, and stack(1) one kernel key.  The program sleeps first, so its
 * mappings are known when the stacks print. */
syscall::getppid:entry
/pid == $target/
{
	@one[ustack()] = count();
	@two[ustack(2)] = count();
	@kernel[stack(1)] = count();
}
