string s;

BEGIN
{
	s = 1;
}
