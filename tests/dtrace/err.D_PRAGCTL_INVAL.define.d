/* without -C a preprocessor line is not D */
#define X 1

BEGIN
{
	exit(0);
}
