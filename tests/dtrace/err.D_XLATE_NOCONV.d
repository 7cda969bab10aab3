struct pair {
	int hi;
	int lo;
};

translator struct pair < uint64_t v >
{
	hi = v >> 32;
};

BEGIN
{
	trace(xlate <struct pair> (1).lo);
}
