struct foo {
	int a;
};

BEGIN
{
	trace(xlate <struct foo> (1).a);
}
