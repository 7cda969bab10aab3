/* llquantize()'s increment (argument #6) is a number */
BEGIN
{
	@lat = llquantize(100, 10, 0, 6, 20, "many");
	exit(0);
}
