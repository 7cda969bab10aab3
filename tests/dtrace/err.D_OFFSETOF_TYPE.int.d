/* offsetof of a type that is no struct or union */
BEGIN
{
	trace(offsetof(int, a));
}
