/* Global scalar arrays (DTrace's Pointers and Arrays chapter): elements
 * stored and read at their type's width, by constant and by variable
 * index; unassigned elements are 0.  A clause-local array likewise,
 * zeroed at the clause's start. */
#pragma D option quiet

int x[5];
uint64_t big[3];
short s[2];
char c[4];
this int t[3];

BEGIN
{
	x[2] = 7;
	x[3]++;
	x[4] += 9;
	i = 1;
	x[i] = -12;
	x[i + 3] *= 2;
	big[1] = 0xffffffffff;
	s[1] = 70000;
	c[0] = 'A';
	c[1] = 'B';
	printf("%d %d %d %d %d\n", x[0], x[1], x[2], x[3], x[4]);
	printf("%d %d %d %s\n", big[1], s[1], c[i], c);
	this->t[1] = 5;
	this->t[i + 1]++;
	printf("%d %d %d\n", this->t[0], this->t[1], this->t[2]);
	exit(0);
}
