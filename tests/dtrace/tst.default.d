/* the default output of a syscall probe; "matched" and "has exited"
 * go to stderr */
