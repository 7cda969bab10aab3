/* strtok() with an integer for its delimiters */
BEGIN
{
	trace(strtok("a b", 32));
}
