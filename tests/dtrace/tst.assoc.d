/* Associative arrays keyed by several values (x[a, b]), assigning 0 frees
 * an element (reads of a missing one are 0), and thread-local arrays
 * self->x[k] (each thread its own) */
#pragma D option quiet

BEGIN
{
	x[1, "a"] = 3;
	x[2, "b"] = 4;
	printf("%d %d %d\n", x[1, "a"], x[2, "b"], x[1, "b"]);
	x[1, "a"] = 0;
	printf("%d %d\n", x[1, "a"], x[2, "b"]);
	self->t[5] = 7;
	self->t[6] = 8;
	printf("%d %d %d\n", self->t[5], self->t[6], self->t[7]);
	self->t[5] = 0;
	printf("%d %d\n", self->t[5], self->t[6]);
	exit(0);
}
