/* dynvarsize sizes associative arrays and thread-locals: 48 bytes hold 3
 * elements of an 8-byte key and an 8-byte value, so 2 of the 5 stores to
 * seen[] are dropped and dtrace's "N dynamic variable drops" is printed;
 * the elements stored are there, and storing to one of them still works. */
#pragma D option dynvarsize=48

BEGIN
{
	seen[1] = 10; seen[2] = 20; seen[3] = 30; seen[4] = 40; seen[5] = 50;
	seen[2] = 21;
	printf("%d %d %d %d %d\n", seen[1], seen[2], seen[3], seen[4], seen[5]);
	exit(0);
}
