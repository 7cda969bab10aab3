/* An element of a string array holds a string, not an integer. */
string s[4];

BEGIN
{
	s[1] = 5;
	exit(0);
}
