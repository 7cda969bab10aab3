/* -D, -U and -I are accepted without -C; nothing is preprocessed then */
#pragma D option quiet

BEGIN
{
	printf("ok\n");
	exit(0);
}
