BEGIN
{
	exit(0);
}
}
