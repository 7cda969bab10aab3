/* The Guide's Types, Operators and Expressions chapter: arithmetic, relational,
 * logical (^^ is exclusive or, both sides evaluated), bitwise, assignment and
 * increment operators, ?: (its hex-digit example), sizeof, string compares */
#pragma D option quiet
BEGIN
{
	x = 7; y = 2;
	printf("%d %d %d %d %d\n", x + y, x - y, x * y, x / y, x % y);
	printf("%d %d %d %d %d %d\n", x < y, x <= y, x > y, x >= y, x == y, x != y);
	printf("%d %d %d %d %d %d %d\n", x && y, x || 0, x ^^ y, !x, x ^^ 0, 1 || 1 ^^ 1, 1 ^^ 1 && 0);
	printf("%d %d %d %d %d %d\n", x & y, x | y, x ^ y, x << y, x >> 1, ~x);
	z = 10; z += 5; z -= 3; z *= 2; z /= 4; z %= 5; z <<= 3; z >>= 1; z |= 1; z &= 0xff; z ^= 2;
	printf("%d\n", z);
	i = 0;
	printf("%d %d %d %d\n", i++, i, ++i, i--);
	printf("%d\n", --i);
	s = x > 5 ? "big" : "small";
	printf("%s %s\n", s, x == 0 ? "zero" : "non-zero");
	c = 'e';
	hexval = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'z') ? c + 10 - 'a' : c + 10 - 'A';
	printf("%d\n", hexval);
	printf("%d %d\n", sizeof (int), sizeof (x));
	printf("%d %d %d\n", "coffee" < "espresso", "coffee" == "coffee", "a" >= "b");
	exit(0);
}
