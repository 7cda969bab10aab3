/* `this x;` and `self y, z;` declare ints: read before any assignment they are 0 */
this x;
self y, z;

BEGIN
{
	printf("%d %d %d\n", this->x, self->y, self->z);
	this->x = 0x1ffffffff;
	printf("%d\n", this->x);
	exit(0);
}
