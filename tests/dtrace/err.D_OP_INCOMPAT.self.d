BEGIN
{
	self->x = "a";
	self->x = 2;
}
