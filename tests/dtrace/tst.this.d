/* clause-local variables */
BEGIN
{
	this->x = 5;
	this->y = this->x * 2;
	printf("%d %d\n", this->x, this->y);
	exit(0);
}
