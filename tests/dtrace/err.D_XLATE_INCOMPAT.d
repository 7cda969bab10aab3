/* a translator member whose value the output member cannot hold (an
 * integer into a pointer), found where the whole struct is used */
struct in {
	int i;
	char c;
};

struct out {
	int myi;
	char *myc;
};

translator struct out < struct in *p >
{
	myi = p->i;
	myc = p->c;
};

BEGIN
{
	trace(xlate <struct out> ((struct in *)curthread));
	exit(0);
}
