/* stringof() of a struct */
BEGIN
{
	trace(stringof(*curthread));
}
