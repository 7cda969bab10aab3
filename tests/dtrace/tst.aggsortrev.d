/* -x aggsortrev: largest value first */
#pragma D option quiet

BEGIN
{
	@a["one"] = sum(1); @a["three"] = sum(3); @a["two"] = sum(2);
	exit(0);
}
