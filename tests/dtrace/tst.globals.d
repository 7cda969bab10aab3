/* global scalars and associative arrays; assigning 0 to an element frees it */
BEGIN
{
	x = 3;
	a["k"] = 4;
	a["j"] = x + a["k"];
	printf("%d %d %d\n", x, a["k"], a["j"]);
	a["k"] = 0;
	printf("%d\n", a["k"]);
	exit(0);
}
