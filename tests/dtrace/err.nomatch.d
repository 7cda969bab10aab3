syscall::nosuchcall:entry
{
}
