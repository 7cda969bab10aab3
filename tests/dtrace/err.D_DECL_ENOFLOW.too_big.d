enum sizes {
	SMALL = 1,
	HUGE = 2147483648
};

BEGIN
{
	exit(0);
}
