/* a clause-local read before any assignment */
BEGIN
{
	trace(this->n);
	exit(0);
}
