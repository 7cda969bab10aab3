BEGIN
{
	printa("%d", 3);
}
