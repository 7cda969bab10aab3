/* Strings order as strcmp orders them (bytes unsigned; a prefix sorts
 * first) with <, <=, >, >=; the result is an int */
#pragma D option quiet

BEGIN
{
	this->a = "abc";
	this->b = "abd";
	this->e = "";
	printf("%d %d %d %d\n", "a" < "b", "b" < "a", "abc" <= "abc", "abc" >= "abd");
	printf("%d %d %d %d\n", this->a < this->b, this->a > this->b, this->a < "ab", this->a > "ab");
	printf("%d %d %d %d\n", this->e < this->a, this->a > this->e, this->e <= "", "\xff" > "a");
	printf("%d %d\n", execname > "", strjoin(this->a, "x") > this->a);
	trace("a" < "b");
	exit(0);
}
