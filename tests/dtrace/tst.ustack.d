/* ustack(n) as an action (a record of its own lines: "\n", then one
 * "module`function+0xoff" line per frame, indented 14) and as an
 * aggregation key (the stack, then the value); a frame at a function's
 * first byte has no offset.  The program sleeps before calling leaf(), so
 * its mappings are known when the stacks print. */
pid$target:a.out:leaf:entry
{
	ustack(2);
	@[ustack(2)] = count();
}
