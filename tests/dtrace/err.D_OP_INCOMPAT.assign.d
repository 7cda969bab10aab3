BEGIN
{
	x = 1;
	x = "a";
}
