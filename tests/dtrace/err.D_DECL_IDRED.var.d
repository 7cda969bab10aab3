int x;
char x;

BEGIN
{
	x = 1;
}
