/* a whole translated struct (xlate <T>(x) with no member after it): it can
 * be assigned and its members read back, and trace() prints its bytes as
 * dtrace prints a struct; the members the translator leaves out are 0 */
struct out {
	int oi;
	char oc;
	char name[8];
	long low;
};

translator struct out < uint64_t v >
{
	oi = v >> 32;
	name = "abc";
	low = v & 0xff;
};

BEGIN
{
	o = xlate <struct out> (0x500000007ULL);
	printf("%d %d %s %d\n", o.oi, o.oc, o.name, o.low);
	trace(xlate <struct out> (0x500000007ULL));
	exit(0);
}
