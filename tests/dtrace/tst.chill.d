/* chill() (with -w) spins for the given nanoseconds */
BEGIN
{
	t = timestamp;
	chill(50000000);
	printf("%s\n", timestamp - t >= 50000000 ? "waited" : "short");
	exit(0);
}
