/* a function the module does not have (dt_pid.c: D_PROC_FUNC) */
pid$target:a.out:no_such_function:entry
{
}
