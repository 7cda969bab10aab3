/* clause-locals read before the clause assigns them start at zero, as in
 * DTrace: a declared one, and the targets of ++ and op= */
this int n;
this string s;

BEGIN
{
	printf("declared: %d \"%s\"\n", this->n, this->s);
	printf("post-increment: %d\n", this->i++);
	printf("after: %d\n", this->i);
	++this->j;
	this->k += 5;
	printf("%d %d\n", this->j, this->k);
	this->n = 7;
	printf("%d\n", this->n);
	exit(0);
}
