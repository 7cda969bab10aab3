/* a translator member the output struct does not have */
struct in { int i; char c; };
struct out { int myi; char myc; };

translator struct out < struct in *p >
{
	myi = p->i;
	yourc = p->c;
};

BEGIN
{
	exit(0);
}
