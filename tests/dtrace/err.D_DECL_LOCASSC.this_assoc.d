/* a clause-local variable cannot be an associative array */
this string names[int];

BEGIN
{
	exit(0);
}
