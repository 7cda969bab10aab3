/* Integer keys print at their type's width (char unsigned, " %3d"; int
 * " %8d"; 64-bit " %16lld") and sort as unsigned (DTrace's
 * tst.signedkeys), under aggsortkey; x - x is a 64-bit 0 (timestamp is uint64_t) */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	x = timestamp;
}

BEGIN
{
	@i8[(char)-2] = sum(-2); @i8[(char)-1] = sum(-1); @i8[(char)0] = sum(0);
	@i8[(char)1] = sum(1); @i8[(char)2] = sum(2);
	@i32[(int)-2] = sum(-2); @i32[(int)-1] = sum(-1); @i32[(int)0] = sum(0);
	@i32[(int)1] = sum(1); @i32[(int)2] = sum(2);
	@i64[x - x - 2] = sum(-2); @i64[x - x - 1] = sum(-1); @i64[x - x] = sum(0);
	@i64[x - x + 1] = sum(1); @i64[x - x + 2] = sum(2);
	exit(0);
}
