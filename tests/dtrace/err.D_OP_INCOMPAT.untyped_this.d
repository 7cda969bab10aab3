/* a clause-local declared without a type is an int (DTrace) */
this x;

BEGIN
{
	this->x = execname;
	exit(0);
}
