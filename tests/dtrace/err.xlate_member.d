/* a member psinfo_t does not have */
BEGIN
{
	trace(curpsinfo->pr_nosuch);
}
