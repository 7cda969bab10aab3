/* included by err.cpp_header_line.d: a D error on its line 4 */
BEGIN
{
	x = ;
}
