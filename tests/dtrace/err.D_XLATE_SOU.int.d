/* a translator's output must be a struct or union */
translator int < uint64_t v >
{
};

BEGIN
{
	exit(0);
}
