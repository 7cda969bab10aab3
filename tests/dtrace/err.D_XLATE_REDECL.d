/* the same translation declared twice */
struct pair { int hi; int lo; };

translator struct pair < uint64_t v >
{
	hi = v >> 32;
};

translator struct pair < uint64_t v >
{
	lo = v;
};

BEGIN
{
	exit(0);
}
