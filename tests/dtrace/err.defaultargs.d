/* without defaultargs a macro argument not given is an error */
BEGIN
{
	trace($2);
}
