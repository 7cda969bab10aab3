/* usym()/ufunc() print file`symbol, umod() the file, uaddr() the symbol
 * and offset, as dtrace prints them, for an address in the traced
 * program's text (its first byte: the mm's start_code); printf's %A and
 * aggregation keys too.  The symbol there depends on the linker (the
 * filter names it SYM). */
#pragma D option quiet

pid$target:a.out:leaf:entry
{
	this->a = curthread->mm->start_code;
	ufunc(this->a);
	umod(this->a);
	uaddr(this->a + 2);
	usym(this->a + 2);
	printf("|\n[%A]\n", this->a + 1);
	@[ufunc(this->a), umod(this->a)] = count();
	exit(0);
}

END
{
	printa(@);
	printa("%A %@d\n", @);
}
