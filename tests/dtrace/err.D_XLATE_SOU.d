/* a translator to a struct nothing defines */
struct in { int i; };

translator struct nosuch < struct in *p >
{
	a = p->i;
};

BEGIN
{
	exit(0);
}
