/* A string array's elements are checked as any scalar array's. */
string s[4];

BEGIN
{
	s[4] = "x";
	exit(0);
}
