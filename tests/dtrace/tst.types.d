/* C declarations in D: a struct, sizeof and offsetof; string equality */
struct point {
	int x;
	long y;
};

BEGIN
{
	this->s = "abc";
	printf("%d %d %d %d\n", this->s == "abc", this->s != "abd", sizeof(struct point),
	    offsetof(struct point, y));
	exit(0);
}
