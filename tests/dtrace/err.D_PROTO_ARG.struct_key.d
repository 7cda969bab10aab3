/* two struct types of one layout are still two types */
struct record {
	int position;
	char content;
};

struct pirate {
	int position;
	char content;
};

struct record r;
struct pirate p;

BEGIN
{
	a[r] = 1;
	a[p] = 2;
	exit(0);
}
