# D's signed / and % on the kernel's own terms: 6.1 has no BPF_SDIV/SMOD
# (sonde fixes the signs around unsigned division), 6.12 has them.
out=$(sonde dtrace -q -n '
BEGIN
{
	printf("%d %d %d %d %d %d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2, -7 / -2, -7 % -2);
	printf("%d %d\n", -9000000000L / 7, -9000000000L % 7);
	printf("%u\n", -7L / 2UL);
	x = -7;
	x /= 2;
	a[1] = -9;
	a[1] %= 4;
	printf("%d %d\n", x, a[1]);
	exit(0);
}' 2>&1)
want='-3 -1 -3 1 3 -1
-1285714285 -5
9223372036854775804
-3 -1'
case $out in
"$want"*) exit 0 ;;
*) echo "$out"; exit 1 ;;
esac
