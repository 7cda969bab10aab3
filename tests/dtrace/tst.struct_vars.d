/* Struct variables written member by member: a global, a thread-local and
 * a clause-local (each starts zeroed), and an array member; whole structs
 * copied between them; a struct element or thread-local assigned 0 is
 * freed (it reads as zeros again). */
#pragma D option quiet

struct pt {
	int x;
	int y;
	int v[3];
};

struct pt g;
self struct pt t;
this struct pt c;
struct pt a[int];

BEGIN
{
	g.x = 3;
	g.y -= 4;
	g.v[2] = 9;
	self->t.x = g.x * 2;
	self->t.y++;
	this->c.y = 5;
	this->c.v[1] = g.v[2] + 1;
	printf("g %d %d %d\n", g.x, g.y, g.v[2]);
	printf("self %d %d\n", self->t.x, self->t.y);
	printf("this %d %d %d %d\n", this->c.x, this->c.y, this->c.v[0], this->c.v[1]);
}

BEGIN
{
	printf("again %d %d\n", g.x, self->t.x);
	a[1] = g;
	a[1].y++;
	this->c = a[1];
	this->c.v[2]--;
	self->t = a[1];
	printf("copies %d %d %d %d %d\n", a[1].y, this->c.y, this->c.v[2], self->t.y, g.y);
	a[1] = 0;
	self->t = 0;
	printf("freed %d %d\n", a[1].x, self->t.x);
	exit(0);
}
